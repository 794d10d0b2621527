import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * The company's Conversions API for business messaging (issue 31, decision 0098): off until its
 * owner turns it on; the dataset, the access token (sealed, lib/secret-box.ts; the last four
 * characters shown), which lead status counts as qualified, and whether qualified leads are sent.
 */
export const conversionSettings = pgTable('conversion_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  datasetId: text('dataset_id'),
  accessToken: text('access_token'),
  tokenHint: text('token_hint'),
  qualifiedStatus: text('qualified_status').notNull().default('informado-al-agente'),
  sendQualified: boolean('send_qualified').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One event for Meta per (company, event_id): `event_id` is derived from the order or the lead and
 * the event's name, so an event heard twice or an order paid twice writes one row. status:
 * pending → sent | failed; skipped (organic, older than Meta's 7 days…) with `reason`. `payload` is
 * the event exactly as it goes in `data[]` (hashed customer data only). `expires_at`: 7 days after
 * the click, after which it is not sent nor retried.
 */
export const conversionEvents = pgTable(
  'conversion_events',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().default(sql`gen_random_uuid()`),
    eventId: text('event_id').notNull(),
    eventName: text('event_name').notNull(),
    leadId: uuid('lead_id'),
    orderId: uuid('order_id'),
    channel: text('channel'),
    status: text('status').notNull(),
    reason: text('reason'),
    payload: jsonb('payload'),
    value: numeric('value', { precision: 14, scale: 2 }),
    currency: text('currency'),
    eventTime: timestamp('event_time', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    eventsReceived: integer('events_received'),
    fbtraceId: text('fbtrace_id'),
    errorCode: integer('error_code'),
    errorType: text('error_type'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('conversion_events_company_event_uq').on(t.companyId, t.eventId),
    index('conversion_events_company_created_idx').on(t.companyId, t.createdAt, t.id),
    index('conversion_events_company_due_idx').on(t.companyId, t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);
