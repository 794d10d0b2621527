import { moneyOf } from './money';
import { currentMembership, sessionStore } from './session';

/**
 * Numbers as the company writes them (issue 31): counts, decimals and percentages in its
 * country's locale — 12,345.6 in Perú, 12.345,6 in Chile, Colombia and España — the same locale
 * its amounts use (lib/money.ts), so «$ 12.345» never sits beside «12,345». Read from the
 * session when a number is written: a company switch re-renders every screen with the new one.
 */
export function companyLocale(): string {
  return moneyOf(currentMembership(sessionStore.get())?.company).locale;
}

const formats = new Map<string, Intl.NumberFormat>();

/** The company's Intl.NumberFormat for these options (cached per locale and options). */
export function numberFormat(options: Intl.NumberFormatOptions = {}, locale = companyLocale()): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** A count (1,234 / 1.234). */
export const formatCount = (n: number): string => numberFormat().format(n);
