CREATE TABLE "meta_ad_accounts" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"ad_account_id" text NOT NULL,
	"access_token" text NOT NULL,
	"token_hint" text NOT NULL,
	"name" text,
	"currency" text,
	"last_sync_at" timestamp with time zone,
	"last_sync_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meta_ad_accounts" ADD CONSTRAINT "meta_ad_accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;