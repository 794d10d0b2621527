import type { DomainEvent } from '@mostrador/contract';
import type { Database } from '../../db/database.js';

/** The JSON a delivery POSTs for an event: what integrators read (contract webhook-subscriptions.ts). */
export function bodyOf(e: DomainEvent): string {
  return JSON.stringify({ id: e.id, type: e.type, createdAt: e.occurredAt, companyId: e.companyId, data: e.payload });
}

/**
 * The spine's `webhooks.fanout` (decision 0073): a delivery per event and active subscription of
 * its company listening to its type, in one statement; an event handed again (a redelivery, a
 * replay) adds nothing (unique subscription + event). Companies without subscriptions cost one
 * index probe per round. Answers how many deliveries it added.
 */
export async function fanOut(database: Pick<Database, 'pool'>, events: DomainEvent[]): Promise<number> {
  if (!events.length) return 0;
  const companies = [...new Set(events.map((e) => e.companyId))];
  const { rows: listening } = await database.pool.query<{ company_id: string }>(
    `select distinct company_id from webhook_subscriptions where status = 'active' and company_id = any($1::uuid[])`,
    [companies],
  );
  if (!listening.length) return 0;
  const some = new Set(listening.map((r) => r.company_id));
  const rows = events
    .filter((e) => some.has(e.companyId))
    .map((e) => ({ c: e.companyId, i: e.id, p: e.position, t: e.type, k: `${e.aggregate.type}:${e.aggregate.id}`, b: bodyOf(e) }));
  const { rowCount } = await database.pool.query(
    `insert into webhook_deliveries (subscription_id, company_id, event_id, event_position, event_type, aggregate_key, body)
     select s.id, e.c, e.i, e.p, e.t, e.k, e.b
       from jsonb_to_recordset($1::jsonb) as e(c uuid, i uuid, p bigint, t text, k text, b text)
       join webhook_subscriptions s on s.company_id = e.c and s.status = 'active' and s.events ? e.t
      order by e.p
     on conflict (subscription_id, event_id) do nothing`,
    [JSON.stringify(rows)],
  );
  return rowCount ?? 0;
}
