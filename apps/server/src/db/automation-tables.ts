import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { equiposDeVentasTable } from './resource-tables.js';
import { companies, users } from './schema.js';

/**
 * Automation rules (issue 29, decision 0077): when an event of the spine, if its conditions, then
 * its actions. `trigger`, `conditions` and `actions` are the contract's automationRuleIn
 * (packages/contract/src/automation.ts), checked on the way in. `position` orders a company's rules
 * (they run in that order for one event).
 */
export const automationRules = pgTable(
  'automation_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    position: integer('position').notNull(),
    /** The spine's event type it starts from (trigger.event), a column so a round's rules are one index probe. */
    triggerEvent: text('trigger_event').notNull(),
    /** A timer rule's timer (trigger_event 'timer'): {kind, minutes, status?} — contract automationTrigger. */
    timer: jsonb('timer'),
    match: text('match').notNull().default('all'),
    conditions: jsonb('conditions').notNull().default([]),
    actions: jsonb('actions').notNull(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('automation_rules_company_trigger_idx').on(t.companyId, t.triggerEvent, t.position), index('automation_rules_company_position_idx').on(t.companyId, t.position)],
);

/**
 * A rule's run for one event: written when its conditions held (or it was cut), once per rule and
 * event (unique), with each condition as evaluated and each action's result. `messages`: how many
 * it sent, for the per-chat hourly limit; `depth`: how many rules in a row led here.
 */
export const automationRuns = pgTable(
  'automation_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => automationRules.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id'),
    eventType: text('event_type').notNull(),
    chatId: uuid('chat_id'),
    status: text('status').notNull(),
    depth: smallint('depth').notNull().default(1),
    conditions: jsonb('conditions').notNull().default([]),
    actions: jsonb('actions').notNull().default([]),
    messages: smallint('messages').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('automation_runs_rule_event_uq').on(t.ruleId, t.eventId),
    index('automation_runs_rule_created_idx').on(t.ruleId, t.createdAt.desc()),
    index('automation_runs_company_chat_created_idx').on(t.companyId, t.chatId, t.createdAt),
  ],
);

/**
 * A timer rule's pending timer for one chat or order (`subject`: chat:<id> or order:<id>): set,
 * moved and cancelled by the spine's events (modules/automation/timers.ts), fired by the
 * `automation.timers` job within a minute of `due_at`. `claimed_at` is a lease: a process killed
 * mid-fire leaves it to be taken again, and the run (unique per rule and timer firing) makes the
 * firing happen once.
 */
export const automationTimers = pgTable(
  'automation_timers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => automationRules.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    chatId: uuid('chat_id'),
    orderId: uuid('order_id'),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** A «Esperar y luego seguir» (subject run:<id>:<i>): the run it holds, and the action it goes on from. */
    runId: uuid('run_id').references(() => automationRuns.id, { onDelete: 'cascade' }),
    resumeAt: smallint('resume_at'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('automation_timers_rule_subject_uq').on(t.ruleId, t.subject), index('automation_timers_due_idx').on(t.dueAt)],
);

/**
 * A company's business hours (decision 0078): its zone, weekly schedule ({mon: [{start, end}], …},
 * contract businessHoursIn), holidays ([{date, name}]) and away message. One row per company
 * (team_id null) and, optionally, one per sales team with hours of its own (decision 0081).
 */
export const businessHours = pgTable(
  'business_hours',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** A sales team's own hours (equipos_de_ventas.id); null: the company's. */
    teamId: uuid('team_id').references(() => equiposDeVentasTable.id, { onDelete: 'cascade' }),
    zone: text('zone').notNull(),
    schedule: jsonb('schedule').notNull(),
    holidays: jsonb('holidays').notNull().default([]),
    awayEnabled: boolean('away_enabled').notNull().default(false),
    awayText: text('away_text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('business_hours_company_uq').on(t.companyId).where(sql`team_id is null`),
    uniqueIndex('business_hours_company_team_uq').on(t.companyId, t.teamId).where(sql`team_id is not null`),
  ],
);

/**
 * The away messages sent: one per chat and closed period (its start, openingPeriodOf), inserted
 * before the send, so a customer writing three times at night gets one, and an event handed again gets none.
 */
export const awayMessages = pgTable(
  'away_messages',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    messageId: uuid('message_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('away_messages_chat_period_idx').on(t.chatId, t.periodStart), index('away_messages_company_idx').on(t.companyId, t.createdAt)],
);

/**
 * A company's automation settings (decision 0080): how many messages its rules may send in one
 * chat in an hour (1–100; no row: the contract's AUTOMATION_MESSAGES_PER_CHAT_HOUR, 10). One row
 * per company; the engine reads it in the statement that counts the hour's messages.
 */
export const automationSettings = pgTable(
  'automation_settings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .unique()
      .references(() => companies.id, { onDelete: 'cascade' }),
    messagesPerChatHour: smallint('messages_per_chat_hour').notNull().default(10),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('automation_settings_messages_per_chat_hour_range', sql`${t.messagesPerChatHour} between 1 and 100`)],
);
