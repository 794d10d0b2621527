import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { channels } from './join-tables.js';
import { companies, users } from './schema.js';
import { productsTable } from './resource-tables.js';

/**
 * The Meta commerce catalogue of a company's WhatsApp line (issue 30, decision 0086): its id,
 * set in the line's settings, and the state of its last «Sincronizar catálogo» run (a job:
 * running with its progress, then done or failed with a Spanish message). One per line.
 */
export const metaCatalogs = pgTable(
  'meta_catalogs',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    catalogId: text('catalog_id').notNull(),
    syncStatus: text('sync_status').notNull().default('idle'),
    syncTotal: integer('sync_total').notNull().default(0),
    syncProcessed: integer('sync_processed').notNull().default(0),
    syncSent: integer('sync_sent').notNull().default(0),
    syncFailed: integer('sync_failed').notNull().default(0),
    syncMessage: text('sync_message'),
    syncStartedAt: timestamp('sync_started_at', { withTimezone: true }),
    syncFinishedAt: timestamp('sync_finished_at', { withTimezone: true }),
    syncBy: uuid('sync_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('meta_catalogs_channel_uq').on(t.channelId), uniqueIndex('meta_catalogs_company_id_uq').on(t.companyId, t.id)],
);

/**
 * One product as a Meta catalogue holds it: the retailer id Meta knows it by (its SKU), the hash
 * of what was last sent (a sync sends only what changed), and Meta's verdict — accepted (a
 * product message may name it) or error with Meta's reason in Spanish.
 */
export const metaCatalogItems = pgTable(
  'meta_catalog_items',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Its catalogue, of the same company (a composite key: an item never names another company's catalogue). */
    metaCatalogId: uuid('meta_catalog_id').notNull(),
    productId: uuid('product_id').references(() => productsTable.id, { onDelete: 'set null' }),
    retailerId: text('retailer_id').notNull(),
    hash: text('hash'),
    status: text('status').notNull(),
    error: text('error'),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'meta_catalog_items_catalog_fk', columns: [t.companyId, t.metaCatalogId], foreignColumns: [metaCatalogs.companyId, metaCatalogs.id] }).onDelete('cascade'),
    uniqueIndex('meta_catalog_items_uq').on(t.metaCatalogId, t.retailerId),
    index('meta_catalog_items_product_idx').on(t.companyId, t.productId),
  ],
);
