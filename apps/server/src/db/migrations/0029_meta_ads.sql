CREATE TABLE "meta_ads" (
	"company_id" uuid NOT NULL,
	"ad_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"campaign_name" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meta_ads_company_id_ad_id_pk" PRIMARY KEY("company_id","ad_id")
);
--> statement-breakpoint
ALTER TABLE "meta_ads" ADD CONSTRAINT "meta_ads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meta_ads_company_campaign_idx" ON "meta_ads" USING btree ("company_id","campaign_id");