CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"catalog_id" uuid,
	"customer_name" text NOT NULL,
	"telefono" text NOT NULL,
	"customer" jsonb NOT NULL,
	"shippment" jsonb,
	"items" jsonb NOT NULL,
	"subtotal" double precision NOT NULL,
	"shipping_cost" double precision,
	"total" double precision NOT NULL,
	"currency" text NOT NULL,
	"lead_id" uuid,
	"chat_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_requests" (
	"company_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"order_id" uuid NOT NULL,
	"response" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_requests_company_id_key_pk" PRIMARY KEY("company_id","key")
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "variants" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_links" ADD CONSTRAINT "order_links_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_links" ADD CONSTRAINT "order_links_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_requests" ADD CONSTRAINT "order_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_requests" ADD CONSTRAINT "order_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_created_at_idx" ON "orders" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_updated_at_idx" ON "orders" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "orders_code_idx" ON "orders" USING btree ("company_id","code","id");--> statement-breakpoint
CREATE INDEX "orders_total_idx" ON "orders" USING btree ("company_id","total","id");--> statement-breakpoint
CREATE INDEX "orders_status_filter_idx" ON "orders" USING btree ("company_id","status","updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_code_uq" ON "orders" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "orders_code_trgm" ON "orders" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_customer_name_trgm" ON "orders" USING gin ("customer_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_telefono_trgm" ON "orders" USING gin ("telefono" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "order_links_company_order_idx" ON "order_links" USING btree ("company_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "catalogs_is_default_one_uq" ON "catalogs" USING btree ("company_id") WHERE "is_default" = true;