-- Decision 0045: chat messages are the hot write (webhooks one by one, the sending engine in batches
-- of hundreds). Their insert and delete triggers run static SQL, planned once per session, instead
-- of 0023's EXECUTE of mostrador_metrics_sql (planned on every statement): measured on PostgreSQL,
-- a single-row insert's trigger cost goes from about 0.7 ms to 0.2 ms. The statements mirror
-- mostrador_metrics_sql('chat_messages', …), which the rebuild and the row trigger still run; the
-- property test of apps/server/test/metrics.test.ts checks that both agree.
CREATE OR REPLACE FUNCTION mostrador_metrics_messages_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  -- (each branch is planned the first time it runs, so the insert trigger never sees old_rows)
  if tg_op = 'INSERT' then
    insert into metrics_companies (company_id, timezone)
    select co.id, mostrador_metrics_default_tz(co.id) from companies co
     where co.id in (select company_id from new_rows) and not exists (select 1 from metrics_companies m where m.company_id = co.id)
    on conflict do nothing;
    perform 1 from metrics_companies m where m.company_id in (select company_id from new_rows) order by m.company_id for share;
    with r as (select x.company_id, x.chat_id, x.direction, x.sent_by, x.sent_at, c.platform as channel, mc.timezone as tz
                 from new_rows x join companies co on co.id = x.company_id join metrics_companies mc on mc.company_id = x.company_id
                 join chats c on c.id = x.chat_id
                where x.status <> 'failed'),
    d as (insert into metrics_messages_daily as t (company_id, day, channel, direction, user_id, messages)
          select company_id, (sent_at at time zone tz)::date, channel, direction, coalesce(sent_by, '00000000-0000-0000-0000-000000000000'), count(*)
            from r group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
          on conflict (company_id, day, channel, direction, user_id) do update set messages = t.messages + excluded.messages)
    insert into metrics_chat_months as t (company_id, month, chat_id, channel, inbound, outbound)
    select company_id, date_trunc('month', sent_at at time zone tz)::date, chat_id, channel,
           count(*) filter (where direction = 'in'), count(*) filter (where direction = 'out')
      from r group by 1, 2, 3, 4 order by 1, 2, 3
    on conflict (company_id, month, chat_id) do update
      set inbound = t.inbound + excluded.inbound, outbound = t.outbound + excluded.outbound, channel = excluded.channel;
  else
    insert into metrics_companies (company_id, timezone)
    select co.id, mostrador_metrics_default_tz(co.id) from companies co
     where co.id in (select company_id from old_rows) and not exists (select 1 from metrics_companies m where m.company_id = co.id)
    on conflict do nothing;
    perform 1 from metrics_companies m where m.company_id in (select company_id from old_rows) order by m.company_id for share;
    with r as (select x.company_id, x.chat_id, x.direction, x.sent_by, x.sent_at, c.platform as channel, mc.timezone as tz
                 from old_rows x join companies co on co.id = x.company_id join metrics_companies mc on mc.company_id = x.company_id
                 join chats c on c.id = x.chat_id
                where x.status <> 'failed'),
    d as (insert into metrics_messages_daily as t (company_id, day, channel, direction, user_id, messages)
          select company_id, (sent_at at time zone tz)::date, channel, direction, coalesce(sent_by, '00000000-0000-0000-0000-000000000000'), -count(*)
            from r group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
          on conflict (company_id, day, channel, direction, user_id) do update set messages = t.messages + excluded.messages)
    insert into metrics_chat_months as t (company_id, month, chat_id, channel, inbound, outbound)
    select company_id, date_trunc('month', sent_at at time zone tz)::date, chat_id, channel,
           -count(*) filter (where direction = 'in'), -count(*) filter (where direction = 'out')
      from r group by 1, 2, 3, 4 order by 1, 2, 3
    on conflict (company_id, month, chat_id) do update
      set inbound = t.inbound + excluded.inbound, outbound = t.outbound + excluded.outbound, channel = excluded.channel;
  end if;
  return null;
end $$;--> statement-breakpoint
DROP TRIGGER "metrics_chat_messages_ins" ON "chat_messages";--> statement-breakpoint
DROP TRIGGER "metrics_chat_messages_del" ON "chat_messages";--> statement-breakpoint
CREATE TRIGGER "metrics_chat_messages_ins" AFTER INSERT ON "chat_messages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_messages_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chat_messages_del" AFTER DELETE ON "chat_messages" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_messages_stmt();
