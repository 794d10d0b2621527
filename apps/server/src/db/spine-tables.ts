import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The event spine's outbox (decision 0068): one row per domain event, written in the transaction
 * of the change that caused it: by the emitters of migration 0051 (row changes that are events,
 * whatever code path made them) or by `emit` (spine/outbox.ts). `position` is the delivery order;
 * `dispatched_at` is set once every listener has taken the event (or parked it as a failure).
 * No foreign key to companies: an insert on the hot path pays no lookup, and retention
 * (spine/retention.ts) drops old rows in short batches.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    position: bigint('position', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    id: uuid('id').notNull().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id').notNull(),
    type: text('type').notNull(),
    version: smallint('version').notNull().default(1),
    aggregateType: text('aggregate_type').notNull(),
    aggregateId: text('aggregate_id').notNull(),
    actor: jsonb('actor').notNull().default(sql`'{"type":"system"}'::jsonb`),
    payload: jsonb('payload').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (t) => [
    // the dispatcher's work: the few undelivered events, in order
    index('domain_events_pending_idx').on(t.position).where(sql`${t.dispatchedAt} is null`),
    index('domain_events_occurred_idx').on(t.occurredAt),
  ],
);

/** What each listener has taken (idempotence by event: a redelivered event is not handed to it again). */
export const domainEventReceipts = pgTable(
  'domain_event_receipts',
  {
    listener: text('listener').notNull(),
    position: bigint('position', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.listener, t.position] })],
);

/**
 * A listener's failed events, kept with their error and retried with a growing wait; the later
 * events of the same aggregate wait behind the first failure (`blocked_by`), so a listener sees
 * an aggregate's events in order. After the last try the failure stays, given up, for an admin.
 */
export const domainEventFailures = pgTable(
  'domain_event_failures',
  {
    listener: text('listener').notNull(),
    position: bigint('position', { mode: 'number' }).notNull(),
    aggregate: text('aggregate').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    blockedBy: bigint('blocked_by', { mode: 'number' }),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    givenUpAt: timestamp('given_up_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listener, t.position] }), index('domain_event_failures_due_idx').on(t.listener, t.nextAt)],
);

/** Which process dispatches now (one at a time, however many workers run): a lease it renews. */
export const spineLeases = pgTable('spine_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});
