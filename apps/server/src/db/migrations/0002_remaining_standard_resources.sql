CREATE TABLE "agentes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"equipo_de_ventas_id" uuid,
	"active" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"platform" text NOT NULL,
	"dialogflow_project_id" text,
	"language" text NOT NULL,
	"active" boolean,
	"credentials" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalogs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_default" boolean,
	"product_ids" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"parent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"mostrador_label_ids" jsonb,
	"agente_ids" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chats" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"contact_name" text NOT NULL,
	"platform" text NOT NULL,
	"lead_id" uuid,
	"status" text NOT NULL,
	"unread_count" integer,
	"last_message_at" text,
	"last_message_preview" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clean_leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"telefono" text,
	"email" text,
	"status" text NOT NULL,
	"agente_id" uuid,
	"mostrador_labels" jsonb,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments_facebook" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"page_id" text,
	"post_id" text NOT NULL,
	"comment_id" text NOT NULL,
	"author_name" text NOT NULL,
	"message" text NOT NULL,
	"permalink_url" text,
	"answered" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments_without_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"author_name" text NOT NULL,
	"message" text NOT NULL,
	"post_url" text,
	"received_at" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contactos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"nombre" text NOT NULL,
	"telefono" text NOT NULL,
	"email" text,
	"telefono_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecommerces_attributes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"nombre" text NOT NULL,
	"terms" jsonb NOT NULL,
	"woocommerce_id" integer NOT NULL,
	"country" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecommerces_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"parent" integer NOT NULL,
	"external_id" integer,
	"foreign_label_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecommerces_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"telefono" text,
	"country" text,
	"woocommerce_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecommerces_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"number" text NOT NULL,
	"status" text NOT NULL,
	"customer_name" text NOT NULL,
	"customer_email" text,
	"customer_phone" text,
	"total" double precision NOT NULL,
	"currency" text NOT NULL,
	"country" text NOT NULL,
	"woocommerce_id" integer NOT NULL,
	"items" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecommerces_tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"external_id" integer,
	"foreign_label_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "equipos_de_ventas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "facebook_audiences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"facebook_audience_id" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "facebook_labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"facebook_label_id" text,
	"foreign_label_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gravity_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"form_id" integer NOT NULL,
	"site_url" text NOT NULL,
	"mostrador_label_ids" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "imagina_template_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"category" text NOT NULL,
	"body" text NOT NULL,
	"status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"telefono" text,
	"email" text,
	"platform" text NOT NULL,
	"status" text NOT NULL,
	"telefono_id" uuid,
	"agente_id" uuid,
	"mostrador_labels" jsonb,
	"audience_id" uuid,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_tracker" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"model" text NOT NULL,
	"feature" text NOT NULL,
	"prompt_tokens" integer NOT NULL,
	"completion_tokens" integer NOT NULL,
	"cost_usd" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailchimp_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"telefono" text,
	"status" text NOT NULL,
	"tags" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailchimp_tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"mailchimp_tag_id" text,
	"mailchimp_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailchimps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"server_prefix" text NOT NULL,
	"list_id" text NOT NULL,
	"api_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketing_segments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"filters" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"platform" text NOT NULL,
	"country" text NOT NULL,
	"seller_id" text,
	"api_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "massive_messages_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"message" text NOT NULL,
	"total" integer NOT NULL,
	"sent" integer NOT NULL,
	"failed" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mostrador_labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"description" text,
	"foreign_label_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sku" text NOT NULL,
	"price" double precision NOT NULL,
	"stock" integer NOT NULL,
	"description" text,
	"image_url" text,
	"brand_id" uuid,
	"category_id" uuid,
	"color_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retail_rocket_tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"segment_id" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telefonos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"numero" text NOT NULL,
	"google_contact_email" text,
	"agente_id" uuid,
	"credenciales" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"chat_id" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_routines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"telegram_group_id" uuid,
	"message" text NOT NULL,
	"days" jsonb NOT NULL,
	"time" text NOT NULL,
	"active" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_messages_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"template_name" text NOT NULL,
	"telefono" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"lead_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"code" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "woocommerces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"country" text NOT NULL,
	"consumer_key" text NOT NULL,
	"consumer_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agentes" ADD CONSTRAINT "agentes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogs" ADD CONSTRAINT "catalogs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_groups" ADD CONSTRAINT "chat_groups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clean_leads" ADD CONSTRAINT "clean_leads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments_facebook" ADD CONSTRAINT "comments_facebook_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments_without_responses" ADD CONSTRAINT "comments_without_responses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contactos" ADD CONSTRAINT "contactos_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecommerces_attributes" ADD CONSTRAINT "ecommerces_attributes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecommerces_categories" ADD CONSTRAINT "ecommerces_categories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecommerces_contacts" ADD CONSTRAINT "ecommerces_contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecommerces_orders" ADD CONSTRAINT "ecommerces_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecommerces_tags" ADD CONSTRAINT "ecommerces_tags_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipos_de_ventas" ADD CONSTRAINT "equipos_de_ventas_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facebook_audiences" ADD CONSTRAINT "facebook_audiences_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facebook_labels" ADD CONSTRAINT "facebook_labels_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gravity_forms" ADD CONSTRAINT "gravity_forms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imagina_template_messages" ADD CONSTRAINT "imagina_template_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "llm_tracker" ADD CONSTRAINT "llm_tracker_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_contacts" ADD CONSTRAINT "mailchimp_contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimp_tags" ADD CONSTRAINT "mailchimp_tags_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailchimps" ADD CONSTRAINT "mailchimps_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketing_segments" ADD CONSTRAINT "marketing_segments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_sources" ADD CONSTRAINT "marketplace_sources_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "massive_messages_logs" ADD CONSTRAINT "massive_messages_logs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mostrador_labels" ADD CONSTRAINT "mostrador_labels_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retail_rocket_tags" ADD CONSTRAINT "retail_rocket_tags_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telefonos" ADD CONSTRAINT "telefonos_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_groups" ADD CONSTRAINT "telegram_groups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_routines" ADD CONSTRAINT "telegram_routines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_messages_logs" ADD CONSTRAINT "template_messages_logs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "woocommerces" ADD CONSTRAINT "woocommerces_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agentes_created_at_idx" ON "agentes" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "agentes_updated_at_idx" ON "agentes" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "agentes_name_idx" ON "agentes" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "bots_created_at_idx" ON "bots" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bots_updated_at_idx" ON "bots" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "bots_name_idx" ON "bots" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "bots_name_uq" ON "bots" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "catalogs_created_at_idx" ON "catalogs" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "catalogs_updated_at_idx" ON "catalogs" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "catalogs_name_idx" ON "catalogs" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "catalogs_name_uq" ON "catalogs" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "categories_created_at_idx" ON "categories" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "categories_updated_at_idx" ON "categories" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "categories_name_idx" ON "categories" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_uq" ON "categories" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "chat_groups_created_at_idx" ON "chat_groups" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "chat_groups_updated_at_idx" ON "chat_groups" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "chat_groups_name_idx" ON "chat_groups" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_groups_name_uq" ON "chat_groups" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "chats_created_at_idx" ON "chats" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "chats_updated_at_idx" ON "chats" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "chats_contact_name_idx" ON "chats" USING btree ("company_id","contact_name","id");--> statement-breakpoint
