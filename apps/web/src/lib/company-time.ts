import { currentMembership, useSession } from './session';

/**
 * Times as the company reads them: in its time zone (its setting, else its country's, carried
 * in the session), not the browser's — an agent travelling, or a phone set to another zone,
 * still sees a routine's 9:00 as 9:00.
 */
export function useCompanyTimezone(): string | undefined {
  return currentMembership(useSession())?.company.timezone;
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** A date and time, medium date and short time, in `timeZone` (the browser's when absent). */
export function formatDateTime(value: string | number | Date, timeZone?: string): string {
  const key = timeZone ?? '';
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('es-PE', { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });
    } catch {
      format = new Intl.DateTimeFormat('es-PE', { dateStyle: 'medium', timeStyle: 'short' });
    }
    formats.set(key, format);
  }
  return format.format(new Date(value));
}
