CREATE TABLE "ecommerce_sync_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cursor" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"store_writes" integer DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"failed_items" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "woocommerce_links" (
	"company_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"remote_id" integer NOT NULL,
	"record_id" uuid NOT NULL,
	"hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "woocommerce_links_store_id_kind_remote_id_pk" PRIMARY KEY("store_id","kind","remote_id")
);
--> statement-breakpoint
CREATE TABLE "woocommerce_webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"delivery_id" text NOT NULL,
	"topic" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "ecommerces_sku_uq";--> statement-breakpoint
DROP INDEX "ecommerces_variations_sku_uq";--> statement-breakpoint
ALTER TABLE "ecommerces_categories" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "ecommerces_tags" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "woocommerces" ADD COLUMN "webhook_secret" text;--> statement-breakpoint
ALTER TABLE "ecommerce_sync_runs" ADD CONSTRAINT "ecommerce_sync_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecommerce_sync_runs" ADD CONSTRAINT "ecommerce_sync_runs_store_id_woocommerces_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."woocommerces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "woocommerce_links" ADD CONSTRAINT "woocommerce_links_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "woocommerce_links" ADD CONSTRAINT "woocommerce_links_store_id_woocommerces_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."woocommerces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "woocommerce_webhook_events" ADD CONSTRAINT "woocommerce_webhook_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "woocommerce_webhook_events" ADD CONSTRAINT "woocommerce_webhook_events_store_id_woocommerces_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."woocommerces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ecommerce_sync_runs_company_created_idx" ON "ecommerce_sync_runs" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "ecommerce_sync_runs_status_idx" ON "ecommerce_sync_runs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "woocommerce_links_record_idx" ON "woocommerce_links" USING btree ("company_id","kind","record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "woocommerce_webhook_events_delivery_uq" ON "woocommerce_webhook_events" USING btree ("store_id","delivery_id");--> statement-breakpoint
CREATE INDEX "woocommerce_webhook_events_status_idx" ON "woocommerce_webhook_events" USING btree ("status");--> statement-breakpoint
CREATE INDEX "ecommerces_categories_country_filter_idx" ON "ecommerces_categories" USING btree ("company_id","country","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_country_filter_idx" ON "ecommerces" USING btree ("company_id","country","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_status_filter_idx" ON "ecommerces" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_tags_country_filter_idx" ON "ecommerces_tags" USING btree ("company_id","country","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_variations_ecommerce_id_filter_idx" ON "ecommerces_variations" USING btree ("company_id","ecommerce_id","sku","id");--> statement-breakpoint
CREATE UNIQUE INDEX "woocommerces_country_uq" ON "woocommerces" USING btree ("company_id","country");