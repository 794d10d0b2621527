CREATE TABLE "mailchimp_sync_contacts" (
	"company_id" uuid NOT NULL,
	"sync_id" uuid NOT NULL,
	"audience_key" text NOT NULL,
	"contact_key" text NOT NULL,
	"audience_name" text,
	"clean_lead_id" uuid,
	"email" text,
	"name" text,
	"outcome" text NOT NULL,
	"reason" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailchimp_sync_contacts_sync_id_audience_key_contact_key_pk" PRIMARY KEY("sync_id","audience_key","contact_key")
);
--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "kind" text DEFAULT 'labels' NOT NULL;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "mailchimp_id" uuid;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "ok" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "failed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "skipped" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "requests" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "message" text;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailchimp_sync_contacts" ADD CONSTRAINT "mailchimp_sync_contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_sync_contacts" ADD CONSTRAINT "mailchimp_sync_contacts_sync_id_mailchimp_label_syncs_id_fk" FOREIGN KEY ("sync_id") REFERENCES "public"."mailchimp_label_syncs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mailchimp_sync_contacts_company_sync_idx" ON "mailchimp_sync_contacts" USING btree ("company_id","sync_id","outcome");--> statement-breakpoint
ALTER TABLE "mailchimp_label_syncs" ADD CONSTRAINT "mailchimp_label_syncs_mailchimp_id_mailchimps_id_fk" FOREIGN KEY ("mailchimp_id") REFERENCES "public"."mailchimps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- syncs recorded before the integration existed are sent now (decision 0051)
UPDATE "mailchimp_label_syncs" SET "status" = 'queued' WHERE "status" = 'pendiente-de-integracion';
