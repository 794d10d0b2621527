CREATE TABLE "genial_invoices" (
	"company_id" uuid NOT NULL,
	"order_kind" text NOT NULL,
	"order_id" uuid NOT NULL,
	"status" text NOT NULL,
	"document_type" text,
	"series" text,
	"number" text,
	"pdf_url" text,
	"xml_url" text,
	"remote_id" text,
	"customer_tax_id" text,
	"last_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "genial_invoices_company_id_order_kind_order_id_pk" PRIMARY KEY("company_id","order_kind","order_id")
);
--> statement-breakpoint
CREATE TABLE "genial_settings" (
	"company_id" uuid NOT NULL,
	"country" text NOT NULL,
	"api_url" text NOT NULL,
	"token" text NOT NULL,
	"issuer_tax_id" text NOT NULL,
	"issuer_name" text NOT NULL,
	"series_factura" text NOT NULL,
	"series_boleta" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "genial_settings_company_id_country_pk" PRIMARY KEY("company_id","country")
);
--> statement-breakpoint
ALTER TABLE "genial_invoices" ADD CONSTRAINT "genial_invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "genial_settings" ADD CONSTRAINT "genial_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "genial_invoices_status_idx" ON "genial_invoices" USING btree ("company_id","status");