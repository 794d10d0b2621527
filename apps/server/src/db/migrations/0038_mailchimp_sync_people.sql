CREATE TABLE "mailchimp_sync_people" (
	"sync_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"company_id" uuid NOT NULL,
	"clean_lead_id" uuid NOT NULL,
	CONSTRAINT "mailchimp_sync_people_sync_id_seq_pk" PRIMARY KEY("sync_id","seq")
);
--> statement-breakpoint
ALTER TABLE "mailchimp_sync_people" ADD CONSTRAINT "mailchimp_sync_people_sync_id_mailchimp_label_syncs_id_fk" FOREIGN KEY ("sync_id") REFERENCES "public"."mailchimp_label_syncs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_sync_people" ADD CONSTRAINT "mailchimp_sync_people_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;