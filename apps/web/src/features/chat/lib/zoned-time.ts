/**
 * Wall times in a time zone (the company's, decision 0076's «Elegir fecha»), for a
 * `datetime-local` input: what it shows for an instant, and the instant a typed value names.
 * Without a zone, the browser's.
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function partsIn(date: Date, timeZone: string): Record<string, number> {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(timeZone, format);
  }
  return Object.fromEntries(format.formatToParts(date).filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(date: Date, timeZone: string): number {
  const p = partsIn(date, timeZone);
  return Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0) - Math.floor(date.getTime() / 1000) * 1000;
}

/** An instant as `YYYY-MM-DDTHH:mm` on the zone's wall clock. */
export function wallTime(date: Date, timeZone?: string): string {
  if (!timeZone) return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const p = partsIn(date, timeZone);
  return `${p.year}-${pad(p.month ?? 1)}-${pad(p.day ?? 1)}T${pad(p.hour ?? 0)}:${pad(p.minute ?? 0)}`;
}

/** The instant a `YYYY-MM-DDTHH:mm` on the zone's wall clock names; undefined when it is not one. */
export function instantOf(value: string, timeZone?: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (!timeZone) {
    const local = new Date(year, month - 1, day, hour, minute);
    return Number.isNaN(local.getTime()) ? undefined : local;
  }
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // the zone's offset at the first guess, then at the instant it gives (a change of hour between them)
  const first = asUtc - offsetAt(new Date(asUtc), timeZone);
  return new Date(asUtc - offsetAt(new Date(first), timeZone));
}
