CREATE TABLE "ad_spend_daily" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"campaign_id" text NOT NULL,
	"campaign_name" text NOT NULL,
	"currency" text NOT NULL,
	"spend" numeric NOT NULL,
	"impressions" bigint NOT NULL,
	"clicks" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_spend_daily_company_id_day_campaign_id_pk" PRIMARY KEY("company_id","day","campaign_id")
);
--> statement-breakpoint
CREATE TABLE "metrics_analyses_daily" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"channel" text NOT NULL,
	"dimension" text NOT NULL,
	"label" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "metrics_analyses_daily_company_id_day_channel_dimension_label_pk" PRIMARY KEY("company_id","day","channel","dimension","label")
);
--> statement-breakpoint
CREATE TABLE "metrics_chat_months" (
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"chat_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"inbound" integer NOT NULL,
	"outbound" integer NOT NULL,
	CONSTRAINT "metrics_chat_months_company_id_month_chat_id_pk" PRIMARY KEY("company_id","month","chat_id")
);
--> statement-breakpoint
CREATE TABLE "metrics_companies" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"timezone" text NOT NULL,
	"rebuilt_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "metrics_entities_daily" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"agente_id" uuid NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "metrics_entities_daily_company_id_day_kind_channel_agente_id_pk" PRIMARY KEY("company_id","day","kind","channel","agente_id")
);
--> statement-breakpoint
CREATE TABLE "metrics_messages_daily" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"channel" text NOT NULL,
	"direction" text NOT NULL,
	"user_id" uuid NOT NULL,
	"messages" integer NOT NULL,
	CONSTRAINT "metrics_messages_daily_company_id_day_channel_direction_user_id_pk" PRIMARY KEY("company_id","day","channel","direction","user_id")
);
--> statement-breakpoint
CREATE TABLE "metrics_sales_daily" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"source" text NOT NULL,
	"orders" integer NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "metrics_sales_daily_company_id_day_status_currency_source_pk" PRIMARY KEY("company_id","day","status","currency","source")
);
--> statement-breakpoint
ALTER TABLE "ad_spend_daily" ADD CONSTRAINT "ad_spend_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_analyses_daily" ADD CONSTRAINT "metrics_analyses_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_chat_months" ADD CONSTRAINT "metrics_chat_months_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_companies" ADD CONSTRAINT "metrics_companies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_entities_daily" ADD CONSTRAINT "metrics_entities_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_messages_daily" ADD CONSTRAINT "metrics_messages_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_sales_daily" ADD CONSTRAINT "metrics_sales_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;