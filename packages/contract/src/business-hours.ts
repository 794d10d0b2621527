import { z } from 'zod';
import { formMessages } from './messages-es.js';
import { timezones } from './organization.js';

/**
 * Business hours (issue 29, decision 0078): per company, its zone, a weekly schedule (per weekday
 * the intervals it is open, none = closed), holidays (closed all day) and an away message that
 * goes out at most once per chat and closed period when a customer writes outside hours. Under
 * /api (module `settings`):
 *
 *   GET /business-hours   the company's hours (defaults when it saved none: `saved` false)
 *   PUT /business-hours   businessHoursIn (whole) → the hours
 *
 * `isOpen` and `openingPeriodOf` are pure and zone-correct (summer time included): the server's
 * away message and the rules' condition «Dentro del horario de atención» use them, and the screen
 * says whether the company is open now.
 */

export const hoursWeekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type HoursWeekday = (typeof hoursWeekdays)[number];
export const hoursWeekdayLabels: Record<HoursWeekday, string> = {
  mon: 'Lunes',
  tue: 'Martes',
  wed: 'Miércoles',
  thu: 'Jueves',
  fri: 'Viernes',
  sat: 'Sábado',
  sun: 'Domingo',
};

export const BUSINESS_HOURS_MAX_INTERVALS = 5;
export const BUSINESS_HOURS_MAX_HOLIDAYS = 100;
export const BUSINESS_HOURS_AWAY_MAX = 1000;

export const businessHoursMessages = {
  time: 'Escribe la hora como HH:MM, por ejemplo 09:00',
  order: 'La hora de cierre debe ser posterior a la de apertura',
  overlap: 'Este horario se cruza con otro del mismo día',
  tooMany: `Como mucho ${BUSINESS_HOURS_MAX_INTERVALS} horarios por día`,
  date: 'Escribe una fecha válida, como 2026-12-25',
  duplicateDate: 'Ese feriado ya está en la lista',
  tooManyHolidays: `Como mucho ${BUSINESS_HOURS_MAX_HOLIDAYS} feriados`,
  awayRequired: 'Escribe el mensaje de ausencia para poder activarlo',
  zone: 'Elige una zona horaria de la lista',
} as const;

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
/** Minutes since midnight of 'HH:MM' (24:00 → 1440). */
export const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

const time = z.string({ error: businessHoursMessages.time }).regex(hhmm, businessHoursMessages.time);
export const openInterval = z.object({ start: time, end: time }).superRefine((i, ctx) => {
  if (hhmm.test(i.start) && hhmm.test(i.end) && minutesOf(i.start) >= minutesOf(i.end)) ctx.addIssue({ code: 'custom', path: ['end'], message: businessHoursMessages.order });
});
export type OpenInterval = z.infer<typeof openInterval>;

const day = z
  .array(openInterval, { error: formMessages.invalid })
  .max(BUSINESS_HOURS_MAX_INTERVALS, businessHoursMessages.tooMany)
  .superRefine((list, ctx) => {
    // each interval against those before it (in the order written): the later one is marked
    for (let i = 1; i < list.length; i++) {
      const a = list[i];
      for (let j = 0; j < i; j++) {
        const b = list[j];
        if (minutesOf(a.start) < minutesOf(b.end) && minutesOf(b.start) < minutesOf(a.end)) {
          ctx.addIssue({ code: 'custom', path: [i, 'start'], message: businessHoursMessages.overlap });
          break;
        }
      }
    }
  });

const isoDate = z
  .string({ error: businessHoursMessages.date })
  .regex(/^\d{4}-\d{2}-\d{2}$/, businessHoursMessages.date)
  .refine((d) => {
    const t = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
  }, businessHoursMessages.date);

export const holiday = z.object({
  date: isoDate,
  name: z.string({ error: formMessages.invalid }).trim().max(120, formMessages.tooLong).optional().default(''),
});
export type Holiday = z.infer<typeof holiday>;

export const weeklySchedule = z.object(Object.fromEntries(hoursWeekdays.map((d) => [d, day.default([])])) as Record<HoursWeekday, z.ZodDefault<typeof day>>);
export type WeeklySchedule = Record<HoursWeekday, OpenInterval[]>;

