import { sql } from 'drizzle-orm';
import { index, pgTable, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { chatMessages } from './join-tables.js';
import { botsTable, chatsTable } from './resource-tables.js';
import { companies } from './schema.js';

/**
 * A bot's connection as its last «Probar conexión» or its last answer found it (decision 0053):
 * ok with the intent matched, or failed with the Spanish reason.
 */
export const botConnections = pgTable('bot_connections', {
  botId: uuid('bot_id')
    .primaryKey()
    .references(() => botsTable.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** ok or failed. */
  state: text('state').notNull(),
  message: text('message'),
  testedAt: timestamp('tested_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Who has a chat when a bot is on for its platform: the bot answering it, or handed over to a
 * person (then the bot never answers it again). A chat without a row has not met a bot.
 */
export const botChats = pgTable(
  'bot_chats',
  {
    chatId: uuid('chat_id')
      .primaryKey()
      .references(() => chatsTable.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id').references(() => botsTable.id, { onDelete: 'set null' }),
    /** answering or handed_over. */
    state: text('state').notNull(),
    reason: text('reason'),
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('bot_chats_company_idx').on(t.companyId, t.botId, t.state)],
);

/**
 * One inbound message a bot took: unique per message, so a replayed webhook or a retried job
 * never answers twice. Its id is the id of the answer sent in the chat (the chat service's
 * idempotent send). Outcome: pending, answered, handed_over, failed (with the reason).
 */
export const botReplies = pgTable(
  'bot_replies',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => botsTable.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chatsTable.id, { onDelete: 'cascade' }),
    inboundMessageId: uuid('inbound_message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    outcome: text('outcome').notNull().default('pending'),
    intent: text('intent'),
    confidence: real('confidence'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bot_replies_inbound_uq').on(t.inboundMessageId), index('bot_replies_bot_idx').on(t.companyId, t.botId, t.createdAt)],
);
