import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { chatsTable } from './resource-tables.js';

/**
 * CSAT the customer gives (issue 31, decision 0100). The company's survey settings (one row
 * when it saved them; none = off), and one survey per chat and resolution: the `chat.resolved`
 * event that asked is its key, so the event heard twice finds its row, and a reopened chat
 * resolved again is another event, another survey.
 */
export const csatSettings = pgTable('csat_settings', {
  companyId: uuid('company_id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  style: text('style').notNull().default('buttons'),
  question: text('question').notNull(),
  /** When it was last turned on: a resolution before it (an event handed again) is never asked about. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A survey: claimed `pending` before the send (its message id is named by the survey, so a retried
 * send finds its message), then `sent`, `not_sent` (outside the 24-hour window, no channel: the
 * reason kept) or `failed` (the provider refused: its reason); `answered` with the score 1–5 when
 * the customer taps an option in time. `agent_id`: the agent the resolution is credited to (the
 * user who resolved it, else the lead's agent); `resolved_by`: the event's actor.
 */
export const csatSurveys = pgTable(
  'csat_surveys',
  {
    id: uuid('id').notNull().defaultRandom(),
    companyId: uuid('company_id').notNull(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chatsTable.id, { onDelete: 'cascade' }),
    resolutionEventId: uuid('resolution_event_id').notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }).notNull(),
    resolvedBy: text('resolved_by'),
    agentId: uuid('agent_id'),
    style: text('style').notNull(),
    question: text('question').notNull(),
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    messageId: uuid('message_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    score: smallint('score'),
    answerMessageId: uuid('answer_message_id'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    // one survey per chat and resolution
    uniqueIndex('csat_surveys_resolution_uq').on(t.companyId, t.chatId, t.resolutionEventId),
    // the report reads a company's resolutions of a period; the chat's latest
    index('csat_surveys_company_resolved_idx').on(t.companyId, t.resolvedAt),
    index('csat_surveys_chat_idx').on(t.companyId, t.chatId, t.resolvedAt),
    // the claims a crash left between claim and send: few, found without reading the rest
    index('csat_surveys_pending_idx').on(t.companyId, t.chatId).where(sql`status = 'pending'`),
    check('csat_surveys_score_ck', sql`${t.score} is null or ${t.score} between 1 and 5`),
    check('csat_surveys_status_ck', sql`${t.status} in ('pending', 'sent', 'answered', 'not_sent', 'failed')`),
  ],
);
