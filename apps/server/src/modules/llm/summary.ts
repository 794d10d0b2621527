import { type LlmFeature, type LlmSummaryOut, usdTo } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { timezoneOf } from '../leads/summary.js';
import { currencyOf } from '../../db/company-currency.js';
import { llmSettingsOf, monthOf, nextMonthStart } from './ledger.js';

type Sums = {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  costLocal: number;
};
const zero: Sums = { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, costLocal: 0 };

/**
 * GET /llm-tracker/summary (/seguimiento-gpt, decision 0046): the company's ledger in [from, to)
 * totalled per day and month (in its time zone, every day of the window listed) and per feature,
 * and the current month against its budget: whether the paid engine is paused, until when.
 * Default window: the last 30 days up to now. Costs in the company's currency: each row's own
 * (cost_local), else its USD cost at today's reference rate.
 */
export async function llmSummary(db: Db, tenant: Tenant, q: { from?: string; to?: string }): Promise<LlmSummaryOut> {
  const { companyId } = tenant;
  const [timezone, currency, settings] = await Promise.all([timezoneOf(db, companyId), currencyOf(db, companyId), llmSettingsOf(db, companyId)]);
  const rate = usdTo[currency] ?? 1;
  const [window] = await rowsOf<{ from: string; to: string; days: number }>(
    db,
    sql`select to_char(w.f at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "from", to_char(w.t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "to",
          extract(epoch from (w.t - w.f)) / 86400 as days
        from (select coalesce(${q.from ?? null}::timestamptz, (date_trunc('day', now() at time zone ${timezone}) - interval '29 days') at time zone ${timezone}) as f,
                     coalesce(${q.to ?? null}::timestamptz, now()) as t) w`,
  );
  if (!(window.from < window.to)) throw new AppError('VALIDATION', 'La fecha inicial debe ser anterior a la final', [{ path: 'from', msg: 'Debe ser anterior a la fecha final' }]);
  if (Number(window.days) > 400) throw new AppError('VALIDATION', 'El periodo no puede pasar de 400 días', [{ path: 'from', msg: 'Elige un periodo de 400 días o menos' }]);

  const sums = sql`count(*)::int as calls, coalesce(sum(prompt_tokens), 0)::bigint as "promptTokens", coalesce(sum(completion_tokens), 0)::bigint as "completionTokens",
    coalesce(sum(cost_usd), 0)::float8 as "costUsd", coalesce(sum(coalesce(cost_local, cost_usd * ${rate})), 0)::float8 as "costLocal"`;
  const inWindow = sql`company_id = ${companyId} and created_at >= ${window.from}::timestamptz and created_at < ${window.to}::timestamptz`;
  const num = <T extends Sums>(r: T): T =>
    ({ ...r, calls: Number(r.calls), promptTokens: Number(r.promptTokens), completionTokens: Number(r.completionTokens), costUsd: Number(r.costUsd), costLocal: Number(r.costLocal) });

  const [byDay, byMonth, byFeature, [total]] = await Promise.all([
    rowsOf<Sums & { day: string }>(db, sql`select to_char(created_at at time zone ${timezone}, 'YYYY-MM-DD') as day, ${sums} from llm_tracker where ${inWindow} group by 1`),
    rowsOf<Sums & { month: string }>(db, sql`select to_char(created_at at time zone ${timezone}, 'YYYY-MM') as month, ${sums} from llm_tracker where ${inWindow} group by 1 order by 1`),
    rowsOf<Sums & { feature: LlmFeature }>(db, sql`select feature, ${sums} from llm_tracker where ${inWindow} group by 1 order by "costUsd" desc, feature`),
    rowsOf<Sums>(db, sql`select ${sums} from llm_tracker where ${inWindow}`),
  ]);
  const dayList = await rowsOf<{ day: string }>(
    db,
    sql`select to_char(d, 'YYYY-MM-DD') as day from generate_series(date_trunc('day', ${window.from}::timestamptz at time zone ${timezone}),
          date_trunc('day', (${window.to}::timestamptz - interval '1 millisecond') at time zone ${timezone}), interval '1 day') d`,
  );
  const dayMap = new Map(byDay.map((d) => [d.day, num(d)]));

  const month = monthOf(timezone);
  const resumesOn = nextMonthStart(month);
  const [monthSums] = await rowsOf<Sums>(
    db,
    sql`select ${sums} from llm_tracker where company_id = ${companyId} and to_char(created_at at time zone ${timezone}, 'YYYY-MM') = ${month}
          and created_at >= now() - interval '32 days'`,
  );
  const [counter] = await rowsOf<{ spent: number; paused: boolean }>(
    db,
    sql`select spent_usd::float8 as spent, paused_at is not null as paused from llm_budget_months where company_id = ${companyId} and month = ${month}`,
  );
  const spentUsd = Number(counter?.spent ?? 0);
  const budgetUsd = settings ? settings.monthlyBudgetUsd : null;
  const enabled = !!settings?.enabled && !!settings.apiKey;
  const paused = enabled && !!budgetUsd && (!!counter?.paused || spentUsd >= budgetUsd);
  return {
    timezone,
    currency,
    from: window.from,
    to: window.to,
    totals: total ? num(total) : zero,
    days: dayList.map(({ day }) => ({ day, ...(dayMap.get(day) ?? zero) })),
    months: byMonth.map(num),
    features: byFeature.map(num),
    month: {
      month,
      ...(monthSums ? num(monthSums) : zero),
      spentUsd,
      budgetUsd,
      percent: budgetUsd ? Math.round((spentUsd / budgetUsd) * 1000) / 10 : null,
      paused,
      resumesOn,
    },
    engine: enabled && !paused ? 'openai' : 'embedded',
    ...(settings ? { model: settings.model } : {}),
  };
}
