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
-- 0042's rebuild is kept as it is, under another name, and the rebuild is now that lock, then it
-- (a later migration that changes the rebuild's work redefines mostrador_metrics_rebuild_work).
ALTER FUNCTION mostrador_metrics_rebuild(uuid, text) RENAME TO mostrador_metrics_rebuild_work;--> statement-breakpoint
CREATE FUNCTION mostrador_metrics_rebuild(company uuid, tz text) RETURNS void LANGUAGE plpgsql AS $$
begin
  -- the fold's lock first, as every fold takes it: a fold running now (the minute's job, a metric
  -- call) finishes before the rebuild touches anything, and none starts until the rebuild commits
  perform mostrador_metrics_lock(company);
  perform mostrador_metrics_rebuild_work(company, tz);
end $$;
