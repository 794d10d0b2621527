import { driveFiles } from './drive-tables.js';
import { sql } from 'drizzle-orm';
import { boolean, index, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ordersTable } from './resource-tables.js';
import { companies, users } from './schema.js';

/**
 * Payments of the company's own orders (issue 30, decisions 0083 and 0084). Every key and index
 * leads with company_id (ARCHITECTURE §3, §10: distributable by company).
 */

/** A company's Mercado Pago credentials: the access token and the notifications' secret sealed (lib/secret-box.ts), never answered. */
export const paymentSettings = pgTable(
  'payment_settings',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    accessToken: text('access_token').notNull(),
    webhookSecret: text('webhook_secret').notNull(),
    publicKey: text('public_key'),
    /** The demo's own checkout (integrations/mercadopago/sandbox.ts): no request leaves the server. */
    sandbox: boolean('sandbox').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.provider] })],
);

/**
 * An order's payments: a Checkout Pro link (status 'link', its preference), a Mercado Pago
 * payment as its notifications left it (one row per provider payment id and company: a replay
 * finds it), or a payment proved by hand (provider 'manual', who recorded it, the proof). A
 * payment that did not move the order says why in flagged_reason.
 */
export const orderPayments = pgTable(
  'order_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => ordersTable.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    status: text('status').notNull(),
    amount: numeric('amount', { precision: 14, scale: 2 }),
    currency: text('currency'),
    method: text('method'),
    providerPaymentId: text('provider_payment_id'),
    preferenceId: text('preference_id'),
    url: text('url'),
    flaggedReason: text('flagged_reason'),
    proofMessageId: uuid('proof_message_id'),
    /** Or a file uploaded from the agent's device (Drive, folder «Comprobantes»; decision 0084). */
    proofFileId: text('proof_file_id').references(() => driveFiles.id, { onDelete: 'set null' }),
    note: text('note'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The x-request-id of the last notification that changed this row: the same one again is answered at once. */
    lastRequestId: text('last_request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_payments_order_idx').on(t.companyId, t.orderId, t.createdAt),
    uniqueIndex('order_payments_provider_payment_uq').on(t.companyId, t.provider, t.providerPaymentId).where(sql`provider_payment_id is not null`),
    uniqueIndex('order_payments_preference_uq').on(t.companyId, t.preferenceId).where(sql`preference_id is not null`),
  ],
);
