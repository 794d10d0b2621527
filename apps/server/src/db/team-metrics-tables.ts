import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * How the team answers (issue 31, decision 0094). Written by the spine's `team-metrics` listener
 * (modules/team-metrics/listener.ts) from message.received / message.sent / chat.resolved /
 * chat.reopened, one write statement per round of events; GET /api/metrics/team reads
 * `team_conversations`, never the messages.
 */

/**
 * Where each chat stands: the last event applied (`last_position`: an event heard again is at or
 * before it and changes nothing), its current conversation (started by a customer's message),
 * the customer's oldest message still waiting for a person's answer, and whether the
 * conversation was answered and resolved.
 */
export const teamChatState = pgTable(
  'team_chat_state',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id').notNull(),
    lastPosition: bigint('last_position', { mode: 'number' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    waitingSince: timestamp('waiting_since', { withTimezone: true }),
    answered: boolean('answered').notNull().default(false),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.chatId] })],
);

/**
 * One row per conversation of a chat: from a customer's first message (or the first after a
 * resolution more than REOPEN_DAYS old) to its resolution, reopened meanwhile `reopenings` times.
 * Durations in whole seconds, wall clock and in the company's business hours
 * (`mostrador_business_minutes`, decision 0082), computed once when written. `agent_user`: the
 * person who answered first. `until_at`: when the chat's next conversation started (its orders
 * are that one's).
 */
export const teamConversations = pgTable(
  'team_conversations',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    channel: text('channel').notNull(),
    leadId: uuid('lead_id'),
    agentUser: uuid('agent_user'),
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
    firstWallS: integer('first_wall_s'),
    firstBusinessS: integer('first_business_s'),
    nextResponses: integer('next_responses').notNull().default(0),
    nextWallS: bigint('next_wall_s', { mode: 'number' }).notNull().default(0),
    nextBusinessS: bigint('next_business_s', { mode: 'number' }).notNull().default(0),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionWallS: integer('resolution_wall_s'),
    resolutionBusinessS: integer('resolution_business_s'),
    reopenings: integer('reopenings').notNull().default(0),
    untilAt: timestamp('until_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.chatId, t.startedAt] }),
    // the report: a company's conversations started in a window
    index('team_conversations_company_started_idx').on(t.companyId, t.startedAt),
  ],
);

/**
 * Every wait of a customer for a person's answer: `kind` first (the conversation's first) or
 * next; asked at the customer's oldest unanswered message, answered at the person's message.
 */
export const teamResponses = pgTable(
  'team_responses',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id').notNull(),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    kind: text('kind').notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull(),
    answeredBy: uuid('answered_by').notNull(),
    wallS: integer('wall_s').notNull(),
    businessS: integer('business_s').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.chatId, t.askedAt] })],
);

/** The company's service targets for the team (GET/PUT /api/metrics/team/settings); none saved: the defaults. */
export const teamSlaSettings = pgTable('team_sla_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  firstResponseMinutes: integer('first_response_minutes').notNull().default(5),
  resolutionHours: integer('resolution_hours').notNull().default(24),
  /** 'business' (the company's business hours) or 'wall' (the clock). */
  measure: text('measure').notNull().default('business'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
