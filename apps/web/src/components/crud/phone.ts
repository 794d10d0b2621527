import { countries } from '@mostrador/contract';

/** Peru's code: the product's first market, used when the company's country is unknown. */
export const DEFAULT_DIAL = '51';

/**
 * SPEC §5: a phone number is stored as digits with the country's dialling code. Non-digits
 * are stripped; a number that does not start with a dialling code (followed by at least a
 * national number's 8 digits) gets the company's.
 */
export function normalisePhone(text: string, dial: string = DEFAULT_DIAL): string {
  const digits = text.replace(/\D/g, '');
  if (!digits) return '';
  const dials = [dial, ...countries.map((c) => c.dial).filter((d) => d !== dial)];
  const withCode = dials.some((d, i) => digits.startsWith(d) && digits.length - d.length >= (i === 0 ? 8 : 9));
  return withCode ? digits : `${dial}${digits}`;
}

/** The dialling code of a country code (PE → 51). */
export function dialOf(country: string | undefined): string {
  return countries.find((c) => c.code === country)?.dial ?? DEFAULT_DIAL;
}
