import { currencyOfCountry, type CountryCode } from '@mostrador/contract';
import { currentMembership, useSession } from './session';

/**
 * Prices as the company writes them: Intl.NumberFormat with the company's currency (its setting,
 * carried in the session, else its country's) and its country's locale — S/ 7.50 in Perú,
 * $ 1.990 in Chile (no decimals: CLP has none), $ 12.500,00 in Colombia, 7,50 € in España.
 */

/** The locale a company's country writes amounts in. */
export const localeOfCountry: Record<CountryCode, string> = { PE: 'es-PE', CL: 'es-CL', CO: 'es-CO', ES: 'es-ES' };

export interface Money {
  currency: string;
  locale: string;
}

const formats = new Map<string, Intl.NumberFormat>();

/** `amount` in `currency` as `locale` writes it; a currency Intl does not know falls back to a plain number with its code. */
export function formatMoney(amount: number, { currency, locale }: Money): string {
  const key = `${locale}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      const plain = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      return `${plain.format(amount)} ${currency}`;
    }
    formats.set(key, format);
  }
  return format.format(amount);
}

/** The currency's sign as `locale` writes it (S/, $, €, US$), for an amount's input. */
export function currencySymbol({ currency, locale }: Money): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
}

/** The money of a company: its currency (session) and its country's locale. */
export function moneyOf(company: { country?: string; currency?: string } | undefined): Money {
  const country = (company?.country ?? 'PE') as CountryCode;
  return {
    currency: company?.currency ?? currencyOfCountry[country] ?? 'PEN',
    locale: localeOfCountry[country] ?? 'es-PE',
  };
}

/** The current company's money, for screens: `formatMoney(price, money)`. */
export function useCompanyMoney(): Money {
  return moneyOf(currentMembership(useSession())?.company);
}
