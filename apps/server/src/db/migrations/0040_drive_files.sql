CREATE TABLE "drive_files" (
	"company_id" uuid NOT NULL,
	"id" text NOT NULL,
	"folder" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"mime_type" text NOT NULL,
	"kind" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drive_files_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "drive_files" ADD CONSTRAINT "drive_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drive_files" ADD CONSTRAINT "drive_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "drive_files_id_uq" ON "drive_files" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "drive_files_sha_uq" ON "drive_files" USING btree ("company_id","sha256");--> statement-breakpoint
CREATE INDEX "drive_files_created_idx" ON "drive_files" USING btree ("company_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "drive_files_folder_idx" ON "drive_files" USING btree ("company_id","folder");--> statement-breakpoint
CREATE INDEX "drive_files_name_idx" ON "drive_files" USING btree ("company_id",lower("name"));