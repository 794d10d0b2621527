import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, numeric, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { leadsTable } from './resource-tables.js';

/**
 * The pipeline board's own tables (issue 31, decision 0099). Both are written by the database
 * itself — the triggers of migration `lead_board` on leads — whatever code path changes a lead
 * (the board, PUT /leads/{id}, the automation rules' raw SQL, reassignment, imports), in that
 * change's own statement: a refused or rolled-back change leaves nothing, a committed one
 * exactly its rows.
 */

/**
 * One row each time a lead enters a column: on creation (`from_*` empty) and on every change of
 * its status or stage. `actor`: who (the transaction's `mostrador.actor`, else the request's
 * caller `mostrador.caller`, else the system). `id` orders the rows of one instant.
 */
export const leadStageHistory = pgTable(
  'lead_stage_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: uuid('company_id').notNull(),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leadsTable.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: jsonb('actor').notNull().default(sql`'{"type":"system"}'::jsonb`),
    fromStatus: text('from_status'),
    fromStageId: uuid('from_stage_id'),
    toStatus: text('to_status').notNull(),
    toStageId: uuid('to_stage_id'),
  },
  (t) => [
    // the funnel reads a company's rows of a period; a lead's rows in order
    index('lead_stage_history_company_at_idx').on(t.companyId, t.at),
    index('lead_stage_history_lead_idx').on(t.companyId, t.leadId, t.at, t.id),
  ],
);

/**
 * Leads per column (status, and stage id or '' for the status's own column), kept by the same
 * triggers: the unfiltered board's counts are one index range however many leads the company
 * has. Sharded by backend like resource_counts (db/counters.ts): concurrent writers do not queue
 * on one row.
 */
export const leadBoardCounts = pgTable(
  'lead_board_counts',
  {
    companyId: uuid('company_id').notNull(),
    status: text('status').notNull(),
    stageKey: text('stage_key').notNull(),
    shard: smallint('shard').notNull().default(0),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.status, t.stageKey, t.shard] })],
);

/**
 * Open orders' value per column and currency (decision 0099, «valor de pedidos abiertos»), kept by
 * triggers on orders (an order entering, leaving or changing its open value) and on leads (a lead
 * moving carries its open orders' value to its new column; a deleted one takes it away): the
 * unfiltered board reads one index range however many leads and orders the company has. Sharded
 * by backend like the counts; numeric, so many small deltas add up exactly.
 */
export const leadBoardValues = pgTable(
  'lead_board_values',
  {
    companyId: uuid('company_id').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    stageKey: text('stage_key').notNull(),
    shard: smallint('shard').notNull().default(0),
    total: numeric('total').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.currency, t.status, t.stageKey, t.shard] })],
);
