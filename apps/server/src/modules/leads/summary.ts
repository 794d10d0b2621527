import {
  type CountryCode,
  LEADS_SUMMARY_MAX_MONTHS,
  type LeadPlatform,
  type LeadStatus,
  type LeadSummary,
  leadPlatforms,
  leadStatuses,
  timezoneLabels,
} from '@mostrador/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { companies } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';

type Timezone = keyof typeof timezoneLabels;

/** A company without a chosen time zone keeps its country's (/configuracion). */
const countryTimezones: Record<CountryCode, Timezone> = {
  PE: 'America/Lima',
  CL: 'America/Santiago',
  CO: 'America/Bogota',
  ES: 'Europe/Madrid',
};

/** A company's chosen time zone when it is one this runtime knows, else undefined. */
export function validTimezone(chosen: string | null | undefined): Timezone | undefined {
  return chosen && chosen in timezoneLabels ? (chosen as Timezone) : undefined;
}

/** The time zone of a company that chose none: its country's. */
export const countryTimezone = (country: string | null | undefined): Timezone =>
  countryTimezones[country as CountryCode] ?? 'America/Lima';

/** The time zone a company counts its days and months in. */
export async function timezoneOf(db: Db, companyId: string): Promise<Timezone> {
  const [company] = await db.select({ settings: companies.settings, country: companies.country }).from(companies).where(eq(companies.id, companyId));
  return validTimezone((company?.settings as { timezone?: string } | undefined)?.timezone) ?? countryTimezone(company?.country);
}

/**
 * GET /leads/summary (/resumen-leads): the company's leads created in [from, to), counted by
 * status, by platform and by month × platform, months in the company's time zone. Default
 * window: the current month and the five before it (in that zone), up to now. Every status,
 * platform and month of the window is listed, with 0 where nothing happened.
 */
export async function leadSummary(db: Db, tenant: Tenant, q: { from?: string; to?: string }): Promise<LeadSummary> {
  const tz = await timezoneOf(db, tenant.companyId);
  const from = q.from ?? null;
  const to = q.to ?? null;
  const { rows: windowRows } = await db.execute<{ from: string; to: string }>(sql`
    select to_char(w.f at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "from",
           to_char(w.t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "to"
      from (select coalesce(${from}::timestamptz,
                            (date_trunc('month', coalesce(${to}::timestamptz, now()) at time zone ${tz}) - interval '5 months') at time zone ${tz}) as f,
                   coalesce(${to}::timestamptz, now()) as t) w`);
  const window = windowRows[0];
  if (!(window.from < window.to)) {
    throw new AppError('VALIDATION', 'La fecha inicial debe ser anterior a la final', [{ path: 'from', msg: 'Debe ser anterior a la fecha final' }]);
  }
  const { rows: monthRows } = await db.execute<{ month: string }>(sql`
    select to_char(m, 'YYYY-MM') as month
      from generate_series(date_trunc('month', ${window.from}::timestamptz at time zone ${tz}),
                           date_trunc('month', (${window.to}::timestamptz - interval '1 microsecond') at time zone ${tz}),
                           interval '1 month') m`);
  if (monthRows.length > LEADS_SUMMARY_MAX_MONTHS) {
    throw new AppError('VALIDATION', `El rango máximo es de ${LEADS_SUMMARY_MAX_MONTHS} meses`, [{ path: 'from', msg: 'Acorta el rango de fechas' }]);
  }
  // one pass over the window (the (company, created_at) index), grouped three ways in memory
  const { rows } = await db.execute<{ status: LeadStatus; platform: LeadPlatform; month: string; n: number }>(sql`
    select status, platform, to_char(created_at at time zone ${tz}, 'YYYY-MM') as month, count(*)::int as n
      from leads
     where company_id = ${tenant.companyId} and created_at >= ${window.from}::timestamptz and created_at < ${window.to}::timestamptz
     group by 1, 2, 3`);

  const byStatus = new Map<string, number>(leadStatuses.map((s) => [s, 0]));
  const byPlatform = new Map<string, number>(leadPlatforms.map((p) => [p, 0]));
  const byMonth = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    total += r.n;
    byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + r.n);
    byPlatform.set(r.platform, (byPlatform.get(r.platform) ?? 0) + r.n);
    byMonth.set(`${r.month}|${r.platform}`, (byMonth.get(`${r.month}|${r.platform}`) ?? 0) + r.n);
  }
  return {
    from: window.from,
    to: window.to,
    total,
    byStatus: leadStatuses.map((status) => ({ status, count: byStatus.get(status) ?? 0 })),
    byPlatform: leadPlatforms.map((platform) => ({ platform, count: byPlatform.get(platform) ?? 0 })),
    byMonth: monthRows.flatMap(({ month }) => leadPlatforms.map((platform) => ({ month, platform, count: byMonth.get(`${month}|${platform}`) ?? 0 }))),
  };
}
