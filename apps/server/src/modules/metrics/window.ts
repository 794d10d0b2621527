import { METRICS_MAX_DAYS, type MetricsFilter } from '@mostrador/contract';
import { AppError } from '../../lib/errors.js';

/** A metric call's window: inclusive local days, and every month they touch. */
export interface MetricWindow {
  from: string;
  to: string;
  /** 'YYYY-MM', oldest first. */
  months: string[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** The local day (YYYY-MM-DD) of an instant in a zone. */
export const localDay = (at: Date, timezone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthStart = (day: string, back = 0) => {
  const d = new Date(dayMs(`${day.slice(0, 7)}-01`));
  d.setUTCMonth(d.getUTCMonth() - back);
  return dayOf(d.getTime());
};

/**
 * The filter's window in the company's zone. A day is taken as it is; an instant as its local
 * day — `from` inclusive, `to` exclusive (an instant ending a range, as GET /leads/summary's `to`).
 * `days`: the last N days up to today. Default: the current month and the five before it, to
 * today; only `to`: the six months up to it; only `from`: from it to today.
 */
export function windowOf(filter: Pick<MetricsFilter, 'from' | 'to' | 'days'>, timezone: string, now = new Date()): MetricWindow {
  const today = localDay(now, timezone);
  const asDay = (v: string, end: boolean) => (DAY.test(v) ? v : localDay(new Date(Date.parse(v) - (end ? 1 : 0)), timezone));
  let to = filter.to ? asDay(filter.to, true) : today;
  let from: string;
  if (filter.days !== undefined) {
    to = today;
    from = dayOf(dayMs(today) - (filter.days - 1) * DAY_MS);
  } else if (filter.from) from = asDay(filter.from, false);
  else from = monthStart(to, 5);
  if (!filter.to && filter.from && from > to) to = from;
  if (from > to) {
    throw new AppError('VALIDATION', 'La fecha inicial debe ser anterior o igual a la final', [{ path: 'from', msg: 'Debe ser anterior o igual a la fecha final' }]);
  }
  if ((dayMs(to) - dayMs(from)) / DAY_MS + 1 > METRICS_MAX_DAYS) {
    throw new AppError('VALIDATION', `El rango máximo es de ${METRICS_MAX_DAYS} días`, [{ path: 'from', msg: 'Acorta el rango de fechas' }]);
  }
  const months: string[] = [];
  for (let m = monthStart(from); m <= to; m = monthStart(dayOf(dayMs(m) + 32 * DAY_MS))) months.push(m.slice(0, 7));
  return { from, to, months };
}

/**
 * A window as the month-grained companions read it: its whole months (first and last month's
 * first day, or none), and the days outside them (at most the two partial edge months).
 */
export function splitByMonth(w: Pick<MetricWindow, 'from' | 'to'>): { months?: [string, string]; days: Array<[string, string]> } {
  const nextMonth = (day: string) => monthStart(dayOf(dayMs(monthStart(day)) + 32 * DAY_MS));
  const lastDay = (month: string) => dayOf(dayMs(nextMonth(month)) - DAY_MS);
  const first = w.from === monthStart(w.from) ? w.from : nextMonth(w.from);
  const last = lastDay(w.to) === w.to ? monthStart(w.to) : monthStart(dayOf(dayMs(monthStart(w.to)) - DAY_MS));
  if (first > last) return { days: [[w.from, w.to]] };
  const days: Array<[string, string]> = [];
  if (w.from < first) days.push([w.from, dayOf(dayMs(first) - DAY_MS)]);
  if (lastDay(last) < w.to) days.push([dayOf(dayMs(lastDay(last)) + DAY_MS), w.to]);
  return { months: [first, last], days };
}
