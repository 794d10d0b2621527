CREATE TABLE "llm_budget_months" (
	"company_id" uuid NOT NULL,
	"month" text NOT NULL,
	"spent_usd" double precision DEFAULT 0 NOT NULL,
	"reserved_usd" double precision DEFAULT 0 NOT NULL,
	"paused_at" timestamp with time zone,
	CONSTRAINT "llm_budget_months_company_id_month_pk" PRIMARY KEY("company_id","month")
);
--> statement-breakpoint
CREATE TABLE "llm_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"base_url" text NOT NULL,
	"model" text NOT NULL,
	"api_key" text,
	"api_key_last4" text,
	"input_price_usd" double precision NOT NULL,
	"output_price_usd" double precision NOT NULL,
	"monthly_budget_usd" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "llm_tracker" ADD COLUMN "cost_local" double precision;--> statement-breakpoint
ALTER TABLE "llm_tracker" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "llm_tracker" ADD COLUMN "latency_ms" integer;--> statement-breakpoint
ALTER TABLE "llm_tracker" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "llm_tracker" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "llm_budget_months" ADD CONSTRAINT "llm_budget_months_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "llm_settings" ADD CONSTRAINT "llm_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "llm_tracker_latency_ms_idx" ON "llm_tracker" USING btree ("company_id","latency_ms","id");--> statement-breakpoint
CREATE INDEX "llm_tracker_feature_filter_idx" ON "llm_tracker" USING btree ("company_id","feature","created_at","id");--> statement-breakpoint
CREATE INDEX "llm_tracker_outcome_filter_idx" ON "llm_tracker" USING btree ("company_id","outcome","created_at","id");