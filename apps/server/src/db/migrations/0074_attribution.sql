CREATE TABLE "ad_spend_ads_daily" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"ad_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"currency" text NOT NULL,
	"spend" numeric NOT NULL,
	CONSTRAINT "ad_spend_ads_daily_company_id_day_ad_id_pk" PRIMARY KEY("company_id","day","ad_id")
);
--> statement-breakpoint
CREATE TABLE "attribution_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"window_days" smallint DEFAULT 7 NOT NULL,
	"model" text DEFAULT 'last' NOT NULL,
	"reattributed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attribution_settings_window_range" CHECK ("attribution_settings"."window_days" between 1 and 90),
	CONSTRAINT "attribution_settings_model" CHECK ("attribution_settings"."model" in ('last', 'first'))
);
--> statement-breakpoint
CREATE TABLE "conversation_attributions" (
	"company_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"lead_id" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"touch" text NOT NULL,
	"ad_id" text,
	"ctwa_clid" text,
	"send_id" uuid,
	"agente_id" uuid,
	"touched_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_attributions_company_id_chat_id_pk" PRIMARY KEY("company_id","chat_id"),
	CONSTRAINT "conversation_attributions_touch" CHECK ("conversation_attributions"."touch" in ('ad', 'send', 'organic'))
);
--> statement-breakpoint
CREATE TABLE "order_attributions" (
	"company_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"chat_id" uuid,
	"lead_id" uuid,
	"ordered_at" timestamp with time zone NOT NULL,
	"conversation_started_at" timestamp with time zone,
	"touch" text NOT NULL,
	"ad_id" text,
	"ctwa_clid" text,
	"send_id" uuid,
	"agente_id" uuid,
	"touched_at" timestamp with time zone,
	"model" text NOT NULL,
	"window_days" smallint NOT NULL,
	"status" text NOT NULL,
	"total" double precision NOT NULL,
	"currency" text NOT NULL,
	"paid" boolean DEFAULT false NOT NULL,
	"event_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_attributions_company_id_order_id_pk" PRIMARY KEY("company_id","order_id"),
	CONSTRAINT "order_attributions_touch" CHECK ("order_attributions"."touch" in ('ad', 'send', 'organic'))
);
--> statement-breakpoint
ALTER TABLE "ad_spend_ads_daily" ADD CONSTRAINT "ad_spend_ads_daily_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attribution_settings" ADD CONSTRAINT "attribution_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_attributions" ADD CONSTRAINT "conversation_attributions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_attributions" ADD CONSTRAINT "order_attributions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_attributions_started_idx" ON "conversation_attributions" USING btree ("company_id","started_at");--> statement-breakpoint
CREATE INDEX "order_attributions_ordered_idx" ON "order_attributions" USING btree ("company_id","ordered_at");--> statement-breakpoint
-- hand-written
-- Attribution (decisions 0096, 0097): an order or a chat deleted takes its attribution row along
-- (the rows carry no foreign key to them: their keys lead with the company, theirs do not).
CREATE FUNCTION mostrador_attribution_orders_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_attributions a USING old_rows o WHERE a.company_id = o.company_id AND a.order_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER attribution_orders_del AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_attribution_orders_del();
--> statement-breakpoint
CREATE FUNCTION mostrador_attribution_chats_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM conversation_attributions a USING old_rows c WHERE a.company_id = c.company_id AND a.chat_id = c.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER attribution_chats_del AFTER DELETE ON chats REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_attribution_chats_del();
