import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
