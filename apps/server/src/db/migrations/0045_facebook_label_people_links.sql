-- The page's Messenger labels on people (decision 0057) when a link changes: a Mostrador label
-- newly linked to a page label (a row of /etiquetas-facebook made, edited or synced) is wanted at
-- once on the Messenger people who already carry it (their lead or their person); a page label no
-- row of the company stands for any more (deleted at the page and synced, or its row removed) takes
-- its people rows with it — Facebook has nothing left to be told about it.
CREATE OR REPLACE FUNCTION mostrador_facebook_label_link() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lead uuid;
BEGIN
  IF TG_OP <> 'INSERT' AND coalesce(OLD.facebook_label_id, '') <> ''
     AND (TG_OP = 'DELETE' OR OLD.facebook_label_id IS DISTINCT FROM NEW.facebook_label_id)
     AND NOT EXISTS (SELECT 1 FROM facebook_labels f WHERE f.company_id = OLD.company_id AND f.facebook_label_id = OLD.facebook_label_id) THEN
    DELETE FROM facebook_label_people WHERE company_id = OLD.company_id AND page_label_id = OLD.facebook_label_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.foreign_label_id IS NOT NULL AND coalesce(NEW.facebook_label_id, '') <> ''
     AND (TG_OP = 'INSERT' OR OLD.foreign_label_id IS DISTINCT FROM NEW.foreign_label_id OR OLD.facebook_label_id IS DISTINCT FROM NEW.facebook_label_id) THEN
    FOR lead IN SELECT l.id FROM leads l LEFT JOIN clean_leads c ON c.company_id = l.company_id AND c.id = l.clean_lead_id
                 WHERE l.company_id = NEW.company_id AND l.platform = 'facebook' AND coalesce(l.platform_user_id, '') <> ''
                   AND (coalesce(l.mostrador_labels, '[]'::jsonb) ? NEW.foreign_label_id::text OR coalesce(c.mostrador_labels, '[]'::jsonb) ? NEW.foreign_label_id::text) LOOP
      PERFORM mostrador_facebook_label_refresh(NEW.company_id, lead);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER facebook_labels_people AFTER INSERT OR UPDATE OF foreign_label_id, facebook_label_id OR DELETE ON facebook_labels
  FOR EACH ROW EXECUTE FUNCTION mostrador_facebook_label_link();
