CREATE TABLE "metrics_ad_leads" (
	"company_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"referral_id" uuid NOT NULL,
	"referred_at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"ad_id" text NOT NULL,
	"chats" integer NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "metrics_ad_leads_company_id_lead_id_pk" PRIMARY KEY("company_id","lead_id")
);
--> statement-breakpoint
CREATE TABLE "metrics_ads_daily" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"ad_id" text NOT NULL,
	"leads" integer NOT NULL,
	"chats" integer NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "metrics_ads_daily_company_id_day_ad_id_pk" PRIMARY KEY("company_id","day","ad_id")
);
--> statement-breakpoint
CREATE TABLE "metrics_ads_monthly" (
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"ad_id" text NOT NULL,
	"leads" integer NOT NULL,
	"chats" integer NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "metrics_ads_monthly_company_id_month_ad_id_pk" PRIMARY KEY("company_id","month","ad_id")
);
--> statement-breakpoint
ALTER TABLE "metrics_ad_leads" ADD CONSTRAINT "metrics_ad_leads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_ads_daily" ADD CONSTRAINT "metrics_ads_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_ads_monthly" ADD CONSTRAINT "metrics_ads_monthly_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
