ALTER TABLE "business_hours" DROP CONSTRAINT "business_hours_company_id_unique";--> statement-breakpoint
ALTER TABLE "business_hours" ADD COLUMN "team_id" uuid;--> statement-breakpoint
ALTER TABLE "business_hours" ADD CONSTRAINT "business_hours_team_id_equipos_de_ventas_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."equipos_de_ventas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "business_hours_company_uq" ON "business_hours" USING btree ("company_id") WHERE team_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "business_hours_company_team_uq" ON "business_hours" USING btree ("company_id","team_id") WHERE team_id is not null;