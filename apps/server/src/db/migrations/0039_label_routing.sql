-- Labels routed to agents (/etiquetas-y-agentes, decision 0054): a lead or person nobody holds
-- that gets a label goes to an agent of the chat groups holding that label. One place for every
-- path that labels (a lead's form, the chat, massive labels, imports, forms, comment rules): a
-- BEFORE trigger sets the agent and the settled status on the row being written, so the write's
-- answer already shows them. Among the group's agents: active ones, available first, then spread
-- by a hash of the lead and the agent (even in bulk, no shared counter to lock).
CREATE OR REPLACE FUNCTION mostrador_route_by_label() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added text[];
  chosen uuid;
BEGIN
  IF NEW.agente_id IS NOT NULL OR NEW.mostrador_labels IS NULL OR jsonb_typeof(NEW.mostrador_labels) <> 'array' THEN
    RETURN NEW;
  END IF;
  -- an update that takes the agent away is what the user asked for: not routed back
  IF TG_OP = 'UPDATE' AND OLD.agente_id IS NOT NULL THEN
    RETURN NEW;
  END IF;
  SELECT array_agg(x) INTO added FROM jsonb_array_elements_text(NEW.mostrador_labels) x
   WHERE TG_OP = 'INSERT' OR NOT (coalesce(OLD.mostrador_labels, '[]'::jsonb) ? x);
  IF added IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT a.id INTO chosen FROM agentes a
   WHERE a.company_id = NEW.company_id AND a.active IS NOT FALSE
     AND EXISTS (SELECT 1 FROM chat_groups g
                  WHERE g.company_id = NEW.company_id AND g.mostrador_label_ids ?| added AND g.agente_ids ? a.id::text)
   ORDER BY (a.available IS TRUE) DESC, hashtext(NEW.id::text || a.id::text), a.id
   LIMIT 1;
  IF chosen IS NULL THEN
    RETURN NEW;
  END IF;
  NEW.agente_id := chosen;
  IF NEW.status = 'sin-asignar' THEN
    NEW.status := 'informado-al-agente';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER leads_route_by_label BEFORE INSERT OR UPDATE OF mostrador_labels ON leads
  FOR EACH ROW EXECUTE FUNCTION mostrador_route_by_label();
--> statement-breakpoint
CREATE TRIGGER clean_leads_route_by_label BEFORE INSERT OR UPDATE OF mostrador_labels ON clean_leads
  FOR EACH ROW EXECUTE FUNCTION mostrador_route_by_label();
