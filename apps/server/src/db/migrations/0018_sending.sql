CREATE TABLE "send_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"send_id" uuid NOT NULL,
	"dedupe_key" uuid NOT NULL,
	"position" integer NOT NULL,
	"clean_lead_id" uuid NOT NULL,
	"chat_id" uuid,
	"name" text NOT NULL,
	"phone" text,
	"values" jsonb,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"not_before" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sending_leases" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"campaign_id" uuid,
	"chunk_page" integer,
	"chunk_size" integer,
	"segment_id" uuid,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"content" jsonb NOT NULL,
	"planned" boolean DEFAULT false NOT NULL,
	"stop_requested" boolean DEFAULT false NOT NULL,
	"error" text,
	"scheduled_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "send_recipients" ADD CONSTRAINT "send_recipients_send_id_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sending_leases" ADD CONSTRAINT "sending_leases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sends" ADD CONSTRAINT "sends_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "send_recipients_company_dedupe_lead_uq" ON "send_recipients" USING btree ("company_id","dedupe_key","clean_lead_id");--> statement-breakpoint
CREATE INDEX "send_recipients_send_status_idx" ON "send_recipients" USING btree ("send_id","status","position");--> statement-breakpoint
CREATE INDEX "send_recipients_company_lead_sent_idx" ON "send_recipients" USING btree ("company_id","clean_lead_id","settled_at") WHERE "send_recipients"."status" = 'sent';--> statement-breakpoint
CREATE UNIQUE INDEX "sends_company_campaign_chunk_uq" ON "sends" USING btree ("company_id","campaign_id","chunk_page") WHERE "sends"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "sends_company_created_idx" ON "sends" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "sends_active_idx" ON "sends" USING btree ("status") WHERE "sends"."status" in ('pending', 'processing', 'scheduled');