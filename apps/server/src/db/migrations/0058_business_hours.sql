CREATE TABLE "away_messages" (
	"company_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"message_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_hours" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"zone" text NOT NULL,
	"schedule" jsonb NOT NULL,
	"holidays" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"away_enabled" boolean DEFAULT false NOT NULL,
	"away_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_hours_company_id_unique" UNIQUE("company_id")
);
--> statement-breakpoint
ALTER TABLE "away_messages" ADD CONSTRAINT "away_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_hours" ADD CONSTRAINT "business_hours_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "away_messages_chat_period_idx" ON "away_messages" USING btree ("chat_id","period_start");--> statement-breakpoint
CREATE INDEX "away_messages_company_idx" ON "away_messages" USING btree ("company_id","created_at");