export const businessHoursIn = z
  .object({
    zone: z.enum(timezones, { error: businessHoursMessages.zone }),
    schedule: weeklySchedule,
    holidays: z
      .array(holiday, { error: formMessages.invalid })
      .max(BUSINESS_HOURS_MAX_HOLIDAYS, businessHoursMessages.tooManyHolidays)
      .default([])
      .superRefine((list, ctx) => {
        const seen = new Set<string>();
        list.forEach((h, i) => {
          if (seen.has(h.date)) ctx.addIssue({ code: 'custom', path: [i, 'date'], message: businessHoursMessages.duplicateDate });
          seen.add(h.date);
        });
      }),
    awayEnabled: z.boolean({ error: formMessages.invalid }).default(false),
    awayText: z.string({ error: formMessages.invalid }).trim().max(BUSINESS_HOURS_AWAY_MAX, formMessages.tooLong).default(''),
  })
  .superRefine((b, ctx) => {
    if (b.awayEnabled && !b.awayText) ctx.addIssue({ code: 'custom', path: ['awayText'], message: businessHoursMessages.awayRequired });
  });
export type BusinessHoursIn = z.input<typeof businessHoursIn>;

export const businessHoursOut = z.object({
  zone: z.string(),
  schedule: z.record(z.string(), z.array(z.object({ start: z.string(), end: z.string() }))),
  holidays: z.array(z.object({ date: z.string(), name: z.string() })),
  awayEnabled: z.boolean(),
  awayText: z.string(),
  /** false: the company saved none yet (these are the defaults, and it counts as always open). */
  saved: z.boolean(),
  /** Whether it is open at the time of the answer. */
  openNow: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type BusinessHoursOut = z.infer<typeof businessHoursOut>;

/** What `isOpen` needs. */
export interface BusinessHours {
  zone: string;
  schedule: Partial<Record<HoursWeekday, OpenInterval[]>>;
  holidays: ReadonlyArray<{ date: string }>;
}

/** The schedule a company starts from on the screen: Monday to Friday 09:00–18:00. */
export const defaultSchedule = (): WeeklySchedule => ({
  mon: [{ start: '09:00', end: '18:00' }],
  tue: [{ start: '09:00', end: '18:00' }],
  wed: [{ start: '09:00', end: '18:00' }],
  thu: [{ start: '09:00', end: '18:00' }],
  fri: [{ start: '09:00', end: '18:00' }],
  sat: [],
  sun: [],
});

const formats = new Map<string, Intl.DateTimeFormat>();
const formatOf = (zone: string) => {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(zone, f);
  }
  return f;
};

/** The wall clock of an instant in a zone. */
function wallOf(ms: number, zone: string): { y: number; m: number; d: number; minutes: number; second: number } {
  const parts: Record<string, number> = {};
  for (const p of formatOf(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { y: parts.year, m: parts.month, d: parts.day, minutes: (parts.hour % 24) * 60 + parts.minute, second: parts.second };
}

/** How far ahead of UTC the zone's clock is at an instant, in ms. */
function offsetOf(ms: number, zone: string): number {
  const w = wallOf(ms, zone);
  const asUtc = Date.UTC(w.y, w.m - 1, w.d, 0, w.minutes, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall clock time (a date, minutes since its midnight — 1440 is the next midnight) happens in a zone. */
export function zonedInstant(y: number, m: number, d: number, minutes: number, zone: string): number {
  const wall = Date.UTC(y, m - 1, d, 0, minutes);
  const first = offsetOf(wall, zone);
  let t = wall - first;
  const second = offsetOf(t, zone);
  if (second !== first) t = wall - second;
  return t;
}

const weekdayOf = (y: number, m: number, d: number): HoursWeekday => hoursWeekdays[(new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7];
const isoOf = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** Whether the company is open at `at`: not a holiday (its date in the zone) and inside one of that weekday's intervals. */
export function isOpen(hours: BusinessHours, at: Date): boolean {
  const w = wallOf(at.getTime(), hours.zone);
  if (hours.holidays.some((h) => h.date === isoOf(w.y, w.m, w.d))) return false;
  return (hours.schedule[weekdayOf(w.y, w.m, w.d)] ?? []).some((i) => minutesOf(i.start) <= w.minutes && w.minutes < minutesOf(i.end));
}

/** How far back `openingPeriodOf` looks for the last closing. */
const LOOKBACK_DAYS = 400;

/**
 * The instant the closed period `at` is in began (the last time the company closed), which keys
 * "once per closed period"; null when it is open at `at`. A company that has not been open in
 * over a year is in one closed period since the epoch.
 */
export function openingPeriodOf(hours: BusinessHours, at: Date): Date | null {
  if (isOpen(hours, at)) return null;
  const now = at.getTime();
  const today = wallOf(now, hours.zone);
  const base = Date.UTC(today.y, today.m - 1, today.d);
  const holidays = new Set(hours.holidays.map((h) => h.date));
  for (let k = 0; k <= LOOKBACK_DAYS; k++) {
    const day = new Date(base - k * 86_400_000);
    const y = day.getUTCFullYear();
    const m = day.getUTCMonth() + 1;
    const d = day.getUTCDate();
    if (holidays.has(isoOf(y, m, d))) continue;
    const ends = (hours.schedule[weekdayOf(y, m, d)] ?? []).map((i) => minutesOf(i.end)).sort((a, b) => b - a);
    for (const end of ends) {
      const closing = zonedInstant(y, m, d, end, hours.zone);
      // an interval that ends where the next begins (13:00–14:00 → 14:00, or 24:00 → 00:00) is no closing
      if (closing <= now && !isOpen(hours, new Date(closing))) return new Date(closing);
    }
  }
  return new Date(0);
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall clock time happens in a zone, with PostgreSQL's rule for the times a summer
 * time change makes missing or twice (so it equals `timestamp at time zone`): a time in the gap
 * of a spring-forward is read with the offset before the change (02:30 in Madrid's gap is 03:30
 * summer time), a time a fall-back repeats is read with the offset after it (its second pass).
 * `offset` is the zone's offsetOf, cached by instant for one call of businessMinutesBetween.
 */
function pgInstant(y: number, m: number, d: number, minutes: number, offset: (ms: number) => number): number {
  const day = Date.UTC(y, m - 1, d);
  const wall = day + minutes * 60_000;
  // one change at most in three days around the date (true of every real zone)
  const before = offset(day - DAY_MS);
  const after = offset(day + 2 * DAY_MS);
  if (before === after) return wall - before;
  const asBefore = wall - before;
  const asAfter = wall - after;
  const beforeHolds = offset(asBefore) === before;
  const afterHolds = offset(asAfter) === after;
  if (beforeHolds && !afterHolds) return asBefore;
  if (afterHolds && !beforeHolds) return asAfter;
  // in the gap (neither holds) the before reading is the later instant; twice (both hold) the after one is
  return Math.max(asBefore, asAfter);
}

/**
 * The minutes between two instants that fall inside the open intervals (issue 29, decision 0082):
 * in the company's zone, summer time correct (an interval is the real time between its opening
 * and its closing as the clock on the wall says them, so 09:00–18:00 on a change day is 8 or 10
 * hours), holidays closed, `from` ≥ `to` → 0. Its resolution is the whole second: both instants
 * are taken down to their second, and the answer is the open seconds / 60 — exactly what the SQL
 * function `mostrador_business_minutes` answers. Walks the local days of the span, not its minutes.
 */
export function businessMinutesBetween(hours: BusinessHours, from: Date, to: Date): number {
  const f = Math.floor(from.getTime() / 1000) * 1000;
  const t = Math.floor(to.getTime() / 1000) * 1000;
  if (!(f < t)) return 0;
  const cache = new Map<number, number>();
  const offset = (ms: number) => {
    let o = cache.get(ms);
    if (o === undefined) {
      o = offsetOf(ms, hours.zone);
      cache.set(ms, o);
    }
    return o;
  };
  const holidays = new Set(hours.holidays.map((h) => h.date));
  const first = wallOf(f, hours.zone);
  const last = wallOf(t, hours.zone);
  const end = Date.UTC(last.y, last.m - 1, last.d);
  let open = 0;
  // from the day before the first (an interval ending at 24:00 ends on the next date)
  for (let day = Date.UTC(first.y, first.m - 1, first.d) - DAY_MS; day <= end; day += DAY_MS) {
    const date = new Date(day);
    const y = date.getUTCFullYear();
    const m = date.getUTCMonth() + 1;
    const d = date.getUTCDate();
    if (holidays.has(isoOf(y, m, d))) continue;
    for (const i of hours.schedule[weekdayOf(y, m, d)] ?? []) {
      const s = pgInstant(y, m, d, minutesOf(i.start), offset);
      const e = pgInstant(y, m, d, minutesOf(i.end), offset);
      const overlap = Math.min(t, e) - Math.max(f, s);
      if (overlap > 0) open += overlap;
    }
  }
  return open / 60_000;
}
