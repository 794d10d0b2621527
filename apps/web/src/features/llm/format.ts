import type { Money } from '../../lib/money';

const cache = new Map<string, Intl.NumberFormat>();
const format = (locale: string, currency: string, digits: number) => {
  const key = `${locale}|${currency}|${digits}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: Math.min(2, digits), maximumFractionDigits: digits });
    cache.set(key, f);
  }
  return f;
};

/**
 * A model's cost: calls cost fractions of a cent, so small amounts keep more decimals
 * (US$ 0,000228; S/ 0,0086), larger ones two. Currencies without cents (CLP) too: a cost of
 * 0,2 pesos is still told apart from nothing.
 */
export function formatCost(amount: number, { currency, locale }: Money): string {
  const abs = Math.abs(amount);
  const digits = abs === 0 || abs >= 1 ? 2 : abs >= 0.01 ? 4 : 6;
  try {
    return format(locale, currency, digits).format(amount);
  } catch {
    return `${amount.toFixed(digits)} ${currency}`;
  }
}

export const usdMoney = (locale: string): Money => ({ currency: 'USD', locale });

const shortMonths = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'];
const longMonths = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
/** «26 nov» of a YYYY-MM-DD. */
export const dayLabel = (day: string) => `${Number(day.slice(8, 10))} ${shortMonths[Number(day.slice(5, 7)) - 1] ?? ''}`;
/** «noviembre de 2026» of a YYYY-MM. */
export const monthLabel = (month: string) => `${longMonths[Number(month.slice(5, 7)) - 1] ?? ''} de ${month.slice(0, 4)}`;
