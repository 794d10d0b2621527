import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * The sending engine (issue 13, decision 0041). A send is a campaign's chunk or a massive
 * message; its recipients are the outbox: one row per (campaign or send, person), claimed
 * before the provider is called and settled after, so no one gets the same campaign twice
 * and nothing claimed is lost. Keys and indexes lead with company_id (ARCHITECTURE §3).
 */
export const sends = pgTable(
  'sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    campaignId: uuid('campaign_id'),
    chunkPage: integer('chunk_page'),
    chunkSize: integer('chunk_size'),
    segmentId: uuid('segment_id'),
    name: text('name').notNull(),
    /** scheduled | pending | processing | sent | error | sent_with_some_errors | stopped */
    status: text('status').notNull(),
    /** What goes out: { template: {id, name, language}, bodyFields, headerField? } or { text }. */
    content: jsonb('content').notNull(),
    /** Whether the recipients were written (a scheduled chunk is planned when its time comes). */
    planned: boolean('planned').notNull().default(false),
    stopRequested: boolean('stop_requested').notNull().default(false),
    error: text('error'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sends_company_campaign_chunk_uq').on(t.companyId, t.campaignId, t.chunkPage).where(sql`${t.campaignId} is not null`),
    index('sends_company_created_idx').on(t.companyId, t.createdAt),
    index('sends_active_idx').on(t.status).where(sql`${t.status} in ('pending', 'processing', 'scheduled')`),
  ],
);

export const sendRecipients = pgTable(
  'send_recipients',
  {
    /** Also the id of the chat message it becomes, and WhatsApp's biz_opaque_callback_data. */
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id').notNull(),
    sendId: uuid('send_id')
      .notNull()
      .references(() => sends.id, { onDelete: 'cascade' }),
    /** The campaign id, or the send id of a massive message: one row per (this, person). */
    dedupeKey: uuid('dedupe_key').notNull(),
    position: integer('position').notNull(),
    cleanLeadId: uuid('clean_lead_id').notNull(),
    chatId: uuid('chat_id'),
    name: text('name').notNull(),
    phone: text('phone'),
    /** The values of the template's variables for this person (body, header). */
    values: jsonb('values'),
    /** queued | sending | skipped | sent | failed (delivered/read come from the chat message). */
    status: text('status').notNull(),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    notBefore: timestamp('not_before', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('send_recipients_company_dedupe_lead_uq').on(t.companyId, t.dedupeKey, t.cleanLeadId),
    index('send_recipients_send_status_idx').on(t.sendId, t.status, t.position),
    index('send_recipients_company_lead_sent_idx').on(t.companyId, t.cleanLeadId, t.settledAt).where(sql`${t.status} = 'sent'`),
  ],
);

/**
 * Who is sending for a company's WhatsApp line now: one runner per line, so the line's
 * throughput is paced in one place whatever the number of workers. A lease a crashed runner
 * stops renewing expires, and another takes over.
 */
export const sendingLeases = pgTable('sending_leases', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});
