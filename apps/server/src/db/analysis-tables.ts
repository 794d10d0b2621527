import { boolean, index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { chatsTable } from './resource-tables.js';
import { companies } from './schema.js';

/**
 * AI analysis of conversations (issue 14): one row per analysed chat, the latest answer of an
 * engine over the chat's messages up to `last_message_at`. The metrics' rollups count these
 * rows. Values are the contract's (analysis.ts): sentiment positive | neutral | negative,
 * motive, dissatisfaction_origin (negative only), ai category, quality 1–5.
 */
export const chatAnalyses = pgTable(
  'chat_analyses',
  {
    chatId: uuid('chat_id')
      .primaryKey()
      .references(() => chatsTable.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    sentiment: text('sentiment').notNull(),
    motive: text('motive').notNull(),
    dissatisfactionOrigin: text('dissatisfaction_origin'),
    crossSellOffered: boolean('cross_sell_offered').notNull().default(false),
    crossSellTaken: boolean('cross_sell_taken').notNull().default(false),
    personalisedPromotion: boolean('personalised_promotion').notNull().default(false),
    quality: smallint('quality').notNull(),
    category: text('category').notNull(),
    /** embedded | openai (the engine that answered). */
    engine: text('engine').notNull(),
    /** How many of the chat's messages it saw, and the time of the last one. */
    messages: integer('messages').notNull(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    /** The chat's chat_windows.last_arrived_at it read (decision 0106): a customer message arrived after it makes the chat dirty. */
    arrivedSeenAt: timestamp('arrived_seen_at', { withTimezone: true }),
    analyzedAt: timestamp('analyzed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_analyses_company_analyzed_idx').on(t.companyId, t.analyzedAt)],
);
