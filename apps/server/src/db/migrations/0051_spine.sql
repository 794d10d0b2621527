CREATE TABLE "domain_event_failures" (
	"listener" text NOT NULL,
	"position" bigint NOT NULL,
	"aggregate" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"blocked_by" bigint,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"given_up_at" timestamp with time zone,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "domain_event_failures_listener_position_pk" PRIMARY KEY("listener","position")
);
--> statement-breakpoint
CREATE TABLE "domain_event_receipts" (
	"listener" text NOT NULL,
	"position" bigint NOT NULL,
	CONSTRAINT "domain_event_receipts_listener_position_pk" PRIMARY KEY("listener","position")
);
--> statement-breakpoint
CREATE TABLE "domain_events" (
	"position" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "domain_events_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"type" text NOT NULL,
	"version" smallint DEFAULT 1 NOT NULL,
	"aggregate_type" text NOT NULL,
	"aggregate_id" text NOT NULL,
	"actor" jsonb DEFAULT '{"type":"system"}'::jsonb NOT NULL,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "spine_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "domain_event_failures_due_idx" ON "domain_event_failures" USING btree ("listener","next_at");--> statement-breakpoint
CREATE INDEX "domain_events_pending_idx" ON "domain_events" USING btree ("position") WHERE "domain_events"."dispatched_at" is null;--> statement-breakpoint
CREATE INDEX "domain_events_occurred_idx" ON "domain_events" USING btree ("occurred_at");--> statement-breakpoint
-- The spine's emitters (decision 0068). A row change that IS a domain event writes it here, in the
-- statement that made the change: whatever code path wrote it (a webhook, a request, an import, a
-- job), the event is in the same transaction, and a statement of many rows writes its events in
-- one insert (statement-level triggers over the transition tables), so a burst pays no statement
-- per event. The payloads are the contract's (packages/contract/src/domain-events.ts, version 1);
-- the dispatcher checks each against its schema before a listener sees it. The actor is the
-- transaction's `mostrador.actor` (set by spine/outbox.ts actAs) when there is one, else what the
-- row says (an inbound message's provider, an outbound one's user), else the system.
CREATE FUNCTION mostrador_spine_actor(fallback jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('mostrador.actor', true), '')::jsonb, fallback)
$$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_messages_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT m.company_id,
         CASE WHEN m.direction = 'in' THEN 'message.received' ELSE 'message.sent' END,
         'chat', m.chat_id::text,
         CASE WHEN m.direction = 'in' THEN jsonb_build_object('type', 'provider', 'id', c.platform)
              WHEN m.sent_by IS NOT NULL THEN mostrador_spine_actor(jsonb_build_object('type', 'user', 'id', m.sent_by))
              ELSE mostrador_spine_actor('{"type":"system"}') END,
         jsonb_build_object('chatId', m.chat_id, 'leadId', c.lead_id, 'messageId', m.id, 'channel', c.platform, 'kind', m.kind)
           || CASE WHEN m.direction = 'in' THEN '{}'::jsonb ELSE jsonb_build_object('sentBy', m.sent_by) END
  FROM new_rows m JOIN chats c ON c.id = m.chat_id
  ORDER BY m.sent_at, m.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_messages_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT n.company_id,
         CASE WHEN o.status IS DISTINCT FROM n.status THEN 'message.status' ELSE 'message.updated' END,
         'chat', n.chat_id::text,
         mostrador_spine_actor('{"type":"system"}'),
         jsonb_build_object('chatId', n.chat_id, 'messageId', n.id)
           || CASE WHEN o.status IS DISTINCT FROM n.status THEN jsonb_build_object('status', n.status, 'previous', o.status) ELSE '{}'::jsonb END
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE o.status IS DISTINCT FROM n.status OR o.is_active IS DISTINCT FROM n.is_active
     OR o.content IS DISTINCT FROM n.content OR o.text IS DISTINCT FROM n.text OR o.media_url IS DISTINCT FROM n.media_url
  ORDER BY n.sent_at, n.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_chats_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT c.company_id, 'chat.created', 'chat', c.id::text, mostrador_spine_actor('{"type":"system"}'),
         jsonb_build_object('chatId', c.id, 'leadId', c.lead_id, 'channel', c.platform)
  FROM new_rows c ORDER BY c.created_at, c.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_chats_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT n.company_id, CASE WHEN n.status = 'closed' THEN 'chat.resolved' ELSE 'chat.reopened' END, 'chat', n.id::text,
         mostrador_spine_actor('{"type":"system"}'),
         jsonb_build_object('chatId', n.id, 'leadId', n.lead_id) || CASE WHEN n.status = 'closed' THEN '{}'::jsonb ELSE jsonb_build_object('from', o.status) END
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE o.status IS DISTINCT FROM n.status AND (n.status = 'closed' OR (n.status = 'open' AND o.status IN ('closed', 'snoozed')))
  ORDER BY n.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_leads_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT l.company_id, 'lead.created', 'lead', l.id::text, mostrador_spine_actor('{"type":"system"}'),
         jsonb_build_object('leadId', l.id, 'platform', l.platform, 'status', l.status)
  FROM new_rows l ORDER BY l.created_at, l.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_leads_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT company_id, type, aggregate_type, aggregate_id, mostrador_spine_actor('{"type":"system"}'), payload FROM (
    -- the lead's data
    SELECT n.company_id, 'lead.updated' AS type, 'lead' AS aggregate_type, n.id::text AS aggregate_id, jsonb_build_object('leadId', n.id) AS payload, n.id AS lead, 1 AS k
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE o.name IS DISTINCT FROM n.name OR o.telefono IS DISTINCT FROM n.telefono OR o.email IS DISTINCT FROM n.email OR o.details IS DISTINCT FROM n.details
    UNION ALL
    SELECT n.company_id, 'lead.status_changed', 'lead', n.id::text, jsonb_build_object('leadId', n.id, 'status', n.status, 'previous', o.status), n.id, 2
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.status IS DISTINCT FROM n.status
    UNION ALL
    SELECT n.company_id, 'lead.labelled', 'lead', n.id::text,
           jsonb_build_object('leadId', n.id, 'platform', n.platform, 'labels', (SELECT jsonb_agg(x) FROM jsonb_array_elements_text(coalesce(n.mostrador_labels, '[]')) x WHERE NOT coalesce(o.mostrador_labels, '[]') ? x)), n.id, 3
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(n.mostrador_labels, '[]')) x WHERE NOT coalesce(o.mostrador_labels, '[]') ? x)
    UNION ALL
    SELECT n.company_id, 'lead.unlabelled', 'lead', n.id::text,
           jsonb_build_object('leadId', n.id, 'platform', n.platform, 'labels', (SELECT jsonb_agg(x) FROM jsonb_array_elements_text(coalesce(o.mostrador_labels, '[]')) x WHERE NOT coalesce(n.mostrador_labels, '[]') ? x)), n.id, 4
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(o.mostrador_labels, '[]')) x WHERE NOT coalesce(n.mostrador_labels, '[]') ? x)
    UNION ALL
    -- a new agent for the lead is a new agent for each of its chats
    SELECT n.company_id, 'chat.assigned', 'chat', c.id::text,
           jsonb_build_object('chatId', c.id, 'leadId', n.id, 'agentId', n.agente_id, 'previousAgentId', o.agente_id), n.id, 5
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN chats c ON c.company_id = n.company_id AND c.lead_id = n.id
    WHERE o.agente_id IS DISTINCT FROM n.agente_id
  ) e ORDER BY lead, k, aggregate_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_clean_leads_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT company_id, type, 'person', id::text, mostrador_spine_actor('{"type":"system"}'), jsonb_build_object('personId', id, 'labels', labels) FROM (
    SELECT n.company_id, n.id, 'person.labelled' AS type, 1 AS k,
           (SELECT jsonb_agg(x) FROM jsonb_array_elements_text(coalesce(n.mostrador_labels, '[]')) x WHERE NOT coalesce(o.mostrador_labels, '[]') ? x) AS labels
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    UNION ALL
    SELECT n.company_id, n.id, 'person.unlabelled', 2,
           (SELECT jsonb_agg(x) FROM jsonb_array_elements_text(coalesce(o.mostrador_labels, '[]')) x WHERE NOT coalesce(n.mostrador_labels, '[]') ? x)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
  ) e WHERE labels IS NOT NULL ORDER BY id, k;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_orders_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT o.company_id, 'order.created', 'order', o.id::text, mostrador_spine_actor('{"type":"system"}'),
         jsonb_build_object('orderId', o.id, 'code', o.code, 'status', o.status, 'source', o.source, 'total', o.total,
                            'currency', o.currency, 'chatId', o.chat_id, 'leadId', o.lead_id)
  FROM new_rows o ORDER BY o.created_at, o.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_orders_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT company_id, type, 'order', id::text, mostrador_spine_actor('{"type":"system"}'), payload FROM (
    SELECT n.company_id, n.id, 'order.status_changed' AS type, jsonb_build_object('orderId', n.id, 'code', n.code, 'status', n.status, 'previous', o.status) AS payload, 1 AS k
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.status IS DISTINCT FROM n.status
    UNION ALL
    SELECT n.company_id, n.id, 'order.paid', jsonb_build_object('orderId', n.id, 'code', n.code, 'total', n.total, 'currency', n.currency), 2
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'paid' AND o.status IS DISTINCT FROM 'paid'
  ) e ORDER BY id, k;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_person_merges_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT m.company_id, 'person.merged', 'person', m.kept_id::text,
         mostrador_spine_actor(CASE WHEN m.merged_by IS NULL THEN '{"type":"system"}' ELSE jsonb_build_object('type', 'user', 'id', m.merged_by) END),
         jsonb_build_object('keptId', m.kept_id, 'duplicateId', m.duplicate_id)
  FROM new_rows m ORDER BY m.merged_at;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_sends_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT company_id, type, 'send', id::text, mostrador_spine_actor('{"type":"system"}'), payload FROM (
    SELECT n.company_id, n.id, 'send.finished' AS type,
           jsonb_build_object('sendId', n.id, 'kind', n.kind, 'status', n.status, 'campaignId', n.campaign_id) AS payload, 1 AS k
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IN ('sent', 'error', 'sent_with_some_errors', 'stopped') AND o.status NOT IN ('sent', 'error', 'sent_with_some_errors', 'stopped')
    UNION ALL
    SELECT n.company_id, n.id, 'campaign.chunk_finished',
           jsonb_build_object('sendId', n.id, 'campaignId', n.campaign_id, 'chunkPage', n.chunk_page, 'status', n.status), 2
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.campaign_id IS NOT NULL
      AND n.status IN ('sent', 'error', 'sent_with_some_errors', 'stopped') AND o.status NOT IN ('sent', 'error', 'sent_with_some_errors', 'stopped')
  ) e ORDER BY id, k;
  RETURN NULL;
