import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { woocommercesTable } from './resource-tables.js';
import { companies } from './schema.js';

/**
 * What links a store's item to our record (issue 12, decision 0034): the store's id of a
 * product, variation, category, tag, attribute, order or customer, the record it is here, and
 * the hash of the item as both sides last agreed on it. A pull that sees the same hash writes
 * nothing; a push sends only records whose hash here differs from it — a second sync of
 * unchanged data changes nothing and sends no writes.
 */
export const woocommerceLinks = pgTable(
  'woocommerce_links',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    storeId: uuid('store_id')
      .notNull()
      .references(() => woocommercesTable.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    remoteId: integer('remote_id').notNull(),
    recordId: uuid('record_id').notNull(),
    hash: text('hash').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.kind, t.remoteId] }), index('woocommerce_links_record_idx').on(t.companyId, t.kind, t.recordId)],
);

/**
 * Store sync jobs: progress, counts and per-item errors, and the cursor a resumed job starts
 * from (the phase and page after the last committed one), so a crash redoes no finished page.
 */
export const ecommerceSyncRuns = pgTable(
  'ecommerce_sync_runs',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    storeId: uuid('store_id')
      .notNull()
      .references(() => woocommercesTable.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('queued'),
    params: jsonb('params').notNull().default({}),
    cursor: jsonb('cursor').notNull().default({}),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    storeWrites: integer('store_writes').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    failedItems: integer('failed_items').notNull().default(0),
    errors: jsonb('errors').notNull().default([]),
    message: text('message'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ecommerce_sync_runs_company_created_idx').on(t.companyId, t.createdAt), index('ecommerce_sync_runs_status_idx').on(t.status)],
);

/**
 * WooCommerce webhook deliveries, kept once per (store, X-WC-Webhook-Delivery-ID) and once per
 * (store, SHA-256 of the signed body) — a repeated delivery, or a captured body replayed under
 * another delivery id, inserts nothing — and processed by the queue (status pending → processed |
 * failed). `webhookId` is X-WC-Webhook-ID: the topic processed is that webhook's as the store's API
 * says, never the unsigned X-WC-Webhook-Topic kept in `topic` until then (decision 0061).
 */
export const woocommerceWebhookEvents = pgTable(
  'woocommerce_webhook_events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    storeId: uuid('store_id')
      .notNull()
      .references(() => woocommercesTable.id, { onDelete: 'cascade' }),
    deliveryId: text('delivery_id').notNull(),
    webhookId: bigint('webhook_id', { mode: 'number' }),
    bodyHash: text('body_hash'),
    topic: text('topic').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('woocommerce_webhook_events_delivery_uq').on(t.storeId, t.deliveryId),
    uniqueIndex('woocommerce_webhook_events_body_uq').on(t.storeId, t.bodyHash),
    index('woocommerce_webhook_events_status_idx').on(t.status),
  ],
);
