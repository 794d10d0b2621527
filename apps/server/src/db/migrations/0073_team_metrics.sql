CREATE TABLE "team_chat_state" (
	"company_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"last_position" bigint NOT NULL,
	"started_at" timestamp with time zone,
	"waiting_since" timestamp with time zone,
	"answered" boolean DEFAULT false NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "team_chat_state_company_id_chat_id_pk" PRIMARY KEY("company_id","chat_id")
);
--> statement-breakpoint
CREATE TABLE "team_conversations" (
	"company_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"channel" text NOT NULL,
	"lead_id" uuid,
	"agent_user" uuid,
	"first_response_at" timestamp with time zone,
	"first_wall_s" integer,
	"first_business_s" integer,
	"next_responses" integer DEFAULT 0 NOT NULL,
	"next_wall_s" bigint DEFAULT 0 NOT NULL,
	"next_business_s" bigint DEFAULT 0 NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution_wall_s" integer,
	"resolution_business_s" integer,
	"reopenings" integer DEFAULT 0 NOT NULL,
	"until_at" timestamp with time zone,
	CONSTRAINT "team_conversations_company_id_chat_id_started_at_pk" PRIMARY KEY("company_id","chat_id","started_at")
);
--> statement-breakpoint
CREATE TABLE "team_responses" (
	"company_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	"answered_by" uuid NOT NULL,
	"wall_s" integer NOT NULL,
	"business_s" integer NOT NULL,
	CONSTRAINT "team_responses_company_id_chat_id_asked_at_pk" PRIMARY KEY("company_id","chat_id","asked_at")
);
--> statement-breakpoint
CREATE TABLE "team_sla_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"first_response_minutes" integer DEFAULT 5 NOT NULL,
	"resolution_hours" integer DEFAULT 24 NOT NULL,
	"measure" text DEFAULT 'business' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "team_chat_state" ADD CONSTRAINT "team_chat_state_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_conversations" ADD CONSTRAINT "team_conversations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_responses" ADD CONSTRAINT "team_responses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_sla_settings" ADD CONSTRAINT "team_sla_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_conversations_company_started_idx" ON "team_conversations" USING btree ("company_id","started_at");