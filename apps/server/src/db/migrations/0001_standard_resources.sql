CREATE TABLE "brands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "colors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"hex" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locaciones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text,
	"phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "colors" ADD CONSTRAINT "colors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locaciones" ADD CONSTRAINT "locaciones_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "brands_created_at_idx" ON "brands" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "brands_updated_at_idx" ON "brands" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "brands_name_idx" ON "brands" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "brands_name_uq" ON "brands" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "colors_created_at_idx" ON "colors" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "colors_updated_at_idx" ON "colors" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "colors_name_idx" ON "colors" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "colors_name_uq" ON "colors" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "locaciones_created_at_idx" ON "locaciones" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "locaciones_updated_at_idx" ON "locaciones" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "locaciones_name_idx" ON "locaciones" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "locaciones_city_idx" ON "locaciones" USING btree ("company_id","city","id");--> statement-breakpoint
CREATE UNIQUE INDEX "locaciones_name_uq" ON "locaciones" USING btree ("company_id","name");