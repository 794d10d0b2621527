CREATE TABLE "metrics_analyses_monthly" (
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"channel" text NOT NULL,
	"dimension" text NOT NULL,
	"label" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "metrics_analyses_monthly_company_id_month_channel_dimension_label_pk" PRIMARY KEY("company_id","month","channel","dimension","label")
);
--> statement-breakpoint
CREATE TABLE "metrics_coverage_monthly" (
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"channel" text NOT NULL,
	"active" integer NOT NULL,
	"answered" integer NOT NULL,
	CONSTRAINT "metrics_coverage_monthly_company_id_month_channel_pk" PRIMARY KEY("company_id","month","channel")
);
--> statement-breakpoint
ALTER TABLE "metrics_analyses_monthly" ADD CONSTRAINT "metrics_analyses_monthly_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metrics_coverage_monthly" ADD CONSTRAINT "metrics_coverage_monthly_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;