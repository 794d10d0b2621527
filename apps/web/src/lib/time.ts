/** Times in the inbox and the thread, in Spanish (dates in the display locale). `now` is passed in. */

import { displayLocale } from '../i18n';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const short = new Intl.RelativeTimeFormat('es', { numeric: 'auto', style: 'short' });
const long = new Intl.RelativeTimeFormat('es', { numeric: 'auto', style: 'long' });

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Calendar days between two instants (local time): 0 today, 1 yesterday. */
function daysBetween(earlier: number, later: number): number {
  return Math.round((startOfDay(later) - startOfDay(earlier)) / DAY);
}

/**
 * How long ago, the way a chat list says it: 'ahora', 'hace 5 min', 'hace 3 h', 'ayer',
 * 'hace 3 días', then the date ('21 nov.', or '21/11/2024' in another year).
 */
export function relativeTime(iso: string | undefined, now: number = Date.now()): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const diff = Math.max(0, now - at);
  if (diff < MINUTE) return 'ahora';
  if (diff < HOUR) return short.format(-Math.floor(diff / MINUTE), 'minute');
  const days = daysBetween(at, now);
  if (days === 0 || diff < 6 * HOUR) return short.format(-Math.floor(diff / HOUR), 'hour');
  if (days < 7) return long.format(-days, 'day');
  const date = new Date(at);
  return date.getFullYear() === new Date(now).getFullYear()
    ? date.toLocaleDateString(displayLocale(), { day: 'numeric', month: 'short' })
    : date.toLocaleDateString(displayLocale(), { day: '2-digit', month: '2-digit', year: 'numeric' });
}

/** The hour of a message: '14:05'. */
export function clockTime(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : at.toLocaleTimeString(displayLocale(), { hour: '2-digit', minute: '2-digit', hour12: false });
}

/** The full date and hour (tooltips): 'sábado, 21 de noviembre de 2025, 14:05'. */
export function fullDateTime(iso: string | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return at.toLocaleString(displayLocale(), { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
}

/** The day separator of a thread: 'Hoy', 'Ayer', 'lunes, 17 de noviembre' (with the year when another one). */
export function dayLabel(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const days = daysBetween(at, now);
  if (days === 0) return 'Hoy';
  if (days === 1) return 'Ayer';
  const date = new Date(at);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString(displayLocale(), { weekday: 'long', day: 'numeric', month: 'long', ...(sameYear ? {} : { year: 'numeric' }) });
}

/** The local day of an instant, to group a thread by day. */
export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

/** Whether a WhatsApp chat may get a free-form message now (the 24-hour window is open). */
export function windowIsOpen(windowOpenUntil: string | undefined, now: number = Date.now()): boolean {
  if (!windowOpenUntil) return false;
  const until = Date.parse(windowOpenUntil);
  return !Number.isNaN(until) && until > now;
}
