-- Decision 0045: two read-side companions, kept from the rollups' own changes (statement triggers
-- on the rollup tables; an upsert on conflict fires the insert trigger for the rows it inserted and
-- the update trigger for the rows it updated):
-- * metrics_coverage_monthly: active and answered chats per month × channel, so chats coverage reads
--   a row per month and channel, not one per chat (metrics_chat_months has a row per chat-month);
-- * metrics_analyses_monthly: metrics_analyses_daily by month, for the whole months of a window.
-- A company deleted in the same transaction is skipped (joined to companies), as in 0023.
CREATE OR REPLACE FUNCTION mostrador_metrics_coverage_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_op = 'INSERT' then
    insert into metrics_coverage_monthly as t (company_id, month, channel, active, answered)
    select x.company_id, x.month, x.channel, count(*) filter (where x.inbound > 0), count(*) filter (where x.inbound > 0 and x.outbound > 0)
      from new_rows x join companies co on co.id = x.company_id
     group by 1, 2, 3 having count(*) filter (where x.inbound > 0) <> 0 order by 1, 2, 3
    on conflict (company_id, month, channel) do update set active = t.active + excluded.active, answered = t.answered + excluded.answered;
  elsif tg_op = 'UPDATE' then
    insert into metrics_coverage_monthly as t (company_id, month, channel, active, answered)
    select d.company_id, d.month, d.channel, sum(d.a), sum(d.b)
      from (select x.company_id, x.month, x.channel, (x.inbound > 0)::int as a, (x.inbound > 0 and x.outbound > 0)::int as b from new_rows x
            union all
            select x.company_id, x.month, x.channel, -(x.inbound > 0)::int, -(x.inbound > 0 and x.outbound > 0)::int from old_rows x) d
      join companies co on co.id = d.company_id
     group by 1, 2, 3 having sum(d.a) <> 0 or sum(d.b) <> 0 order by 1, 2, 3
    on conflict (company_id, month, channel) do update set active = t.active + excluded.active, answered = t.answered + excluded.answered;
  else
    insert into metrics_coverage_monthly as t (company_id, month, channel, active, answered)
    select x.company_id, x.month, x.channel, -count(*) filter (where x.inbound > 0), -count(*) filter (where x.inbound > 0 and x.outbound > 0)
      from old_rows x join companies co on co.id = x.company_id
     group by 1, 2, 3 having count(*) filter (where x.inbound > 0) <> 0 order by 1, 2, 3
    on conflict (company_id, month, channel) do update set active = t.active + excluded.active, answered = t.answered + excluded.answered;
  end if;
  return null;
end $$;--> statement-breakpoint
CREATE TRIGGER "metrics_chat_months_ins" AFTER INSERT ON "metrics_chat_months" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_coverage_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chat_months_upd" AFTER UPDATE ON "metrics_chat_months" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_coverage_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_chat_months_del" AFTER DELETE ON "metrics_chat_months" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_coverage_stmt();--> statement-breakpoint

CREATE OR REPLACE FUNCTION mostrador_metrics_analyses_month_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  if tg_op = 'INSERT' then
    insert into metrics_analyses_monthly as t (company_id, month, channel, dimension, label, n)
    select x.company_id, date_trunc('month', x.day)::date, x.channel, x.dimension, x.label, sum(x.n)
      from new_rows x join companies co on co.id = x.company_id
     group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (company_id, month, channel, dimension, label) do update set n = t.n + excluded.n;
  elsif tg_op = 'UPDATE' then
    insert into metrics_analyses_monthly as t (company_id, month, channel, dimension, label, n)
    select d.company_id, date_trunc('month', d.day)::date, d.channel, d.dimension, d.label, sum(d.n)
      from (select x.company_id, x.day, x.channel, x.dimension, x.label, x.n from new_rows x
            union all
            select x.company_id, x.day, x.channel, x.dimension, x.label, -x.n from old_rows x) d
      join companies co on co.id = d.company_id
     group by 1, 2, 3, 4, 5 having sum(d.n) <> 0 order by 1, 2, 3, 4, 5
    on conflict (company_id, month, channel, dimension, label) do update set n = t.n + excluded.n;
  else
    insert into metrics_analyses_monthly as t (company_id, month, channel, dimension, label, n)
    select x.company_id, date_trunc('month', x.day)::date, x.channel, x.dimension, x.label, -sum(x.n)
      from old_rows x join companies co on co.id = x.company_id
     group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (company_id, month, channel, dimension, label) do update set n = t.n + excluded.n;
  end if;
  return null;
end $$;--> statement-breakpoint
CREATE TRIGGER "metrics_analyses_daily_ins" AFTER INSERT ON "metrics_analyses_daily" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_analyses_month_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_analyses_daily_upd" AFTER UPDATE ON "metrics_analyses_daily" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_analyses_month_stmt();--> statement-breakpoint
CREATE TRIGGER "metrics_analyses_daily_del" AFTER DELETE ON "metrics_analyses_daily" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mostrador_metrics_analyses_month_stmt();--> statement-breakpoint

-- The rebuild, now with the companions: the rollups' deletes take them to zero through their
-- triggers, their rows are then cleared, and the recomputed rollups' inserts fill them again.
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
  delete from metrics_coverage_monthly where company_id = company;
  delete from metrics_analyses_monthly where company_id = company;
  foreach tbl in array array['chat_messages', 'chat_analyses', 'orders', 'chats', 'leads', 'clean_leads', 'memberships'] loop
    execute mostrador_metrics_sql(tbl, format('(select * from %I where company_id = %L)', tbl, company), 1);
  end loop;
end $$;--> statement-breakpoint

SELECT mostrador_metrics_rebuild(company_id, timezone) FROM metrics_companies;
