CREATE TABLE "chat_analyses" (
	"chat_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"sentiment" text NOT NULL,
	"motive" text NOT NULL,
	"dissatisfaction_origin" text,
	"cross_sell_offered" boolean DEFAULT false NOT NULL,
	"cross_sell_taken" boolean DEFAULT false NOT NULL,
	"personalised_promotion" boolean DEFAULT false NOT NULL,
	"quality" smallint NOT NULL,
	"category" text NOT NULL,
	"engine" text NOT NULL,
	"messages" integer NOT NULL,
	"last_message_at" timestamp with time zone,
	"analyzed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_analyses" ADD CONSTRAINT "chat_analyses_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_analyses" ADD CONSTRAINT "chat_analyses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_analyses_company_analyzed_idx" ON "chat_analyses" USING btree ("company_id","analyzed_at");