import { METRICS_MAX_DAYS } from '@mostrador/contract';
import { numberFormat } from '../../lib/number-format';

/**
 * The metrics screen's dates (SPEC §2 Metrics views): days `YYYY-MM-DD` in the company's time
 * zone, the presets of the sentiment view for every section, months as «ene 2026».
 */

const pad = (n: number) => String(n).padStart(2, '0');
const DAY_MS = 86_400_000;

/** Today in `timeZone` (the browser's when absent or unknown), as `YYYY-MM-DD`. */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  try {
    // en-CA writes dates as YYYY-MM-DD
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  }
}

const parse = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { y, m, d };
};
const utcDay = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

/** `day` moved by `n` days. */
export function addDays(day: string, n: number): string {
  const { y, m, d } = parse(day);
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}

export const presetKeys = ['hoy', 'ayer', '7-dias', '30-dias', 'este-mes', 'mes-pasado', '6-meses', 'este-ano', 'ano-2023', 'todo'] as const;
export type PresetKey = (typeof presetKeys)[number];

export const presetLabels: Record<PresetKey, string> = {
  hoy: 'Hoy',
  ayer: 'Ayer',
  '7-dias': 'Últimos 7 días',
  '30-dias': 'Últimos 30 días',
  'este-mes': 'Este mes',
  'mes-pasado': 'Mes pasado',
  '6-meses': 'Últimos 6 meses',
  'este-ano': 'Este año',
  'ano-2023': 'Año 2023',
  todo: 'Todo el tiempo',
};

/** The screen's window when the address names none: this month and the five before it (the server's default too). */
export const DEFAULT_PRESET: PresetKey = '6-meses';

export const isPreset = (value: string | null): value is PresetKey => !!value && (presetKeys as readonly string[]).includes(value);

/** A preset's days (inclusive) given today in the company's zone. */
export function presetRange(key: PresetKey, today: string): { from: string; to: string } {
  const { y, m } = parse(today);
  switch (key) {
    case 'hoy':
      return { from: today, to: today };
    case 'ayer': {
      const day = addDays(today, -1);
      return { from: day, to: day };
    }
    case '7-dias':
      return { from: addDays(today, -6), to: today };
    case '30-dias':
      return { from: addDays(today, -29), to: today };
    case 'este-mes':
      return { from: utcDay(y, m, 1), to: today };
    case 'mes-pasado':
      return { from: utcDay(y, m - 1, 1), to: utcDay(y, m, 0) };
    case '6-meses':
      return { from: utcDay(y, m - 5, 1), to: today };
    case 'este-ano':
      return { from: utcDay(y, 1, 1), to: today };
    case 'ano-2023':
      return { from: '2023-01-01', to: '2023-12-31' };
    case 'todo':
      // the longest window a call answers (ten years of days)
      return { from: addDays(today, -(METRICS_MAX_DAYS - 1)), to: today };
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a typed range, in Spanish; undefined when it can be asked. */
export function rangeProblem(from: string, to: string): string | undefined {
  if (!DAY.test(from) || !DAY.test(to)) return 'Elige una fecha inicial y una final';
  if (from > to) return 'La fecha inicial debe ser anterior o igual a la final';
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;
  if (span >= METRICS_MAX_DAYS) return `El rango máximo es de ${METRICS_MAX_DAYS} días`;
  return undefined;
}

const shortMonth = new Intl.DateTimeFormat('es-PE', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const longMonth = new Intl.DateTimeFormat('es-PE', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `2026-01` → «ene 2026» (axes) or «enero de 2026» (tooltips). */
export function monthLabel(month: string, style: 'short' | 'long' = 'short'): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(y, m - 1, 1));
  return style === 'short' ? shortMonth.format(date).replace('.', '') : longMonth.format(date);
}

/** `2026-01-05` → «5 ene 2026». */
export function dayLabel(day: string): string {
  const { y, m, d } = parse(day);
  return `${d} ${monthLabel(`${y}-${pad(m)}`)}`;
}

/**
 * The months a chart draws: a long window (todo el tiempo) starts at its first month with
 * something in it, so ten years of zeros do not squeeze the year that has data.
 */
export function visibleMonths<T extends { month: string }>(rows: T[], hasData: (row: T) => boolean, keep = 12): string[] {
  const months = [...new Set(rows.map((r) => r.month))].sort();
  if (months.length <= keep) return months;
  const withData = new Set(rows.filter(hasData).map((r) => r.month));
  const first = months.findIndex((m) => withData.has(m));
  if (first < 0) return months.slice(-keep);
  return months.slice(Math.min(first, months.length - keep));
}

/** A count as the company writes it (1,234 in Perú, 1.234 in Chile). */
export const formatNumber = (n: number): string => numberFormat().format(n);
/** An average (one decimal at most). */
export const formatDecimal = (n: number): string => numberFormat({ maximumFractionDigits: 1 }).format(n);
/** A share 0–1 as a percentage; «—» when there was nothing to divide by. */
export const formatShare = (share: number | null | undefined): string =>
  share === null || share === undefined ? '—' : numberFormat({ style: 'percent', maximumFractionDigits: 1 }).format(share);

/** The change from `before` to `now` as a share, null when before is 0. */
export function change(now: number, before: number): number | null {
  if (before === 0) return null;
  return (now - before) / before;
}

/** How many tick labels a band axis of `count` months shows on a narrow chart: every n-th. */
export function labelEvery(count: number, narrow: boolean): number {
  const room = narrow ? 4 : 12;
  return Math.max(1, Math.ceil(count / room));
}
