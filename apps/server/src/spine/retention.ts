import type pg from 'pg';

/** Rows one statement of the retention deletes: short statements, so no write waits on a long lock. */
export const PRUNE_BATCH = 5000;

/**
 * Drops the delivered events older than `days` (decision 0068), with their receipts and the
 * failures given up on them, in statements of PRUNE_BATCH rows by position (the oldest first).
 * An event still undelivered, or one a listener is still retrying, is kept whatever its age.
 * Answers how many events were dropped.
 */
export async function pruneEvents(pool: Pick<pg.Pool, 'query'>, days: number, batch = PRUNE_BATCH): Promise<number> {
  let dropped = 0;
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      `with old as (
         select e.position from domain_events e
         where e.occurred_at < now() - make_interval(days => $1) and e.dispatched_at is not null
           and not exists (select 1 from domain_event_failures f where f.position = e.position and f.given_up_at is null)
         order by e.position limit $2),
       gone as (delete from domain_events e using old where e.position = old.position returning e.position),
       receipts as (delete from domain_event_receipts r using gone where r.position = gone.position),
       failures as (delete from domain_event_failures f using gone where f.position = gone.position)
       select count(*)::int as n from gone`,
      [days, batch],
    );
    const n = rows[0]?.n ?? 0;
    dropped += n;
    if (n < batch) return dropped;
  }
}
