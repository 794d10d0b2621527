-- The page's Messenger labels on people (decision 0057), now from the person too: a lead's labels
-- and its person's (clean lead: massive labels, forms and the person's screen write there) both
-- count. What a Messenger lead should carry is recomputed from the two, against every page label
-- linked to a Mostrador label, and only the rows whose wish changed are written (an unchanged
-- label costs nothing, a wish undone before it was sent leaves the row as it was).
CREATE OR REPLACE FUNCTION mostrador_facebook_label_refresh(company uuid, lead uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO facebook_label_people AS p (company_id, page_label_id, psid, lead_id, wanted, due_at, changed_at)
  SELECT l.company_id, w.page_label_id, l.platform_user_id, l.id, w.wanted, CASE WHEN w.wanted THEN now() END, now()
    FROM leads l
    LEFT JOIN clean_leads c ON c.company_id = l.company_id AND c.id = l.clean_lead_id
   CROSS JOIN LATERAL (
         SELECT f.facebook_label_id AS page_label_id,
                bool_or(coalesce(l.mostrador_labels, '[]'::jsonb) ? f.foreign_label_id::text
                        OR coalesce(c.mostrador_labels, '[]'::jsonb) ? f.foreign_label_id::text) AS wanted
           FROM facebook_labels f
          WHERE f.company_id = l.company_id AND f.foreign_label_id IS NOT NULL AND coalesce(f.facebook_label_id, '') <> ''
          GROUP BY f.facebook_label_id) w
    LEFT JOIN facebook_label_people q ON q.company_id = l.company_id AND q.page_label_id = w.page_label_id AND q.psid = l.platform_user_id
   WHERE l.company_id = company AND l.id = lead AND l.platform = 'facebook' AND coalesce(l.platform_user_id, '') <> ''
     AND CASE WHEN q.psid IS NULL THEN w.wanted ELSE q.wanted <> w.wanted END
  ON CONFLICT (company_id, page_label_id, psid) DO UPDATE
     SET wanted = EXCLUDED.wanted, lead_id = EXCLUDED.lead_id, changed_at = now(), attempts = 0,
         due_at = CASE WHEN EXCLUDED.wanted = p.applied THEN NULL ELSE now() END;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION mostrador_facebook_label_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.platform IS DISTINCT FROM 'facebook' OR coalesce(NEW.platform_user_id, '') = '' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.platform IS NOT DISTINCT FROM NEW.platform AND OLD.platform_user_id IS NOT DISTINCT FROM NEW.platform_user_id
     AND OLD.clean_lead_id IS NOT DISTINCT FROM NEW.clean_lead_id AND OLD.mostrador_labels IS NOT DISTINCT FROM NEW.mostrador_labels THEN
    RETURN NULL;
  END IF;
  PERFORM mostrador_facebook_label_refresh(NEW.company_id, NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS leads_facebook_label_people ON leads;
--> statement-breakpoint
CREATE TRIGGER leads_facebook_label_people AFTER INSERT OR UPDATE OF mostrador_labels, platform, platform_user_id, clean_lead_id ON leads
  FOR EACH ROW EXECUTE FUNCTION mostrador_facebook_label_people();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION mostrador_facebook_label_person() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lead uuid;
BEGIN
  IF OLD.mostrador_labels IS NOT DISTINCT FROM NEW.mostrador_labels THEN
    RETURN NULL;
  END IF;
  FOR lead IN SELECT id FROM leads WHERE company_id = NEW.company_id AND clean_lead_id = NEW.id AND platform = 'facebook' AND coalesce(platform_user_id, '') <> '' LOOP
    PERFORM mostrador_facebook_label_refresh(NEW.company_id, lead);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER clean_leads_facebook_label_people AFTER UPDATE OF mostrador_labels ON clean_leads
  FOR EACH ROW EXECUTE FUNCTION mostrador_facebook_label_person();
