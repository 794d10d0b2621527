CREATE INDEX "chats_status_activity_idx" ON "chats" USING btree ("company_id","status","last_message_at","id");--> statement-breakpoint
CREATE INDEX "chats_snoozed_until_idx" ON "chats" USING btree ("snoozed_until") WHERE "chats"."snoozed_until" is not null;--> statement-breakpoint
-- The chats' emitter (migration 0051) also says when a chat is snoozed (decision 0076): `chat.snoozed`
-- {chatId, leadId, until, from} when a chat becomes snoozed, or a snoozed chat gets another time.
-- Resolved and reopened as before (a snoozed chat that opens, by its time or a customer's message,
-- is `chat.reopened` from 'snoozed').
CREATE OR REPLACE FUNCTION mostrador_spine_chats_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO domain_events (company_id, type, aggregate_type, aggregate_id, actor, payload)
  SELECT n.company_id,
         CASE WHEN n.status = 'closed' THEN 'chat.resolved' WHEN n.status = 'snoozed' THEN 'chat.snoozed' ELSE 'chat.reopened' END,
         'chat', n.id::text,
         mostrador_spine_actor('{"type":"system"}'),
         jsonb_build_object('chatId', n.id, 'leadId', n.lead_id)
           || CASE WHEN n.status = 'closed' THEN '{}'::jsonb
                   WHEN n.status = 'snoozed' THEN jsonb_build_object('until', n.snoozed_until, 'from', o.status)
                   ELSE jsonb_build_object('from', o.status) END
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE (o.status IS DISTINCT FROM n.status AND (n.status = 'closed' OR (n.status = 'open' AND o.status IN ('closed', 'snoozed'))))
     OR (n.status = 'snoozed' AND n.snoozed_until IS NOT NULL
         AND (o.status IS DISTINCT FROM 'snoozed' OR o.snoozed_until IS DISTINCT FROM n.snoozed_until))
  ORDER BY n.id;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A chat a customer's message opened kept its old snooze time: only a snoozed chat has one (the
-- partial index then holds the snoozed chats only). No event: no status moves.
UPDATE chats SET snoozed_until = NULL WHERE status <> 'snoozed' AND snoozed_until IS NOT NULL;
