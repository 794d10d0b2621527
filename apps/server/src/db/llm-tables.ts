import { boolean, doublePrecision, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/**
 * The OpenAI-compatible engine and its budget (issue 14, decision 0046). Every key leads with
 * company_id (ARCHITECTURE §3, §10). The ledger itself is the standard resource llm-tracker.
 */

/** A company's AI engine settings: where to call, which model, the sealed key, prices and the monthly budget. */
export const llmSettings = pgTable('llm_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  baseUrl: text('base_url').notNull(),
  model: text('model').notNull(),
  /** Sealed with the app key (lib/secret-box.ts); never answered, only its last 4. */
  apiKey: text('api_key'),
  apiKeyLast4: text('api_key_last4'),
  /** USD per million tokens. */
  inputPriceUsd: doublePrecision('input_price_usd').notNull(),
  outputPriceUsd: doublePrecision('output_price_usd').notNull(),
  monthlyBudgetUsd: doublePrecision('monthly_budget_usd').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A company's paid model spend per month (YYYY-MM in its time zone): `spent_usd` what calls cost,
 * `reserved_usd` the estimates of calls under way. A call reserves its estimate with one
 * conditional update (spent + reserved + estimate ≤ budget), so concurrent workers cannot pass
 * the budget by more than one call's estimate error.
 */
export const llmBudgetMonths = pgTable(
  'llm_budget_months',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    spentUsd: doublePrecision('spent_usd').notNull().default(0),
    reservedUsd: doublePrecision('reserved_usd').notNull().default(0),
    /** Set when a call was refused for the budget: the screen's notice. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month] })],
);
