-- Sales that would have been lost (issue 30, decision 0089): the company's follow-up settings and
-- each follow-up decided (sent, failed or skipped, and why), once per conversation.
CREATE TABLE "recovery_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"enabled" boolean DEFAULT false NOT NULL,
	"after_hours" integer DEFAULT 4 NOT NULL,
	"text" text NOT NULL,
	"template_id" uuid,
	"template_values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "sales_followups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"chat_id" uuid NOT NULL REFERENCES "chats"("id") ON DELETE cascade,
	"lead_id" uuid,
	-- the customer's last message when it was decided: one decision per conversation
	"episode_message_id" uuid NOT NULL,
	"status" text NOT NULL,
	"kind" text,
	"reason" text,
	"products" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cart_url" text,
	"message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "sales_followups_episode_unique" ON "sales_followups" ("company_id", "chat_id", "episode_message_id");--> statement-breakpoint
CREATE INDEX "sales_followups_company_created_idx" ON "sales_followups" ("company_id", "created_at");