CREATE INDEX "chats_last_message_at_idx" ON "chats" USING btree ("company_id","last_message_at","id");--> statement-breakpoint
CREATE INDEX "clean_leads_created_at_idx" ON "clean_leads" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "clean_leads_updated_at_idx" ON "clean_leads" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "clean_leads_name_idx" ON "clean_leads" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "clean_leads_status_idx" ON "clean_leads" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "comments_facebook_created_at_idx" ON "comments_facebook" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "comments_facebook_updated_at_idx" ON "comments_facebook" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "comments_facebook_author_name_idx" ON "comments_facebook" USING btree ("company_id","author_name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "comments_facebook_comment_id_uq" ON "comments_facebook" USING btree ("company_id","comment_id");--> statement-breakpoint
CREATE INDEX "comments_without_responses_created_at_idx" ON "comments_without_responses" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "comments_without_responses_updated_at_idx" ON "comments_without_responses" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "comments_without_responses_received_at_idx" ON "comments_without_responses" USING btree ("company_id","received_at","id");--> statement-breakpoint
CREATE INDEX "contactos_created_at_idx" ON "contactos" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contactos_updated_at_idx" ON "contactos" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "contactos_nombre_idx" ON "contactos" USING btree ("company_id","nombre","id");--> statement-breakpoint
CREATE INDEX "ecommerces_attributes_created_at_idx" ON "ecommerces_attributes" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_attributes_updated_at_idx" ON "ecommerces_attributes" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_attributes_nombre_idx" ON "ecommerces_attributes" USING btree ("company_id","nombre","id");--> statement-breakpoint
CREATE INDEX "ecommerces_categories_created_at_idx" ON "ecommerces_categories" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_categories_updated_at_idx" ON "ecommerces_categories" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_categories_name_idx" ON "ecommerces_categories" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "ecommerces_contacts_created_at_idx" ON "ecommerces_contacts" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_contacts_updated_at_idx" ON "ecommerces_contacts" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_contacts_name_idx" ON "ecommerces_contacts" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "ecommerces_orders_created_at_idx" ON "ecommerces_orders" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_orders_updated_at_idx" ON "ecommerces_orders" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_orders_number_idx" ON "ecommerces_orders" USING btree ("company_id","number","id");--> statement-breakpoint
CREATE INDEX "ecommerces_orders_total_idx" ON "ecommerces_orders" USING btree ("company_id","total","id");--> statement-breakpoint
CREATE INDEX "ecommerces_orders_status_idx" ON "ecommerces_orders" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ecommerces_orders_number_uq" ON "ecommerces_orders" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "ecommerces_tags_created_at_idx" ON "ecommerces_tags" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_tags_updated_at_idx" ON "ecommerces_tags" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ecommerces_tags_name_idx" ON "ecommerces_tags" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "equipos_de_ventas_created_at_idx" ON "equipos_de_ventas" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "equipos_de_ventas_updated_at_idx" ON "equipos_de_ventas" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "equipos_de_ventas_name_idx" ON "equipos_de_ventas" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "equipos_de_ventas_name_uq" ON "equipos_de_ventas" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "facebook_audiences_created_at_idx" ON "facebook_audiences" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "facebook_audiences_updated_at_idx" ON "facebook_audiences" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "facebook_audiences_name_idx" ON "facebook_audiences" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "facebook_audiences_name_uq" ON "facebook_audiences" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "facebook_labels_created_at_idx" ON "facebook_labels" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "facebook_labels_updated_at_idx" ON "facebook_labels" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "facebook_labels_name_idx" ON "facebook_labels" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "facebook_labels_name_uq" ON "facebook_labels" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "gravity_forms_created_at_idx" ON "gravity_forms" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "gravity_forms_updated_at_idx" ON "gravity_forms" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "gravity_forms_name_idx" ON "gravity_forms" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "groups_created_at_idx" ON "groups" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "groups_updated_at_idx" ON "groups" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "groups_name_idx" ON "groups" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_name_uq" ON "groups" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "imagina_template_messages_created_at_idx" ON "imagina_template_messages" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "imagina_template_messages_updated_at_idx" ON "imagina_template_messages" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "imagina_template_messages_name_idx" ON "imagina_template_messages" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "imagina_template_messages_name_uq" ON "imagina_template_messages" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "leads_created_at_idx" ON "leads" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_updated_at_idx" ON "leads" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "leads_name_idx" ON "leads" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "leads_status_idx" ON "leads" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "llm_tracker_created_at_idx" ON "llm_tracker" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "llm_tracker_updated_at_idx" ON "llm_tracker" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "llm_tracker_name_idx" ON "llm_tracker" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "llm_tracker_cost_usd_idx" ON "llm_tracker" USING btree ("company_id","cost_usd","id");--> statement-breakpoint
CREATE INDEX "mailchimp_contacts_created_at_idx" ON "mailchimp_contacts" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mailchimp_contacts_updated_at_idx" ON "mailchimp_contacts" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "mailchimp_contacts_email_idx" ON "mailchimp_contacts" USING btree ("company_id","email","id");--> statement-breakpoint
CREATE INDEX "mailchimp_contacts_name_idx" ON "mailchimp_contacts" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "mailchimp_contacts_status_idx" ON "mailchimp_contacts" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailchimp_contacts_email_uq" ON "mailchimp_contacts" USING btree ("company_id","email");--> statement-breakpoint
CREATE INDEX "mailchimp_tags_created_at_idx" ON "mailchimp_tags" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mailchimp_tags_updated_at_idx" ON "mailchimp_tags" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "mailchimp_tags_name_idx" ON "mailchimp_tags" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailchimp_tags_name_uq" ON "mailchimp_tags" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "mailchimps_created_at_idx" ON "mailchimps" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mailchimps_updated_at_idx" ON "mailchimps" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "mailchimps_name_idx" ON "mailchimps" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailchimps_name_uq" ON "mailchimps" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "marketing_segments_created_at_idx" ON "marketing_segments" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "marketing_segments_updated_at_idx" ON "marketing_segments" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "marketing_segments_name_idx" ON "marketing_segments" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketing_segments_name_uq" ON "marketing_segments" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "marketplace_sources_created_at_idx" ON "marketplace_sources" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_sources_updated_at_idx" ON "marketplace_sources" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "marketplace_sources_name_idx" ON "marketplace_sources" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_sources_name_uq" ON "marketplace_sources" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "massive_messages_logs_created_at_idx" ON "massive_messages_logs" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "massive_messages_logs_updated_at_idx" ON "massive_messages_logs" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "massive_messages_logs_name_idx" ON "massive_messages_logs" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "massive_messages_logs_status_idx" ON "massive_messages_logs" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "mostrador_labels_created_at_idx" ON "mostrador_labels" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mostrador_labels_updated_at_idx" ON "mostrador_labels" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "mostrador_labels_name_idx" ON "mostrador_labels" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "mostrador_labels_name_uq" ON "mostrador_labels" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "products_created_at_idx" ON "products" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_updated_at_idx" ON "products" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_name_idx" ON "products" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "products_sku_idx" ON "products" USING btree ("company_id","sku","id");--> statement-breakpoint
CREATE INDEX "products_price_idx" ON "products" USING btree ("company_id","price","id");--> statement-breakpoint
CREATE INDEX "products_stock_idx" ON "products" USING btree ("company_id","stock","id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_sku_uq" ON "products" USING btree ("company_id","sku");--> statement-breakpoint
CREATE INDEX "retail_rocket_tags_created_at_idx" ON "retail_rocket_tags" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "retail_rocket_tags_updated_at_idx" ON "retail_rocket_tags" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "retail_rocket_tags_name_idx" ON "retail_rocket_tags" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "retail_rocket_tags_name_uq" ON "retail_rocket_tags" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "telefonos_created_at_idx" ON "telefonos" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "telefonos_updated_at_idx" ON "telefonos" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "telefonos_numero_idx" ON "telefonos" USING btree ("company_id","numero","id");--> statement-breakpoint
CREATE UNIQUE INDEX "telefonos_numero_uq" ON "telefonos" USING btree ("company_id","numero");--> statement-breakpoint
CREATE INDEX "telegram_groups_created_at_idx" ON "telegram_groups" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "telegram_groups_updated_at_idx" ON "telegram_groups" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "telegram_groups_name_idx" ON "telegram_groups" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_groups_chat_id_uq" ON "telegram_groups" USING btree ("company_id","chat_id");--> statement-breakpoint
CREATE INDEX "telegram_routines_created_at_idx" ON "telegram_routines" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "telegram_routines_updated_at_idx" ON "telegram_routines" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "telegram_routines_name_idx" ON "telegram_routines" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "telegram_routines_time_idx" ON "telegram_routines" USING btree ("company_id","time","id");--> statement-breakpoint
CREATE INDEX "template_messages_logs_created_at_idx" ON "template_messages_logs" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "template_messages_logs_updated_at_idx" ON "template_messages_logs" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "template_messages_logs_template_name_idx" ON "template_messages_logs" USING btree ("company_id","template_name","id");--> statement-breakpoint
CREATE INDEX "template_messages_logs_status_idx" ON "template_messages_logs" USING btree ("company_id","status","id");--> statement-breakpoint
CREATE INDEX "vendors_created_at_idx" ON "vendors" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "vendors_updated_at_idx" ON "vendors" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "vendors_name_idx" ON "vendors" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "vendors_code_idx" ON "vendors" USING btree ("company_id","code","id");--> statement-breakpoint
CREATE UNIQUE INDEX "vendors_code_uq" ON "vendors" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "woocommerces_created_at_idx" ON "woocommerces" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "woocommerces_updated_at_idx" ON "woocommerces" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "woocommerces_name_idx" ON "woocommerces" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "woocommerces_name_uq" ON "woocommerces" USING btree ("company_id","name");