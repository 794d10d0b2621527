import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * The company's Meta ad account (issue 14, decision 0047): its id, the access token (sealed;
 * the last four characters shown), what Meta says of it, and how the last insights sync went.
 * The spend itself is `ad_spend_daily` (metrics-tables.ts).
 */
export const metaAdAccounts = pgTable('meta_ad_accounts', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  adAccountId: text('ad_account_id').notNull(),
  accessToken: text('access_token').notNull(),
  tokenHint: text('token_hint').notNull(),
  name: text('name'),
  currency: text('currency'),
  lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
  lastSyncError: text('last_sync_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which campaign each ad belongs to (from the insights at ad level): a lead that arrives from a
 * click-to-WhatsApp or click-to-Messenger ad carries the ad's id (`lead_referrals.referral.sourceId`),
 * and this map attributes it, its chats and its sales to the campaign (decision 0047).
 */
export const metaAds = pgTable(
  'meta_ads',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    adId: text('ad_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    campaignName: text('campaign_name').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.adId] }), index('meta_ads_company_campaign_idx').on(t.companyId, t.campaignId)],
);
