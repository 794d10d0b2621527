CREATE TABLE "person_merges" (
	"company_id" uuid NOT NULL,
	"duplicate_id" uuid NOT NULL,
	"kept_id" uuid NOT NULL,
	"duplicate" jsonb NOT NULL,
	"leads" integer NOT NULL,
	"chats" integer NOT NULL,
	"messages" integer NOT NULL,
	"merged_by" uuid,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "person_merges_company_id_duplicate_id_pk" PRIMARY KEY("company_id","duplicate_id")
);
--> statement-breakpoint
ALTER TABLE "person_merges" ADD CONSTRAINT "person_merges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_merges" ADD CONSTRAINT "person_merges_merged_by_users_id_fk" FOREIGN KEY ("merged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "person_merges_company_kept_idx" ON "person_merges" USING btree ("company_id","kept_id");