CREATE TABLE "marketplace_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"order_number" text NOT NULL,
	"external_id" text NOT NULL,
	"status" text NOT NULL,
	"customer_name" text NOT NULL,
	"customer_email" text,
	"customer_phone" text,
	"address" text,
	"city" text,
	"region" text,
	"total" double precision NOT NULL,
	"currency" text NOT NULL,
	"country" text NOT NULL,
	"source_id" uuid,
	"items_count" integer NOT NULL,
	"payment_method" text,
	"shipping_type" text,
	"promised_shipping_at" text,
	"marketplace_updated_at" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"parent_sku" text NOT NULL,
	"brand" text,
	"category" text,
	"image_url" text,
	"url" text,
	"status" text NOT NULL,
	"country" text NOT NULL,
	"source_id" uuid,
	"variations" integer NOT NULL,
	"stock" integer NOT NULL,
	"price" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_variations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"seller_sku" text NOT NULL,
	"product_id" uuid,
	"source_id" uuid,
	"shop_sku" text,
	"name" text NOT NULL,
	"variation" text,
	"price" double precision NOT NULL,
	"sale_price" double precision,
	"stock" integer NOT NULL,
	"status" text NOT NULL,
	"country" text NOT NULL,
	"sync_status" text NOT NULL,
	"sync_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_bulk_rows" (
	"company_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"sku" text NOT NULL,
	"variation_id" uuid,
	"name" text,
	"old_price" double precision,
	"new_price" double precision,
	"old_stock" integer,
	"new_stock" integer,
	"status" text NOT NULL,
	"reason" text,
	CONSTRAINT "marketplace_bulk_rows_company_id_run_id_row_pk" PRIMARY KEY("company_id","run_id","row")
);
--> statement-breakpoint
CREATE TABLE "marketplace_bulk_runs" (
	"company_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"status" text DEFAULT 'preview' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"changes" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"invalid" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"updates" integer DEFAULT 0 NOT NULL,
	"message" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "marketplace_bulk_runs_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "marketplace_links" (
	"company_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"remote_id" text NOT NULL,
	"record_id" uuid NOT NULL,
	"hash" text NOT NULL,
	"remote" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "marketplace_links_company_id_source_id_kind_remote_id_pk" PRIMARY KEY("company_id","source_id","kind","remote_id")
);
--> statement-breakpoint
CREATE TABLE "marketplace_order_items" (
	"company_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"seller_sku" text NOT NULL,
	"shop_sku" text,
	"name" text NOT NULL,
	"variation" text,
	"status" text NOT NULL,
	"price" double precision NOT NULL,
	"paid_price" double precision NOT NULL,
	"shipping_amount" double precision DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"package_id" text,
	"tracking_code" text,
	"shipment_provider" text,
	"variation_id" uuid,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "marketplace_order_items_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "marketplace_sync_runs" (
	"company_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"cursor" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"failed_items" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "marketplace_sync_runs_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "marketplace_sources" ADD COLUMN "api_user" text;--> statement-breakpoint
ALTER TABLE "marketplace_sources" ADD COLUMN "api_url" text;--> statement-breakpoint
ALTER TABLE "marketplace_orders" ADD CONSTRAINT "marketplace_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_products" ADD CONSTRAINT "marketplace_products_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_variations" ADD CONSTRAINT "marketplace_variations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_bulk_rows" ADD CONSTRAINT "marketplace_bulk_rows_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_bulk_rows" ADD CONSTRAINT "marketplace_bulk_rows_run_fk" FOREIGN KEY ("company_id","run_id") REFERENCES "public"."marketplace_bulk_runs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_bulk_runs" ADD CONSTRAINT "marketplace_bulk_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_bulk_runs" ADD CONSTRAINT "marketplace_bulk_runs_source_id_marketplace_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."marketplace_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_links" ADD CONSTRAINT "marketplace_links_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_links" ADD CONSTRAINT "marketplace_links_source_id_marketplace_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."marketplace_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_order_items" ADD CONSTRAINT "marketplace_order_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_order_items" ADD CONSTRAINT "marketplace_order_items_order_id_marketplace_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."marketplace_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_sync_runs" ADD CONSTRAINT "marketplace_sync_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_sync_runs" ADD CONSTRAINT "marketplace_sync_runs_source_id_marketplace_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."marketplace_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "marketplace_orders_created_at_idx" ON "marketplace_orders" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_updated_at_idx" ON "marketplace_orders" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_order_number_idx" ON "marketplace_orders" USING btree ("company_id","order_number","id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_total_idx" ON "marketplace_orders" USING btree ("company_id","total","id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_status_idx" ON "marketplace_orders" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_source_id_filter_idx" ON "marketplace_orders" USING btree ("company_id","source_id","created_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_country_filter_idx" ON "marketplace_orders" USING btree ("company_id","country","created_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_status_filter_idx" ON "marketplace_orders" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_order_number_trgm" ON "marketplace_orders" USING gin ("order_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_orders_customer_name_trgm" ON "marketplace_orders" USING gin ("customer_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_orders_customer_email_trgm" ON "marketplace_orders" USING gin ("customer_email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_products_created_at_idx" ON "marketplace_products" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_updated_at_idx" ON "marketplace_products" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_name_idx" ON "marketplace_products" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_parent_sku_idx" ON "marketplace_products" USING btree ("company_id","parent_sku","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_price_idx" ON "marketplace_products" USING btree ("company_id","price","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_stock_idx" ON "marketplace_products" USING btree ("company_id","stock","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_status_idx" ON "marketplace_products" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_source_id_filter_idx" ON "marketplace_products" USING btree ("company_id","source_id","name","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_country_filter_idx" ON "marketplace_products" USING btree ("company_id","country","name","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_status_filter_idx" ON "marketplace_products" USING btree ("company_id","status","name","id");--> statement-breakpoint
CREATE INDEX "marketplace_products_name_trgm" ON "marketplace_products" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_products_parent_sku_trgm" ON "marketplace_products" USING gin ("parent_sku" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_products_brand_trgm" ON "marketplace_products" USING gin ("brand" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_variations_created_at_idx" ON "marketplace_variations" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_updated_at_idx" ON "marketplace_variations" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_seller_sku_idx" ON "marketplace_variations" USING btree ("company_id","seller_sku","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_name_idx" ON "marketplace_variations" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_price_idx" ON "marketplace_variations" USING btree ("company_id","price","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_stock_idx" ON "marketplace_variations" USING btree ("company_id","stock","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_status_idx" ON "marketplace_variations" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_sync_status_idx" ON "marketplace_variations" USING btree ("company_id","sync_status","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_product_id_filter_idx" ON "marketplace_variations" USING btree ("company_id","product_id","seller_sku","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_source_id_filter_idx" ON "marketplace_variations" USING btree ("company_id","source_id","seller_sku","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_country_filter_idx" ON "marketplace_variations" USING btree ("company_id","country","seller_sku","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_status_filter_idx" ON "marketplace_variations" USING btree ("company_id","status","seller_sku","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_sync_status_filter_idx" ON "marketplace_variations" USING btree ("company_id","sync_status","seller_sku","id");--> statement-breakpoint
CREATE INDEX "marketplace_variations_seller_sku_trgm" ON "marketplace_variations" USING gin ("seller_sku" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_variations_name_trgm" ON "marketplace_variations" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_variations_shop_sku_trgm" ON "marketplace_variations" USING gin ("shop_sku" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "marketplace_bulk_rows_status_idx" ON "marketplace_bulk_rows" USING btree ("company_id","run_id","status");--> statement-breakpoint
CREATE INDEX "marketplace_bulk_runs_created_idx" ON "marketplace_bulk_runs" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "marketplace_links_record_idx" ON "marketplace_links" USING btree ("company_id","kind","record_id");--> statement-breakpoint
CREATE INDEX "marketplace_order_items_order_idx" ON "marketplace_order_items" USING btree ("company_id","order_id","position");--> statement-breakpoint
CREATE INDEX "marketplace_sync_runs_created_idx" ON "marketplace_sync_runs" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "marketplace_sync_runs_source_idx" ON "marketplace_sync_runs" USING btree ("company_id","source_id","status");--> statement-breakpoint
CREATE INDEX "marketplace_sources_platform_filter_idx" ON "marketplace_sources" USING btree ("company_id","platform","name","id");--> statement-breakpoint
CREATE INDEX "marketplace_sources_country_filter_idx" ON "marketplace_sources" USING btree ("company_id","country","name","id");