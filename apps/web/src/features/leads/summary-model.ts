import { type LeadPlatform, type LeadSummary, leadPlatforms } from '@mostrador/contract';
import { displayLocale } from '../../i18n';

/** Months of the summary's default range (SPEC §2 /resumen-leads): this one and the five before. */
export const DEFAULT_MONTHS = 6;

const pad = (n: number) => String(n).padStart(2, '0');
export const dayOf = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The last 6 months: from the first day of the month five months back, to today (days, inclusive). */
export function defaultRange(today: Date = new Date()): { from: string; to: string } {
  return { from: dayOf(new Date(today.getFullYear(), today.getMonth() - (DEFAULT_MONTHS - 1), 1)), to: dayOf(today) };
}

/** Every month `YYYY-MM` from the month of `from` to the month of `to` (days `YYYY-MM-DD`). */
export function monthsBetween(from: string, to: string): string[] {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  const count = Math.min(240, (ty - fy) * 12 + (tm - fm) + 1);
  return Array.from({ length: Math.max(0, count) }, (_, i) => {
    const index = fm - 1 + i;
    return `${fy + Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
  });
}

/** `2025-03` → 'mar 2025' (short) or 'marzo de 2025', in Spanish. */
export function monthLabel(month: string, style: 'short' | 'long' = 'short'): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const text = new Date(y, m - 1, 1).toLocaleDateString(displayLocale(), { month: style, year: 'numeric' });
  return text.replace('.', '');
}

/** Counts per platform for each month of `months` (zeros where the summary has none); platforms without leads left out. */
export function monthlySeries(summary: LeadSummary, months: string[]): Array<{ platform: LeadPlatform; data: number[] }> {
  const counts = new Map(summary.byMonth.map((row) => [`${row.month}|${row.platform}`, row.count]));
  return leadPlatforms
    .map((platform) => ({ platform, data: months.map((month) => counts.get(`${month}|${platform}`) ?? 0) }))
    .filter((series) => series.data.some((n) => n > 0));
}

/**
 * The months a chart shows: the range's, plus any outside it where the server counted leads
 * (it counts months in the company's zone, the range is in the browser's).
 */
export function chartMonths(summary: LeadSummary, months: string[]): string[] {
  return [...new Set([...months, ...summary.byMonth.filter((r) => r.count > 0).map((r) => r.month)])].sort();
}
