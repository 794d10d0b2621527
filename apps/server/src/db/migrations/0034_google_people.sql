CREATE TABLE "google_contact_syncs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"telefono_id" uuid NOT NULL,
	"status" text DEFAULT 'en-cola' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"cursor" uuid,
	"in_flight" jsonb,
	"message" text,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "google_contacts" (
	"telefono_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"resource_name" text,
	"problem" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "google_contacts_telefono_id_lead_id_pk" PRIMARY KEY("telefono_id","lead_id")
);
--> statement-breakpoint
CREATE TABLE "google_people_phones" (
	"telefono_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"status" text DEFAULT 'falta-autorizar' NOT NULL,
	"reason" text,
	"client_id_hint" text,
	"state_nonce" text,
	"connected_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "google_contact_syncs" ADD CONSTRAINT "google_contact_syncs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_contact_syncs" ADD CONSTRAINT "google_contact_syncs_telefono_id_telefonos_id_fk" FOREIGN KEY ("telefono_id") REFERENCES "public"."telefonos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_contacts" ADD CONSTRAINT "google_contacts_telefono_id_telefonos_id_fk" FOREIGN KEY ("telefono_id") REFERENCES "public"."telefonos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_contacts" ADD CONSTRAINT "google_contacts_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_contacts" ADD CONSTRAINT "google_contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_people_phones" ADD CONSTRAINT "google_people_phones_telefono_id_telefonos_id_fk" FOREIGN KEY ("telefono_id") REFERENCES "public"."telefonos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_people_phones" ADD CONSTRAINT "google_people_phones_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "google_contact_syncs_phone_idx" ON "google_contact_syncs" USING btree ("company_id","telefono_id","created_at");--> statement-breakpoint
CREATE INDEX "google_contacts_company_idx" ON "google_contacts" USING btree ("company_id","telefono_id");