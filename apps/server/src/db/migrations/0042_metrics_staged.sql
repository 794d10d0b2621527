-- Decision 0045 amended (issue 14, the burst's lag): writers stage, readers fold.
--
-- Until now every write added to its rollup rows in its own transaction (0023's upserts). The rows of
-- the day are few (a company's messages of today per channel and direction, its new leads of today),
-- so concurrent writers of one company queued on them: each event of a burst of customer messages
-- held the company's row of the day from its insert until its commit, and the webhook queue's lanes
-- mostly waited on one another (bench/README.md: 29 of 42 active backends on Lock:transactionid).
--
-- Now the projections (mostrador_metrics_sql, the static message trigger, the chat-delete trigger)
-- append their grouped rows to a staging table beside each rollup (`<rollup>_pending`, no key, so
-- concurrent writers never wait on each other), and mostrador_metrics_fold(company) moves a
-- company's staged rows into its rollups in one grouped upsert per rollup. The metric calls fold
-- their company before they read (modules/metrics/rollups.ts: nothing staged, five index probes), and
-- a job folds every company each minute, so the staging stays small. What a call reads is therefore
-- exactly what has committed, as before; the property test folds, then compares with a rebuild.
--
-- Folding is exact under concurrency: a company's folds take an advisory lock (one at a time, so two
-- never delete and add the same rows in different orders), delete what they move (a row is moved
-- once: a second fold waits for the first and finds it gone), and share-lock the company's
-- metrics_companies row as writers do, so a rebuild (which locks it exclusively, clears the staging
-- and folds its own recomputation) waits for them and they for it.

CREATE TABLE "metrics_messages_daily_pending" (LIKE "metrics_messages_daily");--> statement-breakpoint
CREATE TABLE "metrics_chat_months_pending" (LIKE "metrics_chat_months", "id" bigint GENERATED ALWAYS AS IDENTITY);--> statement-breakpoint
CREATE TABLE "metrics_entities_daily_pending" (LIKE "metrics_entities_daily");--> statement-breakpoint
CREATE TABLE "metrics_analyses_daily_pending" (LIKE "metrics_analyses_daily");--> statement-breakpoint
CREATE TABLE "metrics_sales_daily_pending" (LIKE "metrics_sales_daily");--> statement-breakpoint
ALTER TABLE "metrics_messages_daily_pending" ADD CONSTRAINT "metrics_messages_daily_pending_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "metrics_chat_months_pending" ADD CONSTRAINT "metrics_chat_months_pending_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "metrics_entities_daily_pending" ADD CONSTRAINT "metrics_entities_daily_pending_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "metrics_analyses_daily_pending" ADD CONSTRAINT "metrics_analyses_daily_pending_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "metrics_sales_daily_pending" ADD CONSTRAINT "metrics_sales_daily_pending_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
CREATE INDEX "metrics_messages_daily_pending_company_idx" ON "metrics_messages_daily_pending" ("company_id");--> statement-breakpoint
CREATE INDEX "metrics_chat_months_pending_company_idx" ON "metrics_chat_months_pending" ("company_id");--> statement-breakpoint
CREATE INDEX "metrics_entities_daily_pending_company_idx" ON "metrics_entities_daily_pending" ("company_id");--> statement-breakpoint
CREATE INDEX "metrics_analyses_daily_pending_company_idx" ON "metrics_analyses_daily_pending" ("company_id");--> statement-breakpoint
CREATE INDEX "metrics_sales_daily_pending_company_idx" ON "metrics_sales_daily_pending" ("company_id");--> statement-breakpoint

-- 0023's projection, staged: the same grouping, appended to the rollup's staging table.
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
      d as (insert into metrics_messages_daily_pending (company_id, day, channel, direction, user_id, messages)
            select company_id, (sent_at at time zone tz)::date, channel, direction, coalesce(sent_by, '00000000-0000-0000-0000-000000000000'), %2$s * count(*)
              from r group by 1, 2, 3, 4, 5)
      insert into metrics_chat_months_pending (company_id, month, chat_id, channel, inbound, outbound)
      select company_id, date_trunc('month', sent_at at time zone tz)::date, chat_id, channel,
             %2$s * count(*) filter (where direction = 'in'), %2$s * count(*) filter (where direction = 'out')
        from r group by 1, 2, 3, 4$f$,
      src, sign, ch, chats_join, base);
  elsif tbl = 'chat_analyses' then
    return format($f$
      insert into metrics_analyses_daily_pending (company_id, day, channel, dimension, label, n)
      select x.company_id, (coalesce(x.last_message_at, x.analyzed_at) at time zone mc.timezone)::date, %3$s, v.dimension, v.label, %2$s * count(*)
        from %1$s x %5$s %4$s
        cross join lateral (values ('total', 'all'), ('sentiment', x.sentiment), ('motive', x.motive), ('origin', x.dissatisfaction_origin),
                                   ('category', x.category), ('quality', x.quality::text),
                                   ('cross_sell_offered', case when x.cross_sell_offered then 'yes' end),
                                   ('cross_sell_taken', case when x.cross_sell_taken then 'yes' end),
                                   ('promotion', case when x.personalised_promotion then 'yes' end)) v(dimension, label)
       where v.label is not null
       group by 1, 2, 3, 4, 5$f$,
      src, sign, ch, chats_join, base);
  elsif tbl = 'orders' then
    return format($f$
      insert into metrics_sales_daily_pending (company_id, day, status, currency, source, orders, amount)
      select x.company_id, (x.created_at at time zone mc.timezone)::date, x.status, x.currency, x.source, %2$s * count(*), %2$s * sum(x.total::numeric)
        from %1$s x %3$s
       group by 1, 2, 3, 4, 5$f$,
      src, sign, base);
  elsif tbl in ('chats', 'leads', 'clean_leads', 'memberships') then
    return format($f$
      insert into metrics_entities_daily_pending (company_id, day, kind, channel, agente_id, n)
      select x.company_id, (x.created_at at time zone mc.timezone)::date, %3$L, %4$s, %5$s, %2$s * count(*)
        from %1$s x %6$s
       group by 1, 2, 3, 4, 5$f$,
      src, sign,
      case tbl when 'chats' then 'chat' when 'leads' then 'lead' when 'clean_leads' then 'clean_lead' else 'user' end,
      case when tbl in ('chats', 'leads') then 'x.platform' else quote_literal('') end,
      case when tbl in ('leads', 'clean_leads') then 'coalesce(x.agente_id, ''00000000-0000-0000-0000-000000000000'')' else '''00000000-0000-0000-0000-000000000000''::uuid' end,
      base);
  end if;
  raise exception 'mostrador_metrics_sql: no rollup for %', tbl;
end $$;--> statement-breakpoint

-- 0024's static message trigger, staged (it mirrors mostrador_metrics_sql('chat_messages', …)).
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
    d as (insert into metrics_messages_daily_pending (company_id, day, channel, direction, user_id, messages)
          select company_id, (sent_at at time zone tz)::date, channel, direction, coalesce(sent_by, '00000000-0000-0000-0000-000000000000'), count(*)
            from r group by 1, 2, 3, 4, 5)
    insert into metrics_chat_months_pending (company_id, month, chat_id, channel, inbound, outbound)
    select company_id, date_trunc('month', sent_at at time zone tz)::date, chat_id, channel,
           count(*) filter (where direction = 'in'), count(*) filter (where direction = 'out')
      from r group by 1, 2, 3, 4;
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
    d as (insert into metrics_messages_daily_pending (company_id, day, channel, direction, user_id, messages)
          select company_id, (sent_at at time zone tz)::date, channel, direction, coalesce(sent_by, '00000000-0000-0000-0000-000000000000'), -count(*)
            from r group by 1, 2, 3, 4, 5)
    insert into metrics_chat_months_pending (company_id, month, chat_id, channel, inbound, outbound)
    select company_id, date_trunc('month', sent_at at time zone tz)::date, chat_id, channel,
           -count(*) filter (where direction = 'in'), -count(*) filter (where direction = 'out')
      from r group by 1, 2, 3, 4;
  end if;
  return null;
end $$;--> statement-breakpoint

-- A chat about to be deleted takes its messages and analysis out while its platform is still known;
-- its chat-month rows, at zero once folded, are deleted by the fold (as a rebuild would not have them).
CREATE OR REPLACE FUNCTION mostrador_metrics_chat_del() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  perform mostrador_metrics_ensure(array[old.company_id]);
  execute mostrador_metrics_sql('chat_messages', format('(select * from chat_messages where company_id = %L and chat_id = %L)', old.company_id, old.id), -1);
  execute mostrador_metrics_sql('chat_analyses', format('(select * from chat_analyses where chat_id = %L)', old.id), -1);
  return old;
end $$;--> statement-breakpoint

-- Moves a company's staged rows into its rollups: one grouped upsert per rollup, in key order. A
-- chat-month takes the channel staged last (a chat that changed platform is taken out under its old
-- channel, then in under its new one) and goes once it counts nothing.
CREATE OR REPLACE FUNCTION mostrador_metrics_fold(company uuid) RETURNS void LANGUAGE plpgsql AS $$
declare
  emptied uuid[];
begin
  if not exists (select 1 from metrics_messages_daily_pending where company_id = company)
     and not exists (select 1 from metrics_chat_months_pending where company_id = company)
     and not exists (select 1 from metrics_entities_daily_pending where company_id = company)
     and not exists (select 1 from metrics_analyses_daily_pending where company_id = company)
     and not exists (select 1 from metrics_sales_daily_pending where company_id = company) then
    return;
  end if;
  perform pg_advisory_xact_lock(727100, hashtext(company::text));
  perform 1 from metrics_companies m where m.company_id = company for share;

  with d as (delete from metrics_messages_daily_pending p where p.company_id = company returning p.*)
  insert into metrics_messages_daily as t (company_id, day, channel, direction, user_id, messages)
  select company_id, day, channel, direction, user_id, sum(messages) from d
   group by 1, 2, 3, 4, 5 having sum(messages) <> 0 order by 1, 2, 3, 4, 5
  on conflict (company_id, day, channel, direction, user_id) do update set messages = t.messages + excluded.messages;

  with d as (delete from metrics_chat_months_pending p where p.company_id = company returning p.*),
  u as (insert into metrics_chat_months as t (company_id, month, chat_id, channel, inbound, outbound)
        select company_id, month, chat_id, (array_agg(channel order by id desc))[1], sum(inbound), sum(outbound) from d
         group by 1, 2, 3 order by 1, 2, 3
        on conflict (company_id, month, chat_id) do update
          set inbound = t.inbound + excluded.inbound, outbound = t.outbound + excluded.outbound, channel = excluded.channel
        returning t.chat_id, t.inbound, t.outbound)
  select array_agg(distinct chat_id) into emptied from u where inbound = 0 and outbound = 0;
  if emptied is not null then
    delete from metrics_chat_months where company_id = company and chat_id = any(emptied) and inbound = 0 and outbound = 0;
  end if;

  with d as (delete from metrics_entities_daily_pending p where p.company_id = company returning p.*)
  insert into metrics_entities_daily as t (company_id, day, kind, channel, agente_id, n)
  select company_id, day, kind, channel, agente_id, sum(n) from d
   group by 1, 2, 3, 4, 5 having sum(n) <> 0 order by 1, 2, 3, 4, 5
  on conflict (company_id, day, kind, channel, agente_id) do update set n = t.n + excluded.n;

  with d as (delete from metrics_analyses_daily_pending p where p.company_id = company returning p.*)
  insert into metrics_analyses_daily as t (company_id, day, channel, dimension, label, n)
  select company_id, day, channel, dimension, label, sum(n) from d
   group by 1, 2, 3, 4, 5 having sum(n) <> 0 order by 1, 2, 3, 4, 5
  on conflict (company_id, day, channel, dimension, label) do update set n = t.n + excluded.n;

  with d as (delete from metrics_sales_daily_pending p where p.company_id = company returning p.*)
  insert into metrics_sales_daily as t (company_id, day, status, currency, source, orders, amount)
  select company_id, day, status, currency, source, sum(orders), sum(amount) from d
   group by 1, 2, 3, 4, 5 having sum(orders) <> 0 or sum(amount) <> 0 order by 1, 2, 3, 4, 5
  on conflict (company_id, day, status, currency, source) do update set orders = t.orders + excluded.orders, amount = t.amount + excluded.amount;
end $$;--> statement-breakpoint

-- 0032's rebuild, through the staging: cleared with the rollups, the recomputation staged, then folded.
CREATE OR REPLACE FUNCTION mostrador_metrics_rebuild(company uuid, tz text) RETURNS void LANGUAGE plpgsql AS $$
declare
  tbl text;
begin
  insert into metrics_companies (company_id, timezone, rebuilt_at) values (company, tz, now())
  on conflict (company_id) do update set timezone = excluded.timezone, rebuilt_at = excluded.rebuilt_at;
  delete from metrics_messages_daily_pending where company_id = company;
  delete from metrics_chat_months_pending where company_id = company;
  delete from metrics_entities_daily_pending where company_id = company;
  delete from metrics_analyses_daily_pending where company_id = company;
  delete from metrics_sales_daily_pending where company_id = company;
  delete from metrics_messages_daily where company_id = company;
  delete from metrics_chat_months where company_id = company;
  delete from metrics_entities_daily where company_id = company;
  delete from metrics_analyses_daily where company_id = company;
  delete from metrics_sales_daily where company_id = company;
  delete from metrics_coverage_monthly where company_id = company;
  delete from metrics_analyses_monthly where company_id = company;
  foreach tbl in array array['chat_messages', 'chat_analyses', 'orders', 'chats', 'leads', 'clean_leads', 'memberships'] loop
    execute mostrador_metrics_sql(tbl, format('(select * from %I where company_id = %L)', tbl, company), 1);
  end loop;
  perform mostrador_metrics_fold(company);
  perform mostrador_metrics_ad_rebuild(company);
end $$;
