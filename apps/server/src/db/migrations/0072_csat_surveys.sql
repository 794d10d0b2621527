CREATE TABLE "csat_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"style" text DEFAULT 'buttons' NOT NULL,
	"question" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "csat_surveys" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"resolution_event_id" uuid NOT NULL,
	"resolved_at" timestamp with time zone NOT NULL,
	"resolved_by" text,
	"agent_id" uuid,
	"style" text NOT NULL,
	"question" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"message_id" uuid,
	"sent_at" timestamp with time zone,
	"score" smallint,
	"answer_message_id" uuid,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "csat_surveys_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "csat_surveys_score_ck" CHECK ("csat_surveys"."score" is null or "csat_surveys"."score" between 1 and 5),
	CONSTRAINT "csat_surveys_status_ck" CHECK ("csat_surveys"."status" in ('pending', 'sent', 'answered', 'not_sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "csat_surveys" ADD CONSTRAINT "csat_surveys_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "csat_surveys_resolution_uq" ON "csat_surveys" USING btree ("company_id","chat_id","resolution_event_id");--> statement-breakpoint
CREATE INDEX "csat_surveys_company_resolved_idx" ON "csat_surveys" USING btree ("company_id","resolved_at");--> statement-breakpoint
CREATE INDEX "csat_surveys_chat_idx" ON "csat_surveys" USING btree ("company_id","chat_id","resolved_at");--> statement-breakpoint
CREATE INDEX "csat_surveys_pending_idx" ON "csat_surveys" USING btree ("company_id","chat_id") WHERE status = 'pending';