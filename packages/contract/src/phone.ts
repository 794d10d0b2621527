import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * Countries the product sells in (SPEC §9) and their dialling codes. The spec lists 58 for
 * Colombia; 58 is Venezuela's code and Colombia's is 57 (docs/decisions/0005-colombia-57.md).
 * `national`: the digit counts of a number without its dialling code (Peru: 9-digit mobiles,
 * 8-digit landlines with their area code; Chile 9; Colombia 10, mobiles and landlines since
 * 2021; España 9).
 */
export const countries = [
  { code: 'PE', name: 'Perú', dial: '51', national: [9, 8] },
  { code: 'CL', name: 'Chile', dial: '56', national: [9] },
  { code: 'CO', name: 'Colombia', dial: '57', national: [10] },
  { code: 'ES', name: 'España', dial: '34', national: [9] },
] as const;
export type CountryCode = (typeof countries)[number]['code'];
export const countryCodes = countries.map((c) => c.code) as [CountryCode, ...CountryCode[]];

type Country = (typeof countries)[number];
const byCode = (code: CountryCode): Country => countries.find((c) => c.code === code) as Country;
const fits = (c: Country, nationalDigits: number) => (c.national as readonly number[]).includes(nationalDigits);

/**
 * SPEC §5's phone normalisation: strips every non-digit and prefixes the dialling code of
 * `defaultCountry` when the number has none. A number written internationally (`+…` or
 * `00…`) keeps its own code; a number that already starts with a known code and has that
 * country's length keeps it; a national number (optionally with trunk zeros) gets the default
 * country's code. Answers digits only (`51987654321`), or null when nothing usable remains
 * (fewer than 8 or more than 15 digits, the range `zPhone` accepts).
 */
export function normalisePhone(raw: string | number | null | undefined, defaultCountry: CountryCode = 'PE'): string | null {
  if (raw === null || raw === undefined) return null;
  const text = String(raw).trim();
  let digits = text.replace(/\D/g, '');
  let international = text.startsWith('+');
  if (!international && digits.startsWith('00')) {
    digits = digits.slice(2);
    international = true;
  }
  const home = byCode(defaultCountry);
  let out: string;
  if (international) out = digits;
  else {
    // trunk zeros (01 of Lima) never start a number with its code
    digits = digits.replace(/^0+/, '');
    if (fits(home, digits.length)) out = home.dial + digits;
    else if (countries.some((c) => digits.startsWith(c.dial) && fits(c, digits.length - c.dial.length))) out = digits;
    else if (digits.startsWith(home.dial)) out = digits;
    else out = home.dial + digits;
  }
  return out.length >= 8 && out.length <= 15 ? out : null;
}

/** A country as countryOfPhone reads it: its code, dialling code and national lengths. */
export interface DialCountry<C extends string = string> {
  code: C;
  dial: string;
  national: readonly number[];
}

/**
 * The country of a number with its dialling code (SPEC §5: "a country is inferred from a
 * number's prefix"; the automation rules' «País de la persona»): among the countries whose code
 * starts the normalised digits, the longest code wins (1809 before 1), and of equal codes the one
 * whose national length matches; undefined for other countries. Pure: `list` defaults to SPEC
 * §9's countries.
 */
export function countryOfPhone(phone: string | null | undefined): CountryCode | undefined;
export function countryOfPhone<C extends string>(phone: string | null | undefined, list: readonly DialCountry<C>[]): C | undefined;
export function countryOfPhone(phone: string | null | undefined, list: readonly DialCountry[] = countries): string | undefined {
  const digits = String(phone ?? '').replace(/\D/g, '');
  if (!digits) return undefined;
  let best: DialCountry | undefined;
  let bestFits = false;
  for (const c of list) {
    if (!digits.startsWith(c.dial)) continue;
    const fitsHere = c.national.includes(digits.length - c.dial.length);
    if (!best || c.dial.length > best.dial.length || (c.dial.length === best.dial.length && fitsHere && !bestFits)) {
      best = c;
      bestFits = fitsHere;
    }
  }
  return best?.code;
}

/** The Spanish message of a phone that has the right form but is no number (libphonenumber-js). */
export const PHONE_INVALID_MESSAGE = 'No es un número de teléfono válido: revisa el código de país y los dígitos';

/**
 * Whether stored digits (country code first, as `zPhone` keeps them) are a phone number some
 * country could have: the code exists and the rest fits that country's numbering plan
 * (libphonenumber-js with its small metadata: lengths and leading digits, not number types).
 */
export function isPhoneNumber(digits: string): boolean {
  return /^\d{8,15}$/.test(digits) && isValidPhoneNumber(`+${digits}`);
}

/** The ISO country of stored digits (any country, not only SPEC §9's), for per-country prices; undefined when unknown. */
export function isoCountryOfPhone(digits: string | null | undefined): string | undefined {
  if (!digits || !/^\d{8,15}$/.test(digits)) return undefined;
  return parsePhoneNumberFromString(`+${digits}`)?.country ?? countryOfPhone(digits);
}
