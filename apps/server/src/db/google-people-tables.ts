import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { leadsTable, telefonosTable } from './resource-tables.js';
import { companies } from './schema.js';

/**
 * A phone's Google connection besides its sealed `credenciales` (decision 0052): whether the
 * grant holds or must be renewed (and why, in Spanish), the nonce of the consent last asked (the
 * callback's state must carry it, once), and when it was connected.
 */
export const googlePeoplePhones = pgTable('google_people_phones', {
  telefonoId: uuid('telefono_id')
    .primaryKey()
    .references(() => telefonosTable.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** falta-autorizar, conectado, reconectar. */
  status: text('status').notNull().default('falta-autorizar'),
  reason: text('reason'),
  clientIdHint: text('client_id_hint'),
  stateNonce: text('state_nonce'),
  connectedAt: timestamp('connected_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A lead of a phone as a contact of the phone's Google account: Google's `people/c…` once
 * created (a second sync skips it), or why Google refused it (tried again next time).
 */
export const googleContacts = pgTable(
  'google_contacts',
  {
    telefonoId: uuid('telefono_id')
      .notNull()
      .references(() => telefonosTable.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leadsTable.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    resourceName: text('resource_name'),
    problem: text('problem'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.telefonoId, t.leadId] }), index('google_contacts_company_idx').on(t.companyId, t.telefonoId)],
);

/**
 * One «Sincronizar con Google» of a phone: its counts, the lead id it has gone past (a job run
 * again resumes after it), the leads of the batch in flight (sent to Google, not yet recorded:
 * a resumed run finds them among the account's contacts by their external id instead of
 * creating them twice) and a heartbeat so two runs never work the same phone.
 */
export const googleContactSyncs = pgTable(
  'google_contact_syncs',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    telefonoId: uuid('telefono_id')
      .notNull()
      .references(() => telefonosTable.id, { onDelete: 'cascade' }),
    /** en-cola, en-curso, terminada, fallida. */
    status: text('status').notNull().default('en-cola'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    created: integer('created').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    cursor: uuid('cursor'),
    inFlight: jsonb('in_flight'),
    message: text('message'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('google_contact_syncs_phone_idx').on(t.companyId, t.telefonoId, t.createdAt)],
);
