CREATE TABLE "bot_chats" (
	"chat_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"bot_id" uuid,
	"state" text NOT NULL,
	"reason" text,
	"handed_over_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_connections" (
	"bot_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"state" text NOT NULL,
	"message" text,
	"tested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"bot_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"inbound_message_id" uuid NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"intent" text,
	"confidence" real,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bot_chats" ADD CONSTRAINT "bot_chats_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_chats" ADD CONSTRAINT "bot_chats_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_chats" ADD CONSTRAINT "bot_chats_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_connections" ADD CONSTRAINT "bot_connections_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_connections" ADD CONSTRAINT "bot_connections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_replies" ADD CONSTRAINT "bot_replies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_replies" ADD CONSTRAINT "bot_replies_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_replies" ADD CONSTRAINT "bot_replies_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_replies" ADD CONSTRAINT "bot_replies_inbound_message_id_chat_messages_id_fk" FOREIGN KEY ("inbound_message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_chats_company_idx" ON "bot_chats" USING btree ("company_id","bot_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "bot_replies_inbound_uq" ON "bot_replies" USING btree ("inbound_message_id");--> statement-breakpoint
CREATE INDEX "bot_replies_bot_idx" ON "bot_replies" USING btree ("company_id","bot_id","created_at");