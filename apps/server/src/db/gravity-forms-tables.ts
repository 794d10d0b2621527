import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { gravityFormsTable } from './resource-tables.js';
import { webhookEvents } from './join-tables.js';
import { companies } from './schema.js';

/**
 * What the product keeps of a Gravity Forms form besides its settings (decision 0050): the
 * webhook secret (sealed; generated here and shown once), the highest entry id a pull has kept
 * (where the next pull resumes), the form's fields as the site last gave them (the mapping
 * editor offers them), and the state of the current or last pull with its counts.
 */
export const gravityFormStates = pgTable('gravity_form_states', {
  formId: uuid('form_id')
    .primaryKey()
    .references(() => gravityFormsTable.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  webhookSecret: text('webhook_secret'),
  webhookSecretHint: text('webhook_secret_hint'),
  webhookSecretAt: timestamp('webhook_secret_at', { withTimezone: true }),
  lastEntryId: integer('last_entry_id').notNull().default(0),
  formTitle: text('form_title'),
  fields: jsonb('fields'),
  fieldsAt: timestamp('fields_at', { withTimezone: true }),
  /** idle, queued, running, done, failed. */
  syncStatus: text('sync_status').notNull().default('idle'),
  syncTotal: integer('sync_total').notNull().default(0),
  syncDone: integer('sync_done').notNull().default(0),
  syncCreated: integer('sync_created').notNull().default(0),
  syncMerged: integer('sync_merged').notNull().default(0),
  syncRejected: integer('sync_rejected').notNull().default(0),
  syncRequests: integer('sync_requests').notNull().default(0),
  syncError: text('sync_error'),
  syncStartedAt: timestamp('sync_started_at', { withTimezone: true }),
  syncFinishedAt: timestamp('sync_finished_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One entry of a form, however it came (webhook or pull): stored once per (form, entry id), and
 * what it became — a new lead, merged into an existing one, or rejected with the reason. The
 * entry itself and its processing attempts are its `webhook_events` row (provider
 * `gravity-forms`), so a bad entry is a dead letter like any provider event.
 */
export const gravityFormEntries = pgTable(
  'gravity_form_entries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    formId: uuid('form_id')
      .notNull()
      .references(() => gravityFormsTable.id, { onDelete: 'cascade' }),
    entryId: integer('entry_id').notNull(),
    eventId: uuid('event_id').references(() => webhookEvents.id, { onDelete: 'set null' }),
    /** webhook or pull: how it first arrived. */
    source: text('source').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    name: text('name'),
    telefono: text('telefono'),
    email: text('email'),
    message: text('message'),
    /** pending, created, merged, rejected. */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    leadId: uuid('lead_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gravity_form_entries_form_entry_uq').on(t.formId, t.entryId),
    index('gravity_form_entries_company_idx').on(t.companyId, t.createdAt),
  ],
);
