CREATE TABLE "comment_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"post_id" text,
	"ad_id" text,
	"keywords" jsonb,
	"reply_text" text NOT NULL,
	"active" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comment_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"rule_id" uuid,
	"user_id" uuid,
	"comment_id" text NOT NULL,
	"post_id" text NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"comment_text" text,
	"commented_at" timestamp with time zone,
	"mode" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"provider_message_id" text,
	"recipient_id" text,
	"lead_id" uuid,
	"chat_id" uuid,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comments_facebook" ADD COLUMN "author_id" text;--> statement-breakpoint
ALTER TABLE "comments_facebook" ADD COLUMN "parent_comment_id" text;--> statement-breakpoint
ALTER TABLE "comments_facebook" ADD COLUMN "commented_at" text;--> statement-breakpoint
ALTER TABLE "comments_without_responses" ADD COLUMN "comment_id" text;--> statement-breakpoint
ALTER TABLE "comment_rules" ADD CONSTRAINT "comment_rules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_rule_id_comment_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."comment_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_rules_created_at_idx" ON "comment_rules" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "comment_rules_updated_at_idx" ON "comment_rules" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "comment_rules_name_idx" ON "comment_rules" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "comment_rules_kind_filter_idx" ON "comment_rules" USING btree ("company_id","kind","created_at","id");--> statement-breakpoint
CREATE INDEX "comment_rules_name_trgm" ON "comment_rules" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "comment_rules_reply_text_trgm" ON "comment_rules" USING gin ("reply_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "comment_replies_private_once_uq" ON "comment_replies" USING btree ("company_id","comment_id") WHERE mode = 'private' and status <> 'failed';--> statement-breakpoint
CREATE INDEX "comment_replies_rule_idx" ON "comment_replies" USING btree ("company_id","rule_id","created_at");--> statement-breakpoint
CREATE INDEX "comment_replies_person_post_idx" ON "comment_replies" USING btree ("company_id","post_id","author_id");