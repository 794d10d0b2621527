CREATE TABLE "conversion_events" (
	"company_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" text NOT NULL,
	"event_name" text NOT NULL,
	"lead_id" uuid,
	"order_id" uuid,
	"channel" text,
	"status" text NOT NULL,
	"reason" text,
	"payload" jsonb,
	"value" numeric(14, 2),
	"currency" text,
	"event_time" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"events_received" integer,
	"fbtrace_id" text,
	"error_code" integer,
	"error_type" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversion_events_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "conversion_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"dataset_id" text,
	"access_token" text,
	"token_hint" text,
	"qualified_status" text DEFAULT 'informado-al-agente' NOT NULL,
	"send_qualified" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversion_events" ADD CONSTRAINT "conversion_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversion_settings" ADD CONSTRAINT "conversion_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversion_events_company_event_uq" ON "conversion_events" USING btree ("company_id","event_id");--> statement-breakpoint
CREATE INDEX "conversion_events_company_created_idx" ON "conversion_events" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "conversion_events_company_due_idx" ON "conversion_events" USING btree ("company_id","next_attempt_at") WHERE status = 'pending';