import { type LlmFeature, type LlmOutcome, usdTo } from '@mostrador/contract';
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { llmSettings } from '../../db/llm-tables.js';

/**
 * The model-call ledger and the monthly budget (issue 14, decision 0046). Every call to a paid
 * model writes one llm_tracker row (company, feature, model, tokens, cost in USD and in the
 * company's currency, latency, outcome); the budget is a per-company monthly counter
 * (llm_budget_months) a call reserves its estimate on before it is made.
 */

export type LlmSettingsRow = typeof llmSettings.$inferSelect;

export async function llmSettingsOf(db: Db, companyId: string): Promise<LlmSettingsRow | undefined> {
  const [row] = await db.select().from(llmSettings).where(eq(llmSettings.companyId, companyId));
  return row;
}

/** The month (YYYY-MM) of an instant in a time zone. */
export function monthOf(timezone: string, at = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}`;
}

/** The first day (YYYY-MM-DD) of the month after `month`. */
export function nextMonthStart(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/**
 * Reserves a call's estimated cost on the company's month when spent + reserved + estimate stays
 * within the budget: one conditional UPDATE (row-locked on PostgreSQL, so two workers cannot both
 * take the last slot). Refused: the month is marked paused (the screen's notice) and false.
 */
export async function reserveBudget(db: Db, companyId: string, month: string, budgetUsd: number, estimateUsd: number): Promise<boolean> {
  await db.execute(sql`insert into llm_budget_months (company_id, month) values (${companyId}, ${month}) on conflict do nothing`);
  const taken = await rowsOf<{ ok: number }>(
    db,
    sql`update llm_budget_months set reserved_usd = reserved_usd + ${estimateUsd}, paused_at = null
        where company_id = ${companyId} and month = ${month} and spent_usd + reserved_usd + ${estimateUsd} <= ${budgetUsd}
        returning 1 as ok`,
  );
  if (taken.length) return true;
  await db.execute(sql`update llm_budget_months set paused_at = coalesce(paused_at, now()) where company_id = ${companyId} and month = ${month}`);
  return false;
}

/** A reserved call done: its estimate released, what it cost added. */
export async function settleBudget(db: Db, companyId: string, month: string, estimateUsd: number, costUsd: number) {
  await db.execute(sql`insert into llm_budget_months (company_id, month) values (${companyId}, ${month}) on conflict do nothing`);
  await db.execute(
    sql`update llm_budget_months set reserved_usd = greatest(reserved_usd - ${estimateUsd}, 0), spent_usd = spent_usd + ${costUsd}
        where company_id = ${companyId} and month = ${month}`,
  );
}

export interface LedgerRow {
  companyId: string;
  name: string;
  model: string;
  feature: LlmFeature;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** The company's currency (costLocal = costUsd × usdTo[currency]). */
  currency: string;
  latencyMs: number;
  outcome: LlmOutcome;
  error?: string | null;
}

/** Writes one call to the ledger. */
export async function recordCall(db: Db, row: LedgerRow) {
  const costLocal = row.costUsd * (usdTo[row.currency] ?? 1);
  await db.execute(sql`insert into llm_tracker (company_id, name, model, feature, prompt_tokens, completion_tokens, cost_usd, cost_local, currency, latency_ms, outcome, error)
    values (${row.companyId}, ${row.name.slice(0, 200)}, ${row.model.slice(0, 80)}, ${row.feature}, ${row.promptTokens}, ${row.completionTokens}, ${row.costUsd},
      ${costLocal}, ${row.currency}, ${Math.round(row.latencyMs)}, ${row.outcome}, ${row.error ? row.error.slice(0, 500) : null})`);
}