END $$;--> statement-breakpoint
-- a sync run that ended (done or failed): `kind` names the sync, the statuses are each table's own
CREATE FUNCTION mostrador_spine_sync_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT n.company_id, 'sync.finished', 'sync', n.id::text, mostrador_spine_actor('{"type":"system"}'),
         jsonb_build_object('syncId', n.id, 'kind', TG_ARGV[0], 'status', n.status)
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE o.status IS DISTINCT FROM n.status AND n.status IN ('done', 'failed', 'terminada', 'fallida')
  ORDER BY n.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_comments_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT c.company_id, 'comment.received', 'comment', c.id::text, jsonb_build_object('type', 'provider', 'id', 'messenger'),
         jsonb_build_object('commentId', c.id, 'pageId', c.page_id, 'postId', c.post_id)
  FROM new_rows c ORDER BY c.created_at, c.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION mostrador_spine_form_entries_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT e.company_id, 'form.entry_received', 'form_entry', e.id::text, jsonb_build_object('type', 'provider', 'id', 'gravity_forms'),
         jsonb_build_object('entryId', e.id, 'formId', e.form_id, 'status', e.status)
  FROM new_rows e ORDER BY e.created_at, e.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "spine_chat_messages_ins" AFTER INSERT ON "chat_messages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_messages_ins();--> statement-breakpoint
