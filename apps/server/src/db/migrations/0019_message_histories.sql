-- Decision 0042: template-messages-logs is a read model of the template chat messages. Rows
-- that are not a chat message (the old demo's examples, hand-made rows) have no place in it.
DELETE FROM "template_messages_logs" t WHERE NOT EXISTS (SELECT 1 FROM "chat_messages" m WHERE m."id" = t."id");--> statement-breakpoint
DROP INDEX "template_messages_logs_error_trgm";--> statement-breakpoint
ALTER TABLE "template_messages_logs" ALTER COLUMN "telefono" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "template_messages_logs" ADD COLUMN "nombre" text;--> statement-breakpoint
ALTER TABLE "template_messages_logs" ADD COLUMN "chat_id" uuid;--> statement-breakpoint
ALTER TABLE "template_messages_logs" ADD COLUMN "source" text NOT NULL;--> statement-breakpoint
ALTER TABLE "template_messages_logs" ADD COLUMN "send_name" text;--> statement-breakpoint
CREATE INDEX "massive_messages_logs_status_filter_idx" ON "massive_messages_logs" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "template_messages_logs_status_filter_idx" ON "template_messages_logs" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "template_messages_logs_template_name_filter_idx" ON "template_messages_logs" USING btree ("company_id","template_name","created_at","id");--> statement-breakpoint
CREATE INDEX "template_messages_logs_source_filter_idx" ON "template_messages_logs" USING btree ("company_id","source","created_at","id");--> statement-breakpoint
CREATE INDEX "template_messages_logs_nombre_trgm" ON "template_messages_logs" USING gin ("nombre" gin_trgm_ops);--> statement-breakpoint
-- A template message (an outbound chat message whose content names a template) is its history
-- row: written with it, moved with it (status, the provider's reason, its dates), gone with it
-- (a stopped send's unsent message). Who, where from and which send are read once, when it is
-- written: the recipient of the send (campaign or massive) or the chat's lead.
CREATE OR REPLACE FUNCTION mostrador_template_log() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_op = 'DELETE' then
    delete from template_messages_logs where id = old.id;
    return null;
  end if;
  if new.direction <> 'out' or new.content is null or not (new.content ? 'template') then
    delete from template_messages_logs where id = new.id;
    return null;
  end if;
  if tg_op = 'UPDATE' then
    update template_messages_logs set
        template_name = left(coalesce(new.content->'template'->>'name', ''), 512),
        status = case when new.status in ('pending', 'sent', 'delivered', 'read', 'failed') then new.status else 'sent' end,
        error = case when new.status = 'failed' then left(new.status_error, 2000) end,
        created_at = new.created_at, updated_at = new.updated_at
      where id = new.id;
    if found then return null; end if;
  end if;
  insert into template_messages_logs (id, company_id, template_name, telefono, nombre, status, error, lead_id, chat_id, source, send_name, created_at, updated_at)
  select new.id, new.company_id, left(coalesce(new.content->'template'->>'name', ''), 512),
         left(coalesce(r.phone, l.telefono, l.platform_user_id), 40), left(coalesce(r.name, nullif(c.contact_name, ''), l.name), 200),
         case when new.status in ('pending', 'sent', 'delivered', 'read', 'failed') then new.status else 'sent' end,
         case when new.status = 'failed' then left(new.status_error, 2000) end,
         c.lead_id, new.chat_id, coalesce(s.kind, 'chat'), left(s.name, 200), new.created_at, new.updated_at
    from (select 1) one
    left join chats c on c.id = new.chat_id
    left join leads l on l.company_id = c.company_id and l.id = c.lead_id
    left join send_recipients r on r.id = new.id
    left join sends s on s.id = r.send_id
  on conflict (id) do nothing;
  return null;
end $$;--> statement-breakpoint
CREATE TRIGGER "chat_messages_template_log_ins" AFTER INSERT ON "chat_messages" FOR EACH ROW
  WHEN (new.direction = 'out' AND new.content ? 'template') EXECUTE FUNCTION mostrador_template_log();--> statement-breakpoint
CREATE TRIGGER "chat_messages_template_log_upd" AFTER UPDATE ON "chat_messages" FOR EACH ROW
  WHEN (new.content ? 'template' OR old.content ? 'template') EXECUTE FUNCTION mostrador_template_log();--> statement-breakpoint
CREATE TRIGGER "chat_messages_template_log_del" AFTER DELETE ON "chat_messages" FOR EACH ROW
  WHEN (old.content ? 'template') EXECUTE FUNCTION mostrador_template_log();--> statement-breakpoint
-- the template messages sent before this migration
INSERT INTO "template_messages_logs" (id, company_id, template_name, telefono, nombre, status, error, lead_id, chat_id, source, send_name, created_at, updated_at)
SELECT m.id, m.company_id, left(coalesce(m.content->'template'->>'name', ''), 512),
       left(coalesce(r.phone, l.telefono, l.platform_user_id), 40), left(coalesce(r.name, nullif(c.contact_name, ''), l.name), 200),
       case when m.status in ('pending', 'sent', 'delivered', 'read', 'failed') then m.status else 'sent' end,
       case when m.status = 'failed' then left(m.status_error, 2000) end,
       c.lead_id, m.chat_id, coalesce(s.kind, 'chat'), left(s.name, 200), m.created_at, m.updated_at
  FROM "chat_messages" m
  LEFT JOIN "chats" c ON c.id = m.chat_id
  LEFT JOIN "leads" l ON l.company_id = c.company_id AND l.id = c.lead_id
  LEFT JOIN "send_recipients" r ON r.id = m.id
  LEFT JOIN "sends" s ON s.id = r.send_id
 WHERE m.direction = 'out' AND m.content ? 'template'
ON CONFLICT (id) DO NOTHING;
