import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ordersTable } from './resource-tables.js';
import { companies } from './schema.js';

/**
 * Idempotency of POST /orders/place (decision 0032): one row per (company, Idempotency-Key),
 * inserted in the placement's transaction, so concurrent requests with one key wait for the
 * first and then replay its answer; `request_hash` is the SHA-256 of the canonical payload
 * (the same key with another payload is a 409). `response` is the first answer, sealed (it
 * holds the customer's link).
 */
export const orderRequests = pgTable(
  'order_requests',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => ordersTable.id, { onDelete: 'cascade' }),
    response: text('response').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] })],
);

/**
 * The customer's own link to an order (/ordenes/{token}): only the SHA-256 of the token is
 * kept, so the database alone does not open anyone's order page.
 */
export const orderLinks = pgTable(
  'order_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => ordersTable.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_links_company_order_idx').on(t.companyId, t.orderId)],
);
