-- Decision 0045: the metrics rollups (0022) kept in step with their sources.
--
-- One projection per rollup, written once as SQL text over a source relation (mostrador_metrics_sql):
-- the statement triggers run it over their transition tables (one grouped upsert per statement,
-- however many rows it wrote: the sending engine's batches cost one), the row triggers over OLD
-- (sign -1) and NEW (sign +1) for the rare updates that move a count, and the rebuild
-- (mostrador_metrics_rebuild) over the company's whole tables. A company deleted in the same
-- transaction is skipped (joined to companies), so its cascade never writes a rollup row.
--
-- Concurrency: every writer takes a share lock on its company's metrics_companies row before
-- adding to the rollups; a rebuild takes it exclusively (it rewrites the zone), so a rebuild waits
-- for writers in flight and writers wait for a rebuild, and every row is counted exactly once.

-- The zone the app counts a company's days in (modules/leads/summary.ts timezoneOf): settings.timezone
-- when the runtime knows it, else the country's. Read once per company, when it first gets rollups.
CREATE OR REPLACE FUNCTION mostrador_metrics_default_tz(c uuid) RETURNS text LANGUAGE sql STABLE AS $$
  select coalesce(
           (select z.name from pg_timezone_names z where z.name = co.settings->>'timezone' limit 1),
           case co.country when 'CL' then 'America/Santiago' when 'CO' then 'America/Bogota' when 'ES' then 'Europe/Madrid' else 'America/Lima' end)
    from companies co where co.id = c
$$;--> statement-breakpoint

-- The companies' rollup zones exist and are share-locked until the writer commits.
CREATE OR REPLACE FUNCTION mostrador_metrics_ensure(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
begin
  if ids is null then return; end if;
  insert into metrics_companies (company_id, timezone)
  select co.id, mostrador_metrics_default_tz(co.id) from companies co
   where co.id = any(ids) and not exists (select 1 from metrics_companies m where m.company_id = co.id)
  on conflict do nothing;
  perform 1 from metrics_companies m where m.company_id = any(ids) order by m.company_id for share;
end $$;--> statement-breakpoint

-- The projection of a source table's rows `src` (a relation with the table's columns) into its
-- rollup, each row counted `sign` times. chat_messages and chat_analyses take their chat's platform
-- (or `channel` when given: a chat whose platform just changed is taken out under its old one).
CREATE OR REPLACE FUNCTION mostrador_metrics_sql(tbl text, src text, sign int, channel text DEFAULT NULL) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
declare
  ch text := case when channel is null then 'c.platform' else quote_literal(channel) end;
  chats_join text := case when channel is null then 'join chats c on c.id = x.chat_id' else '' end;
  base text := 'join companies co on co.id = x.company_id join metrics_companies mc on mc.company_id = x.company_id';
begin
  if tbl = 'chat_messages' then
    return format($f$
      with r as (select x.company_id, x.chat_id, x.direction, x.sent_by, x.sent_at, %3$s as channel, mc.timezone as tz
                   from %1$s x %5$s %4$s
                  where x.status <> 'failed'),
      d as (insert into metrics_messages_daily as t (company_id, day, channel, direction, user_id, messages)
            select company_id, (sent_at at time zone tz)::date, channel, direction, coalesce(sent_by, '00000000-0000-0000-0000-000000000000'), %2$s * count(*)
              from r group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
            on conflict (company_id, day, channel, direction, user_id) do update set messages = t.messages + excluded.messages)
      insert into metrics_chat_months as t (company_id, month, chat_id, channel, inbound, outbound)
      select company_id, date_trunc('month', sent_at at time zone tz)::date, chat_id, channel,
             %2$s * count(*) filter (where direction = 'in'), %2$s * count(*) filter (where direction = 'out')
        from r group by 1, 2, 3, 4 order by 1, 2, 3
      on conflict (company_id, month, chat_id) do update
        set inbound = t.inbound + excluded.inbound, outbound = t.outbound + excluded.outbound, channel = excluded.channel$f$,
      src, sign, ch, chats_join, base);
  elsif tbl = 'chat_analyses' then
    return format($f$
      insert into metrics_analyses_daily as t (company_id, day, channel, dimension, label, n)
      select x.company_id, (coalesce(x.last_message_at, x.analyzed_at) at time zone mc.timezone)::date, %3$s, v.dimension, v.label, %2$s * count(*)
        from %1$s x %5$s %4$s
        cross join lateral (values ('total', 'all'), ('sentiment', x.sentiment), ('motive', x.motive), ('origin', x.dissatisfaction_origin),
                                   ('category', x.category), ('quality', x.quality::text),
                                   ('cross_sell_offered', case when x.cross_sell_offered then 'yes' end),
                                   ('cross_sell_taken', case when x.cross_sell_taken then 'yes' end),
                                   ('promotion', case when x.personalised_promotion then 'yes' end)) v(dimension, label)
       where v.label is not null
       group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
      on conflict (company_id, day, channel, dimension, label) do update set n = t.n + excluded.n$f$,
      src, sign, ch, chats_join, base);
  elsif tbl = 'orders' then
    return format($f$
      insert into metrics_sales_daily as t (company_id, day, status, currency, source, orders, amount)
      select x.company_id, (x.created_at at time zone mc.timezone)::date, x.status, x.currency, x.source, %2$s * count(*), %2$s * sum(x.total::numeric)
        from %1$s x %3$s
       group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
      on conflict (company_id, day, status, currency, source) do update set orders = t.orders + excluded.orders, amount = t.amount + excluded.amount$f$,
      src, sign, base);
  elsif tbl in ('chats', 'leads', 'clean_leads', 'memberships') then
    return format($f$
      insert into metrics_entities_daily as t (company_id, day, kind, channel, agente_id, n)
      select x.company_id, (x.created_at at time zone mc.timezone)::date, %3$L, %4$s, %5$s, %2$s * count(*)
        from %1$s x %6$s
       group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
      on conflict (company_id, day, kind, channel, agente_id) do update set n = t.n + excluded.n$f$,
      src, sign,
      case tbl when 'chats' then 'chat' when 'leads' then 'lead' when 'clean_leads' then 'clean_lead' else 'user' end,
      case when tbl in ('chats', 'leads') then 'x.platform' else quote_literal('') end,
      case when tbl in ('leads', 'clean_leads') then 'coalesce(x.agente_id, ''00000000-0000-0000-0000-000000000000'')' else '''00000000-0000-0000-0000-000000000000''::uuid' end,
      base);
  end if;
  raise exception 'mostrador_metrics_sql: no rollup for %', tbl;
end $$;--> statement-breakpoint

-- Inserts and deletes: the statement's rows, grouped, in one upsert.
CREATE OR REPLACE FUNCTION mostrador_metrics_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
declare
  rel text := case when tg_op = 'DELETE' then 'old_rows' else 'new_rows' end;
  ids uuid[];
begin
  execute format('select array_agg(distinct company_id) from %I', rel) into ids;
  if ids is null then return null; end if;
  perform mostrador_metrics_ensure(ids);
  execute mostrador_metrics_sql(tg_table_name, rel, case when tg_op = 'DELETE' then -1 else 1 end);
  return null;
end $$;--> statement-breakpoint

-- An update that moves a count: out under the old row, in under the new one.
CREATE OR REPLACE FUNCTION mostrador_metrics_row_upd() RETURNS trigger LANGUAGE plpgsql AS $$
declare
  one text := format('(select ($1::%I).*)', tg_table_name);
begin
  perform mostrador_metrics_ensure(array[old.company_id, new.company_id]);
  if tg_table_name = 'chats' then
    -- (nested: PL/pgSQL resolves old.platform only on chats)
    if old.platform is distinct from new.platform then
      -- the chat's messages and analysis move to its new channel
      execute mostrador_metrics_sql('chat_messages', format('(select * from chat_messages where company_id = %L and chat_id = %L)', old.company_id, old.id), -1, old.platform);
      execute mostrador_metrics_sql('chat_messages', format('(select * from chat_messages where company_id = %L and chat_id = %L)', new.company_id, new.id), 1);
      execute mostrador_metrics_sql('chat_analyses', format('(select * from chat_analyses where chat_id = %L)', old.id), -1, old.platform);
      execute mostrador_metrics_sql('chat_analyses', format('(select * from chat_analyses where chat_id = %L)', new.id), 1);
    end if;
  end if;
  execute mostrador_metrics_sql(tg_table_name, one, -1) using old;
  execute mostrador_metrics_sql(tg_table_name, one, 1) using new;
  return null;
end $$;--> statement-breakpoint

-- A chat about to be deleted takes its messages and analysis out of the rollups while its platform
-- is still known (the cascade that deletes them then finds no chat and skips them).
CREATE OR REPLACE FUNCTION mostrador_metrics_chat_del() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  perform mostrador_metrics_ensure(array[old.company_id]);
  execute mostrador_metrics_sql('chat_messages', format('(select * from chat_messages where company_id = %L and chat_id = %L)', old.company_id, old.id), -1);
  execute mostrador_metrics_sql('chat_analyses', format('(select * from chat_analyses where chat_id = %L)', old.id), -1);
  delete from metrics_chat_months where company_id = old.company_id and chat_id = old.id and inbound = 0 and outbound = 0;
  return old;
end $$;--> statement-breakpoint

CREATE TRIGGER "metrics_chat_messages_ins" AFTER INSERT ON "chat_messages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chat_messages_del" AFTER DELETE ON "chat_messages" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chat_messages_upd" AFTER UPDATE ON "chat_messages" FOR EACH ROW
  WHEN ((old.status = 'failed') IS DISTINCT FROM (new.status = 'failed') OR old.sent_at IS DISTINCT FROM new.sent_at OR old.direction IS DISTINCT FROM new.direction
        OR old.sent_by IS DISTINCT FROM new.sent_by OR old.chat_id IS DISTINCT FROM new.chat_id OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_row_upd();--> statement-breakpoint

CREATE TRIGGER "metrics_chat_analyses_ins" AFTER INSERT ON "chat_analyses" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chat_analyses_del" AFTER DELETE ON "chat_analyses" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chat_analyses_upd" AFTER UPDATE ON "chat_analyses" FOR EACH ROW
  WHEN (old.sentiment IS DISTINCT FROM new.sentiment OR old.motive IS DISTINCT FROM new.motive OR old.dissatisfaction_origin IS DISTINCT FROM new.dissatisfaction_origin
        OR old.category IS DISTINCT FROM new.category OR old.quality IS DISTINCT FROM new.quality OR old.cross_sell_offered IS DISTINCT FROM new.cross_sell_offered
        OR old.cross_sell_taken IS DISTINCT FROM new.cross_sell_taken OR old.personalised_promotion IS DISTINCT FROM new.personalised_promotion
        OR coalesce(old.last_message_at, old.analyzed_at) IS DISTINCT FROM coalesce(new.last_message_at, new.analyzed_at)
        OR old.chat_id IS DISTINCT FROM new.chat_id OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_row_upd();--> statement-breakpoint

CREATE TRIGGER "metrics_orders_ins" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_orders_del" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_orders_upd" AFTER UPDATE ON "orders" FOR EACH ROW
  WHEN (old.status IS DISTINCT FROM new.status OR old.currency IS DISTINCT FROM new.currency OR old.source IS DISTINCT FROM new.source
        OR old.total IS DISTINCT FROM new.total OR old.created_at IS DISTINCT FROM new.created_at OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_row_upd();--> statement-breakpoint

CREATE TRIGGER "metrics_chats_ins" AFTER INSERT ON "chats" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chats_del" AFTER DELETE ON "chats" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chats_before_del" BEFORE DELETE ON "chats" FOR EACH ROW EXECUTE FUNCTION mostrador_metrics_chat_del();--> statement-breakpoint
CREATE TRIGGER "metrics_chats_upd" AFTER UPDATE ON "chats" FOR EACH ROW
  WHEN (old.platform IS DISTINCT FROM new.platform OR old.created_at IS DISTINCT FROM new.created_at OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_row_upd();--> statement-breakpoint

CREATE TRIGGER "metrics_leads_ins" AFTER INSERT ON "leads" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_leads_del" AFTER DELETE ON "leads" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_leads_upd" AFTER UPDATE ON "leads" FOR EACH ROW
  WHEN (old.platform IS DISTINCT FROM new.platform OR old.agente_id IS DISTINCT FROM new.agente_id OR old.created_at IS DISTINCT FROM new.created_at OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_row_upd();--> statement-breakpoint

CREATE TRIGGER "metrics_clean_leads_ins" AFTER INSERT ON "clean_leads" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_clean_leads_del" AFTER DELETE ON "clean_leads" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_clean_leads_upd" AFTER UPDATE ON "clean_leads" FOR EACH ROW
  WHEN (old.agente_id IS DISTINCT FROM new.agente_id OR old.created_at IS DISTINCT FROM new.created_at OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_row_upd();--> statement-breakpoint

CREATE TRIGGER "metrics_memberships_ins" AFTER INSERT ON "memberships" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_memberships_del" AFTER DELETE ON "memberships" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_memberships_upd" AFTER UPDATE ON "memberships" FOR EACH ROW
  WHEN (old.created_at IS DISTINCT FROM new.created_at OR old.company_id IS DISTINCT FROM new.company_id)
  EXECUTE FUNCTION mostrador_metrics_row_upd();--> statement-breakpoint

-- From scratch, for one company, in its zone `tz`: the exclusive lock on its metrics_companies row
-- (held until commit) makes writers of the company wait, then add on top of what was rebuilt.
CREATE OR REPLACE FUNCTION mostrador_metrics_rebuild(company uuid, tz text) RETURNS void LANGUAGE plpgsql AS $$
declare
  tbl text;
begin
  insert into metrics_companies (company_id, timezone, rebuilt_at) values (company, tz, now())
  on conflict (company_id) do update set timezone = excluded.timezone, rebuilt_at = excluded.rebuilt_at;
  delete from metrics_messages_daily where company_id = company;
  delete from metrics_chat_months where company_id = company;
  delete from metrics_entities_daily where company_id = company;
  delete from metrics_analyses_daily where company_id = company;
  delete from metrics_sales_daily where company_id = company;
  foreach tbl in array array['chat_messages', 'chat_analyses', 'orders', 'chats', 'leads', 'clean_leads', 'memberships'] loop
    execute mostrador_metrics_sql(tbl, format('(select * from %I where company_id = %L)', tbl, company), 1);
  end loop;
end $$;--> statement-breakpoint

-- what happened before this migration
SELECT mostrador_metrics_rebuild(id, mostrador_metrics_default_tz(id)) FROM companies;
