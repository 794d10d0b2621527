import { sql } from 'drizzle-orm';
import { boolean, check, date, doublePrecision, index, numeric, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * Order attribution and its funnel (issue 31, decisions 0096 and 0097). Written by the spine
 * listener `attribution` (spine/listeners.ts) from the events of orders and messages, and by the
 * re-attribution job when the company changes its settings; read by GET /api/metrics/attribution.
 */

/** The company's attribution settings (absent: 7 days, last touch). */
export const attributionSettings = pgTable(
  'attribution_settings',
  {
    companyId: uuid('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    windowDays: smallint('window_days').notNull().default(7),
    model: text('model').notNull().default('last'),
    /** When the company's orders and conversations were last attributed again under these settings (behind `updatedAt`: the job is running). */
    reattributedAt: timestamp('reattributed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('attribution_settings_window_range', sql`${t.windowDays} between 1 and 90`), check('attribution_settings_model', sql`${t.model} in ('last', 'first')`)],
);

/**
 * One row per conversation (chat) the customer started: when they first wrote, when a person of
 * the team first answered, and what brought them (the ad or send touch before the start, within
 * the window, by the company's model; else organic), with the chat's agent.
 */
export const conversationAttributions = pgTable(
  'conversation_attributions',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id').notNull(),
    leadId: uuid('lead_id'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    touch: text('touch').notNull(),
    adId: text('ad_id'),
    ctwaClid: text('ctwa_clid'),
    sendId: uuid('send_id'),
    agenteId: uuid('agente_id'),
    touchedAt: timestamp('touched_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.chatId] }),
    index('conversation_attributions_started_idx').on(t.companyId, t.startedAt),
    check('conversation_attributions_touch', sql`${t.touch} in ('ad', 'send', 'organic')`),
  ],
);

/**
 * One row per order: the conversation before it (null: none in the window), the touch it is
 * attributed to, its agent, and what the funnel sums (status, total, currency, when it was paid).
 * `eventId`: the last event applied (a replay of it writes the same row).
 */
export const orderAttributions = pgTable(
  'order_attributions',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id').notNull(),
    chatId: uuid('chat_id'),
    leadId: uuid('lead_id'),
    orderedAt: timestamp('ordered_at', { withTimezone: true }).notNull(),
    conversationStartedAt: timestamp('conversation_started_at', { withTimezone: true }),
    touch: text('touch').notNull(),
    adId: text('ad_id'),
    ctwaClid: text('ctwa_clid'),
    sendId: uuid('send_id'),
    agenteId: uuid('agente_id'),
    touchedAt: timestamp('touched_at', { withTimezone: true }),
    model: text('model').notNull(),
    windowDays: smallint('window_days').notNull(),
    status: text('status').notNull(),
    total: doublePrecision('total').notNull(),
    currency: text('currency').notNull(),
    paid: boolean('paid').notNull().default(false),
    eventId: uuid('event_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.orderId] }),
    index('order_attributions_ordered_idx').on(t.companyId, t.orderedAt),
    check('order_attributions_touch', sql`${t.touch} in ('ad', 'send', 'organic')`),
  ],
);

/**
 * Meta ads spend per ad and day (the insights sync reads them per ad and keeps their sum per
 * campaign in ad_spend_daily; this keeps the ads' own, same window replaced), so the funnel by
 * ad has its cost.
 */
export const adSpendAdsDaily = pgTable(
  'ad_spend_ads_daily',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    adId: text('ad_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    currency: text('currency').notNull(),
    spend: numeric('spend').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.adId] })],
);
