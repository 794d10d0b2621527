CREATE TABLE "resource_counts" (
	"company_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "resource_counts_company_id_resource_pk" PRIMARY KEY("company_id","resource")
);
--> statement-breakpoint
CREATE TABLE "ecommerces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sku" text NOT NULL,
	"price" double precision NOT NULL,
	"regular_price" double precision,
	"stock" integer NOT NULL,
	"status" text NOT NULL,
	"country" text NOT NULL,
	"woocommerce_id" integer,
	"category_ids" jsonb,
	"tag_ids" jsonb,
	"sizes" jsonb,
	"attributes" jsonb,
	"image_url" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecommerces_variations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"ecommerce_id" uuid,
	"sku" text NOT NULL,
	"attributes" jsonb NOT NULL,
	"price" double precision NOT NULL,
	"stock" integer NOT NULL,
	"woocommerce_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketing_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"segment_id" uuid,
	"channel" text NOT NULL,
	"template_name" text NOT NULL,
	"message" text,
	"chunk_size" integer NOT NULL,
	"scheduled_at" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"company_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "ecommerces" ADD CONSTRAINT "ecommerces_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecommerces_variations" ADD CONSTRAINT "ecommerces_variations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketing_campaigns" ADD CONSTRAINT "marketing_campaigns_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ecommerces_created_at_idx" ON "ecommerces" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_updated_at_idx" ON "ecommerces" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_name_idx" ON "ecommerces" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "ecommerces_sku_idx" ON "ecommerces" USING btree ("company_id","sku","id");--> statement-breakpoint
CREATE INDEX "ecommerces_price_idx" ON "ecommerces" USING btree ("company_id","price","id");--> statement-breakpoint
CREATE INDEX "ecommerces_stock_idx" ON "ecommerces" USING btree ("company_id","stock","id");--> statement-breakpoint
CREATE INDEX "ecommerces_status_idx" ON "ecommerces" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ecommerces_sku_uq" ON "ecommerces" USING btree ("company_id","sku");--> statement-breakpoint
CREATE INDEX "ecommerces_variations_created_at_idx" ON "ecommerces_variations" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_variations_updated_at_idx" ON "ecommerces_variations" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_variations_sku_idx" ON "ecommerces_variations" USING btree ("company_id","sku","id");--> statement-breakpoint
CREATE INDEX "ecommerces_variations_price_idx" ON "ecommerces_variations" USING btree ("company_id","price","id");--> statement-breakpoint
CREATE INDEX "ecommerces_variations_stock_idx" ON "ecommerces_variations" USING btree ("company_id","stock","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ecommerces_variations_sku_uq" ON "ecommerces_variations" USING btree ("company_id","sku");--> statement-breakpoint
CREATE INDEX "marketing_campaigns_created_at_idx" ON "marketing_campaigns" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "marketing_campaigns_updated_at_idx" ON "marketing_campaigns" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "marketing_campaigns_name_idx" ON "marketing_campaigns" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "marketing_campaigns_status_idx" ON "marketing_campaigns" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "marketing_campaigns_scheduled_at_idx" ON "marketing_campaigns" USING btree ("company_id","scheduled_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketing_campaigns_name_uq" ON "marketing_campaigns" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "group_members_company_user_idx" ON "group_members" USING btree ("company_id","user_id");