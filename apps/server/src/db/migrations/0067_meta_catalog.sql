CREATE TABLE "meta_catalog_items" (
	"company_id" uuid NOT NULL,
	"meta_catalog_id" uuid NOT NULL,
	"product_id" uuid,
	"retailer_id" text NOT NULL,
	"hash" text,
	"status" text NOT NULL,
	"error" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meta_catalogs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"catalog_id" text NOT NULL,
	"sync_status" text DEFAULT 'idle' NOT NULL,
	"sync_total" integer DEFAULT 0 NOT NULL,
	"sync_processed" integer DEFAULT 0 NOT NULL,
	"sync_sent" integer DEFAULT 0 NOT NULL,
	"sync_failed" integer DEFAULT 0 NOT NULL,
	"sync_message" text,
	"sync_started_at" timestamp with time zone,
	"sync_finished_at" timestamp with time zone,
	"sync_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- the composite key of the items needs the catalogues' (company_id, id) first
CREATE UNIQUE INDEX "meta_catalogs_company_id_uq" ON "meta_catalogs" USING btree ("company_id","id");--> statement-breakpoint
ALTER TABLE "meta_catalog_items" ADD CONSTRAINT "meta_catalog_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_catalog_items" ADD CONSTRAINT "meta_catalog_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_catalog_items" ADD CONSTRAINT "meta_catalog_items_catalog_fk" FOREIGN KEY ("company_id","meta_catalog_id") REFERENCES "public"."meta_catalogs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_catalogs" ADD CONSTRAINT "meta_catalogs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_catalogs" ADD CONSTRAINT "meta_catalogs_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_catalogs" ADD CONSTRAINT "meta_catalogs_sync_by_users_id_fk" FOREIGN KEY ("sync_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meta_catalog_items_uq" ON "meta_catalog_items" USING btree ("meta_catalog_id","retailer_id");--> statement-breakpoint
CREATE INDEX "meta_catalog_items_product_idx" ON "meta_catalog_items" USING btree ("company_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meta_catalogs_channel_uq" ON "meta_catalogs" USING btree ("channel_id");
