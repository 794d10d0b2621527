CREATE TABLE "respuestas_rapidas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"atajo" text NOT NULL,
	"texto" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "snoozed_until" text;--> statement-breakpoint
ALTER TABLE "respuestas_rapidas" ADD CONSTRAINT "respuestas_rapidas_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "respuestas_rapidas_created_at_idx" ON "respuestas_rapidas" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "respuestas_rapidas_updated_at_idx" ON "respuestas_rapidas" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "respuestas_rapidas_atajo_idx" ON "respuestas_rapidas" USING btree ("company_id","atajo","id");--> statement-breakpoint
CREATE UNIQUE INDEX "respuestas_rapidas_atajo_uq" ON "respuestas_rapidas" USING btree ("company_id","atajo");--> statement-breakpoint
CREATE INDEX "respuestas_rapidas_atajo_trgm" ON "respuestas_rapidas" USING gin ("atajo" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "respuestas_rapidas_texto_trgm" ON "respuestas_rapidas" USING gin ("texto" gin_trgm_ops);