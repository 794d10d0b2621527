CREATE TABLE "audience_members" (
	"company_id" uuid NOT NULL,
	"audience_id" uuid NOT NULL,
	"lead_id" uuid,
	"clean_lead_id" uuid,
	"send_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audience_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"audience_id" uuid,
	"facebook_audience_id" text,
	"labels" jsonb NOT NULL,
	"show_missing_leads" boolean DEFAULT false NOT NULL,
	"count" integer NOT NULL,
	"marked" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "chat_windows" (
	"chat_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"last_inbound_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailchimp_label_syncs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"segment_id" uuid,
	"label_ids" jsonb NOT NULL,
	"count" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "chat_messages_company_chat_created_idx";--> statement-breakpoint
ALTER TABLE "clean_leads" ADD COLUMN "contact_frequency_days" integer;--> statement-breakpoint
ALTER TABLE "clean_leads" ADD COLUMN "opt_out" boolean;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "sent_by" uuid;--> statement-breakpoint
ALTER TABLE "audience_members" ADD CONSTRAINT "audience_members_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audience_members" ADD CONSTRAINT "audience_members_audience_id_facebook_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."facebook_audiences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audience_members" ADD CONSTRAINT "audience_members_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audience_members" ADD CONSTRAINT "audience_members_clean_lead_id_clean_leads_id_fk" FOREIGN KEY ("clean_lead_id") REFERENCES "public"."clean_leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audience_members" ADD CONSTRAINT "audience_members_send_id_audience_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."audience_sends"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD CONSTRAINT "audience_sends_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD CONSTRAINT "audience_sends_audience_id_facebook_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."facebook_audiences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audience_sends" ADD CONSTRAINT "audience_sends_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_windows" ADD CONSTRAINT "chat_windows_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_windows" ADD CONSTRAINT "chat_windows_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD CONSTRAINT "mailchimp_label_syncs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD CONSTRAINT "mailchimp_label_syncs_segment_id_marketing_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."marketing_segments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD CONSTRAINT "mailchimp_label_syncs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audience_members_lead_uq" ON "audience_members" USING btree ("company_id","audience_id","lead_id");--> statement-breakpoint
CREATE UNIQUE INDEX "audience_members_clean_lead_uq" ON "audience_members" USING btree ("company_id","audience_id","clean_lead_id");--> statement-breakpoint
CREATE INDEX "audience_sends_company_created_idx" ON "audience_sends" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "mailchimp_label_syncs_company_created_idx" ON "mailchimp_label_syncs" USING btree ("company_id","created_at");--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chats_platform_filter_idx" ON "chats" USING btree ("company_id","platform","updated_at","id");--> statement-breakpoint
CREATE INDEX "chats_status_filter_idx" ON "chats" USING btree ("company_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "chats_lead_id_filter_idx" ON "chats" USING btree ("company_id","lead_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "clean_leads_status_filter_idx" ON "clean_leads" USING btree ("company_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "clean_leads_agente_id_filter_idx" ON "clean_leads" USING btree ("company_id","agente_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "clean_leads_mostrador_labels_gin" ON "clean_leads" USING gin ("mostrador_labels");--> statement-breakpoint
CREATE INDEX "clean_leads_telefono_filter_idx" ON "clean_leads" USING btree ("company_id","telefono","updated_at","id");--> statement-breakpoint
CREATE INDEX "clean_leads_email_filter_idx" ON "clean_leads" USING btree ("company_id","email","updated_at","id");--> statement-breakpoint
CREATE INDEX "contactos_telefono_id_filter_idx" ON "contactos" USING btree ("company_id","telefono_id","nombre","id");--> statement-breakpoint
CREATE INDEX "leads_status_filter_idx" ON "leads" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_platform_filter_idx" ON "leads" USING btree ("company_id","platform","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_agente_id_filter_idx" ON "leads" USING btree ("company_id","agente_id","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_mostrador_labels_gin" ON "leads" USING gin ("mostrador_labels");--> statement-breakpoint
CREATE INDEX "leads_clean_lead_id_filter_idx" ON "leads" USING btree ("company_id","clean_lead_id","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_telefono_id_filter_idx" ON "leads" USING btree ("company_id","telefono_id","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_telefono_filter_idx" ON "leads" USING btree ("company_id","telefono","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_email_filter_idx" ON "leads" USING btree ("company_id","email","created_at","id");--> statement-breakpoint
CREATE INDEX "chat_messages_company_chat_sent_idx" ON "chat_messages" USING btree ("company_id","chat_id","sent_at","id");