CREATE TRIGGER "spine_chat_messages_upd" AFTER UPDATE ON "chat_messages" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_messages_upd();--> statement-breakpoint
CREATE TRIGGER "spine_chats_ins" AFTER INSERT ON "chats" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_chats_ins();--> statement-breakpoint
CREATE TRIGGER "spine_chats_upd" AFTER UPDATE ON "chats" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_chats_upd();--> statement-breakpoint
CREATE TRIGGER "spine_leads_ins" AFTER INSERT ON "leads" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_leads_ins();--> statement-breakpoint
CREATE TRIGGER "spine_leads_upd" AFTER UPDATE ON "leads" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_leads_upd();--> statement-breakpoint
CREATE TRIGGER "spine_clean_leads_upd" AFTER UPDATE ON "clean_leads" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_clean_leads_upd();--> statement-breakpoint
CREATE TRIGGER "spine_orders_ins" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_orders_ins();--> statement-breakpoint
CREATE TRIGGER "spine_orders_upd" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_orders_upd();--> statement-breakpoint
CREATE TRIGGER "spine_person_merges_ins" AFTER INSERT ON "person_merges" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_person_merges_ins();--> statement-breakpoint
CREATE TRIGGER "spine_sends_upd" AFTER UPDATE ON "sends" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_sends_upd();--> statement-breakpoint
CREATE TRIGGER "spine_ecommerce_sync_runs_upd" AFTER UPDATE ON "ecommerce_sync_runs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_sync_upd('woocommerce');--> statement-breakpoint
CREATE TRIGGER "spine_marketplace_sync_runs_upd" AFTER UPDATE ON "marketplace_sync_runs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_sync_upd('marketplace');--> statement-breakpoint
CREATE TRIGGER "spine_mailchimp_label_syncs_upd" AFTER UPDATE ON "mailchimp_label_syncs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_sync_upd('mailchimp');--> statement-breakpoint
CREATE TRIGGER "spine_google_contact_syncs_upd" AFTER UPDATE ON "google_contact_syncs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_sync_upd('google_contacts');--> statement-breakpoint
CREATE TRIGGER "spine_comments_facebook_ins" AFTER INSERT ON "comments_facebook" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_comments_ins();--> statement-breakpoint
CREATE TRIGGER "spine_gravity_form_entries_ins" AFTER INSERT ON "gravity_form_entries" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_spine_form_entries_ins();
