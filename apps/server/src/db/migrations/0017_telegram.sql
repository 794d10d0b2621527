CREATE TABLE "telegram_executions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"routine_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"scheduled_for" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "telegram_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"token_hint" text NOT NULL,
	"bot_username" text,
	"bot_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telegram_groups" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "telegram_groups" ADD COLUMN "type" text;--> statement-breakpoint
ALTER TABLE "telegram_routines" ADD COLUMN "telegram_group_ids" jsonb;--> statement-breakpoint
ALTER TABLE "telegram_routines" ADD COLUMN "media_url" text;--> statement-breakpoint
ALTER TABLE "telegram_routines" ADD COLUMN "media_kind" text;--> statement-breakpoint
ALTER TABLE "telegram_executions" ADD CONSTRAINT "telegram_executions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_settings" ADD CONSTRAINT "telegram_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_executions_minute" ON "telegram_executions" USING btree ("company_id","routine_id","scheduled_for");--> statement-breakpoint
CREATE INDEX "telegram_executions_routine" ON "telegram_executions" USING btree ("company_id","routine_id","started_at");