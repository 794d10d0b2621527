-- Decision 0045 amended: a rebuild deadlocked with a fold running beside it (seen in bench/metrics.ts:
-- the rebuild's upsert of metrics_companies, then its own fold waiting for the advisory lock; the
-- minute's fold holding that lock, then waiting to share-lock the metrics_companies row). The rebuild
-- now takes the fold's advisory lock before anything else, so both take the two locks in one order.
--
-- The lock by its name (the key mostrador_metrics_fold takes since 0042), for whatever else must take
-- it before the company's metrics_companies row (modules/metrics/rollups.ts: the zone's rebuild job).
CREATE OR REPLACE FUNCTION mostrador_metrics_lock(company uuid) RETURNS void LANGUAGE sql AS $$
  select pg_advisory_xact_lock(727100, hashtext(company::text))
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION mostrador_metrics_rebuild(company uuid, tz text) RETURNS void LANGUAGE plpgsql AS $$
declare
  tbl text;
begin
  -- the fold's lock first, as every fold takes it: a fold running now (the minute's job, a metric
  -- call) finishes before the rebuild touches anything, and none starts until the rebuild commits
  perform mostrador_metrics_lock(company);
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
