import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/** Telegram (issue 13, decision 0040). Every key and index leads with company_id (ARCHITECTURE §3, §10). */

/** A company's bot: the token sealed with the app key (lib/secret-box.ts), never answered; who it is (getMe). */
export const telegramSettings = pgTable('telegram_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  token: text('token').notNull(),
  tokenHint: text('token_hint').notNull(),
  botUsername: text('bot_username'),
  botName: text('bot_name'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One execution of a routine: by hand (scheduled_for null) or for a scheduled minute. The unique
 * (company, routine, scheduled minute) row is claimed before anything is sent, so a minute runs once
 * however many workers, replays or restarts. `results`: the outcome per group.
 */
export const telegramExecutions = pgTable(
  'telegram_executions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    routineId: uuid('routine_id').notNull(),
    trigger: text('trigger').notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    status: text('status').notNull().default('running'),
    results: jsonb('results').notNull().default([]),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('telegram_executions_minute').on(t.companyId, t.routineId, t.scheduledFor),
    index('telegram_executions_routine').on(t.companyId, t.routineId, t.startedAt),
  ],
);
