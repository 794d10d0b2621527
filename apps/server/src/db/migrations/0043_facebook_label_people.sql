CREATE TABLE "facebook_label_people" (
	"company_id" uuid NOT NULL,
	"page_label_id" text NOT NULL,
	"psid" text NOT NULL,
	"lead_id" uuid,
	"wanted" boolean NOT NULL,
	"applied" boolean DEFAULT false NOT NULL,
	"due_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"failed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "facebook_label_people_company_id_page_label_id_psid_pk" PRIMARY KEY("company_id","page_label_id","psid")
);
--> statement-breakpoint
ALTER TABLE "facebook_label_people" ADD CONSTRAINT "facebook_label_people_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facebook_label_people" ADD CONSTRAINT "facebook_label_people_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "facebook_label_people_due_idx" ON "facebook_label_people" USING btree ("due_at") WHERE due_at is not null;--> statement-breakpoint
CREATE INDEX "facebook_label_people_failed_idx" ON "facebook_label_people" USING btree ("company_id","failed_at") WHERE reason is not null;--> statement-breakpoint
-- The page's Messenger labels on people (decision 0057): one place for every path that labels a
-- lead (its form, the chat, massive labels, imports, forms, comment rules, webhooks). In the
-- write's own transaction, a Messenger lead (platform 'facebook' with its PSID) whose Mostrador
-- labels gain or lose one linked to a page label (facebook_labels.foreign_label_id → its
-- facebook_label_id) gets that page label wanted or not for its PSID, and the row is due for the
-- facebook-labels job while what is wanted differs from what Facebook was told. Any other lead
-- costs two comparisons. Several rows linking the same page label: wanted while any is on the lead.
CREATE OR REPLACE FUNCTION mostrador_facebook_label_people() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_labels jsonb;
  old_labels jsonb := '[]'::jsonb;
BEGIN
  IF NEW.platform IS DISTINCT FROM 'facebook' OR coalesce(NEW.platform_user_id, '') = '' THEN
    RETURN NULL;
  END IF;
  new_labels := CASE WHEN jsonb_typeof(NEW.mostrador_labels) = 'array' THEN NEW.mostrador_labels ELSE '[]'::jsonb END;
  -- the same person before: what changed; a PSID just set: all of its labels are new to it
  IF TG_OP = 'UPDATE' AND OLD.platform IS NOT DISTINCT FROM NEW.platform AND OLD.platform_user_id IS NOT DISTINCT FROM NEW.platform_user_id
     AND jsonb_typeof(OLD.mostrador_labels) = 'array' THEN
    old_labels := OLD.mostrador_labels;
  END IF;
  IF old_labels @> new_labels AND new_labels @> old_labels THEN
    RETURN NULL;
  END IF;
  INSERT INTO facebook_label_people AS p (company_id, page_label_id, psid, lead_id, wanted, due_at, changed_at)
  SELECT NEW.company_id, f.facebook_label_id, NEW.platform_user_id, NEW.id,
         bool_or(new_labels ? f.foreign_label_id::text),
         CASE WHEN bool_or(new_labels ? f.foreign_label_id::text) THEN now() END, now()
    FROM facebook_labels f
   WHERE f.company_id = NEW.company_id AND f.foreign_label_id IS NOT NULL AND coalesce(f.facebook_label_id, '') <> ''
   GROUP BY f.facebook_label_id
  HAVING bool_or(new_labels ? f.foreign_label_id::text) <> bool_or(old_labels ? f.foreign_label_id::text)
  ON CONFLICT (company_id, page_label_id, psid) DO UPDATE
     SET wanted = EXCLUDED.wanted, lead_id = EXCLUDED.lead_id, changed_at = now(), attempts = 0,
         due_at = CASE WHEN EXCLUDED.wanted = p.applied THEN NULL ELSE now() END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leads_facebook_label_people AFTER INSERT OR UPDATE OF mostrador_labels, platform, platform_user_id ON leads
  FOR EACH ROW EXECUTE FUNCTION mostrador_facebook_label_people();
