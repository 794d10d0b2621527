import { sql } from 'drizzle-orm';
import { doublePrecision, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { marketplaceOrdersTable, marketplaceSourcesTable } from './resource-tables.js';
import { companies } from './schema.js';

/**
 * The marketplaces' own tables (issue 12, decision 0035). Every key and index leads with
 * company_id (ARCHITECTURE §3, §10: distributable by company).
 */

/**
 * What links a marketplace's item to our record: a SKU (kind 'variation', remote id = SellerSku),
 * a parent SKU ('product') or an order ('order', remote id = OrderId), the record it is here, the
 * hash of the item as the marketplace last showed it and, for variations, the price and stock it
 * has there (`remote`). A sync that sees the same hash writes nothing; "pending" means our price
 * or stock differs from `remote`.
 */
export const marketplaceLinks = pgTable(
  'marketplace_links',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => marketplaceSourcesTable.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    remoteId: text('remote_id').notNull(),
    recordId: uuid('record_id').notNull(),
    hash: text('hash').notNull(),
    remote: jsonb('remote'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.sourceId, t.kind, t.remoteId] }), index('marketplace_links_record_idx').on(t.companyId, t.kind, t.recordId)],
);

/** The items of a marketplace order (Seller Center: one per unit, each with its own status and package). */
export const marketplaceOrderItems = pgTable(
  'marketplace_order_items',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().default(sql`gen_random_uuid()`),
    orderId: uuid('order_id')
      .notNull()
      .references(() => marketplaceOrdersTable.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    sellerSku: text('seller_sku').notNull(),
    shopSku: text('shop_sku'),
    name: text('name').notNull(),
    variation: text('variation'),
    status: text('status').notNull(),
    price: doublePrecision('price').notNull(),
    paidPrice: doublePrecision('paid_price').notNull(),
    shippingAmount: doublePrecision('shipping_amount').notNull().default(0),
    currency: text('currency').notNull(),
    packageId: text('package_id'),
    trackingCode: text('tracking_code'),
    shipmentProvider: text('shipment_provider'),
    variationId: uuid('variation_id'),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] }), index('marketplace_order_items_order_idx').on(t.companyId, t.orderId, t.position)],
);

/**
 * Marketplace sync jobs: progress, counts and per-item errors, and the cursor a resumed job starts
 * from (phase, offset, the instant its orders are read from), so a crash redoes no finished page.
 */
export const marketplaceSyncRuns = pgTable(
  'marketplace_sync_runs',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().default(sql`gen_random_uuid()`),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => marketplaceSourcesTable.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('queued'),
    cursor: jsonb('cursor').notNull().default({}),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    failedItems: integer('failed_items').notNull().default(0),
    errors: jsonb('errors').notNull().default([]),
    message: text('message'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('marketplace_sync_runs_created_idx').on(t.companyId, t.createdAt),
    index('marketplace_sync_runs_source_idx').on(t.companyId, t.sourceId, t.status),
  ],
);

/**
 * Bulk updates of prices and stock (/marketplaces/lote): a preview, then, when applied, a job that
 * sends the changed rows; its counts and the rows' outcome (marketplace_bulk_rows).
 */
export const marketplaceBulkRuns = pgTable(
  'marketplace_bulk_runs',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().default(sql`gen_random_uuid()`),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => marketplaceSourcesTable.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('preview'),
    total: integer('total').notNull().default(0),
    changes: integer('changes').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    updates: integer('updates').notNull().default(0),
    message: text('message'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] }), index('marketplace_bulk_runs_created_idx').on(t.companyId, t.createdAt)],
);

/** One row of a bulk update: what it asks, what it changes (old → new) and what became of it. */
export const marketplaceBulkRows = pgTable(
  'marketplace_bulk_rows',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').notNull(),
    row: integer('row').notNull(),
    sku: text('sku').notNull(),
    variationId: uuid('variation_id'),
    name: text('name'),
    oldPrice: doublePrecision('old_price'),
    newPrice: doublePrecision('new_price'),
    oldStock: integer('old_stock'),
    newStock: integer('new_stock'),
    status: text('status').notNull(),
    reason: text('reason'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.runId, t.row] }),
    index('marketplace_bulk_rows_status_idx').on(t.companyId, t.runId, t.status),
    foreignKey({ name: 'marketplace_bulk_rows_run_fk', columns: [t.companyId, t.runId], foreignColumns: [marketplaceBulkRuns.companyId, marketplaceBulkRuns.id] }).onDelete('cascade'),
  ],
);
