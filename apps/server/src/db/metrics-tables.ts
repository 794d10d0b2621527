import { bigint, date, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * Metrics rollups (issue 14, decision 0045): what the 19 metric calls read, never the raw rows.
 * Kept in step with their sources by triggers (migration 0022_metrics_rollups: one grouped
 * upsert per statement on inserts and deletes, a row trigger on the rare updates that move a
 * count) and rebuilt from scratch by `npm run metrics:rebuild`. A "day" is the company's local
 * day in `metrics_companies.timezone`, the zone the rollups were written in; when the company's
 * zone changes, its rollups are rebuilt (the metric calls do it on their first read).
 * Counts may reach 0 and stay as rows until a rebuild; readers sum, so that is harmless.
 */

/** The zone each company's rollups are in, and when they were last rebuilt. */
export const metricsCompanies = pgTable('metrics_companies', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  timezone: text('timezone').notNull(),
  rebuiltAt: timestamp('rebuilt_at', { withTimezone: true }),
});

/** No user (inbound messages, a message whose sender is unknown) / no agent: the nil uuid, so the key has no nulls. */
export const NO_ONE = '00000000-0000-0000-0000-000000000000';

/** Chat messages (failed sends excluded) per local day (of sent_at) × the chat's platform × direction × the user who sent it. */
export const metricsMessagesDaily = pgTable(
  'metrics_messages_daily',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    channel: text('channel').notNull(),
    direction: text('direction').notNull(),
    userId: uuid('user_id').notNull(),
    messages: integer('messages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.channel, t.direction, t.userId] })],
);

/** Per chat and local month: its inbound and outbound messages (chats coverage: distinct chats per month). */
export const metricsChatMonths = pgTable(
  'metrics_chat_months',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    chatId: uuid('chat_id').notNull(),
    channel: text('channel').notNull(),
    inbound: integer('inbound').notNull(),
    outbound: integer('outbound').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month, t.chatId] })],
);

/**
 * Records created per local day: kind chat (channel = platform), lead (channel = platform,
 * agent = agente_id), clean_lead (agent = agente_id), user (a membership of the company).
 * channel '' and agent NO_ONE when the record has none.
 */
export const metricsEntitiesDaily = pgTable(
  'metrics_entities_daily',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
    agenteId: uuid('agente_id').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.kind, t.channel, t.agenteId] })],
);

/**
 * Chat analyses per local day of the conversation (its last analysed message, else the analysis)
 * × the chat's platform × dimension:label — total:all, sentiment:<s>, motive:<m>, origin:<o>,
 * category:<c>, quality:<1–5>, cross_sell_offered:yes, cross_sell_taken:yes, promotion:yes.
 */
export const metricsAnalysesDaily = pgTable(
  'metrics_analyses_daily',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    channel: text('channel').notNull(),
    dimension: text('dimension').notNull(),
    label: text('label').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.channel, t.dimension, t.label] })],
);

/** Orders per local day (of created_at) × status × currency × source: how many and their totals (exact numeric sums). */
export const metricsSalesDaily = pgTable(
  'metrics_sales_daily',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    status: text('status').notNull(),
    currency: text('currency').notNull(),
    source: text('source').notNull(),
    orders: integer('orders').notNull(),
    amount: numeric('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.status, t.currency, t.source] })],
);

/**
 * Meta ads spend per day (the ad account's day) and campaign, as the Marketing API's insights
 * give it: the insights sync writes it (decision 0047, modules/meta-ads/), meta_ad_spend reads it.
 */
export const adSpendDaily = pgTable(
  'ad_spend_daily',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    campaignId: text('campaign_id').notNull(),
    campaignName: text('campaign_name').notNull(),
    currency: text('currency').notNull(),
    spend: numeric('spend').notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull(),
    clicks: bigint('clicks', { mode: 'number' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.campaignId] })],
);

/**
 * Chats coverage per month × channel: active chats (inbound > 0 that month) and answered ones
 * (inbound > 0 and outbound > 0), kept from metrics_chat_months' changes so a call reads one row
 * per month and channel instead of one per chat (migration 0026).
 */
export const metricsCoverageMonthly = pgTable(
  'metrics_coverage_monthly',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    channel: text('channel').notNull(),
    active: integer('active').notNull(),
    answered: integer('answered').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month, t.channel] })],
);

/** metrics_analyses_daily summed by month (kept from its changes, migration 0026): the whole months of a window read these. */
export const metricsAnalysesMonthly = pgTable(
  'metrics_analyses_monthly',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    channel: text('channel').notNull(),
    dimension: text('dimension').notNull(),
    label: text('label').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month, t.channel, t.dimension, t.label] })],
);

/**
 * Ad attribution (decision 0047), per lead: the lead's first referral (lead_referrals, earliest
 * created_at, then id) when it names an ad (`referral.sourceId`, else `adId`), its local day, and
 * the lead's chats and orders that were not cancelled — what this lead adds to metrics_ads_daily.
 * Kept by triggers on lead_referrals, chats and orders (migration 0032); leads whose first referral
 * names no ad have no row.
 */
export const metricsAdLeads = pgTable(
  'metrics_ad_leads',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').notNull(),
    referralId: uuid('referral_id').notNull(),
    referredAt: timestamp('referred_at', { withTimezone: true }).notNull(),
    day: date('day').notNull(),
    adId: text('ad_id').notNull(),
    chats: integer('chats').notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.leadId] })],
);

/**
 * What each ad brought, per local day of its leads' first referral: the leads, their chats and
 * their orders that were not cancelled (sums of metrics_ad_leads). The ad's campaign is not kept
 * here: meta_ad_spend joins meta_ads (which the insights sync rewrites) when it reads.
 */
export const metricsAdsDaily = pgTable(
  'metrics_ads_daily',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    adId: text('ad_id').notNull(),
    leads: integer('leads').notNull(),
    chats: integer('chats').notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.adId] })],
);

/** metrics_ads_daily by month (written with it): the whole months of a window read these. */
export const metricsAdsMonthly = pgTable(
  'metrics_ads_monthly',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    adId: text('ad_id').notNull(),
    leads: integer('leads').notNull(),
    chats: integer('chats').notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month, t.adId] })],
);
