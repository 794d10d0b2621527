import { currentVersion, type DomainActor, type DomainEventPayload, type DomainEventType, domainEventCatalogue } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';

/**
 * Writing to the spine (decision 0068). Most events are written by the emitters of migration
 * 0051 as the rows that are events change; `emit` is for what no single row says. Both write
 * `domain_events` in the caller's transaction: the event exists exactly when the change does.
 */

export interface NewEvent<T extends DomainEventType = DomainEventType> {
  type: T;
  companyId: string;
  aggregateId: string;
  payload: DomainEventPayload<T>;
  actor?: DomainActor;
}

/** Writes events in the caller's transaction, all in one statement (a batch pays one insert, not one per event). */
export async function emit(tx: Pick<Db, 'execute'>, events: NewEvent[]): Promise<void> {
  if (!events.length) return;
  const rows = events.map((e) => ({
    company_id: e.companyId,
    type: e.type,
    version: currentVersion(e.type),
    aggregate_type: domainEventCatalogue[e.type].aggregate,
    aggregate_id: e.aggregateId,
    actor: e.actor ?? { type: 'system' },
    // checked now: a payload the catalogue refuses is the writer's bug, and fails its transaction
    payload: domainEventCatalogue[e.type].versions[1].parse(e.payload),
  }));
  await tx.execute(sql`insert into domain_events (company_id, type, version, aggregate_type, aggregate_id, actor, payload)
    select company_id, type, version, aggregate_type, aggregate_id, actor, payload
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(company_id uuid, type text, version smallint, aggregate_type text, aggregate_id text, actor jsonb, payload jsonb)`);
}

export { actAs } from '../db/actor.js';

/** Marks every undelivered event as delivered history (the demo's seed: its records' events are not news). */
export async function markHistory(tx: Pick<Db, 'execute'>): Promise<void> {
  await tx.execute(sql`update domain_events set dispatched_at = now() where dispatched_at is null`);
}
