import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies, users } from './schema.js';

/**
 * Outbound webhooks (issue 28, decision 0073). A subscription is a company's URL and the spine's
 * event types it listens to; its secret is sealed (lib/secret-box.ts), since every delivery is
 * signed with it.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    description: text('description'),
    secretSealed: text('secret_sealed').notNull(),
    status: text('status').notNull().default('active'),
    pausedReason: text('paused_reason'),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** Since when its deliveries fail without a success in between (null: the last one arrived). */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_subscriptions_company_idx').on(t.companyId, t.createdAt.desc())],
);

/**
 * One event for one subscription: written by the spine's `webhooks.fanout` listener (once per
 * event and subscription, whatever the redeliveries), sent by the `webhooks.deliver` job in the
 * order of the events per subscription and aggregate. `body` is the exact JSON sent every time
 * (what the signature covers, with the attempt's time). A claim older than the lease is taken
 * again: a worker killed mid-send leaves nothing behind (at least once).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventPosition: bigint('event_position', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    aggregateKey: text('aggregate_key').notNull(),
    body: text('body').notNull(),
    /** pending (waiting or retrying), delivered, failed (given up after 3 days). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_uq').on(t.subscriptionId, t.eventId),
    // the claim's scan: the pending ones in the events' order, the first due ones taken (no sort of the backlog)
    index('webhook_deliveries_due_idx')
      .on(t.eventPosition)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_order_idx')
      .on(t.subscriptionId, t.aggregateKey, t.eventPosition)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_list_idx').on(t.subscriptionId, t.createdAt.desc()),
  ],
);

/** Every attempt of a delivery: when, the receiver's status and latency, the error, the start of its answer. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    status: integer('status'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
    excerpt: text('excerpt'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.at)],
);
