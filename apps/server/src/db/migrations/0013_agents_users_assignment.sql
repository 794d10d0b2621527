CREATE TABLE "assignment_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"strategy" text DEFAULT 'all' NOT NULL,
	"last_agente_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agentes" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "agentes" ADD COLUMN "available" boolean;--> statement-breakpoint
ALTER TABLE "agentes" ADD COLUMN "platforms" jsonb;--> statement-breakpoint
ALTER TABLE "assignment_settings" ADD CONSTRAINT "assignment_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agentes_user_id_uq" ON "agentes" USING btree ("company_id","user_id");