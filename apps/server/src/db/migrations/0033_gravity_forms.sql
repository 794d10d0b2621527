CREATE TABLE "gravity_form_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"form_id" uuid NOT NULL,
	"entry_id" integer NOT NULL,
	"event_id" uuid,
	"source" text NOT NULL,
	"submitted_at" timestamp with time zone,
	"name" text,
	"telefono" text,
	"email" text,
	"message" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"lead_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gravity_form_states" (
	"form_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"webhook_secret" text,
	"webhook_secret_hint" text,
	"webhook_secret_at" timestamp with time zone,
	"last_entry_id" integer DEFAULT 0 NOT NULL,
	"form_title" text,
	"fields" jsonb,
	"fields_at" timestamp with time zone,
	"sync_status" text DEFAULT 'idle' NOT NULL,
	"sync_total" integer DEFAULT 0 NOT NULL,
	"sync_done" integer DEFAULT 0 NOT NULL,
	"sync_created" integer DEFAULT 0 NOT NULL,
	"sync_merged" integer DEFAULT 0 NOT NULL,
	"sync_rejected" integer DEFAULT 0 NOT NULL,
	"sync_requests" integer DEFAULT 0 NOT NULL,
	"sync_error" text,
	"sync_started_at" timestamp with time zone,
	"sync_finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gravity_forms" ADD COLUMN "consumer_key" text;--> statement-breakpoint
ALTER TABLE "gravity_forms" ADD COLUMN "consumer_secret" text;--> statement-breakpoint
ALTER TABLE "gravity_forms" ADD COLUMN "field_map" jsonb;--> statement-breakpoint
ALTER TABLE "gravity_form_entries" ADD CONSTRAINT "gravity_form_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gravity_form_entries" ADD CONSTRAINT "gravity_form_entries_form_id_gravity_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."gravity_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gravity_form_entries" ADD CONSTRAINT "gravity_form_entries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gravity_form_states" ADD CONSTRAINT "gravity_form_states_form_id_gravity_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."gravity_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gravity_form_states" ADD CONSTRAINT "gravity_form_states_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gravity_form_entries_form_entry_uq" ON "gravity_form_entries" USING btree ("form_id","entry_id");--> statement-breakpoint
CREATE INDEX "gravity_form_entries_company_idx" ON "gravity_form_entries" USING btree ("company_id","created_at");