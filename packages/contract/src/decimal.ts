import { z } from 'zod';
import { formMessages } from './messages-es.js';

export interface DecimalOptions {
  /** Maximum decimals; undefined = any; 0 = integers only (SPEC §5). */
  decimals?: number;
  /** Decimal separator, default '.'. */
  separator?: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The decimal rule of SPEC §5: empty is invalid; optional sign; digits; an optional
 * fractional part limited to `decimals` digits (none when 0); optional exponent.
 */
export function isDecimal(value: unknown, { decimals, separator = '.' }: DecimalOptions = {}): boolean {
  if (value === null || value === undefined) return false;
  const text = String(value).trim();
  if (text === '') return false;
  const frac =
    decimals === 0 ? '' : `(?:${escapeRegExp(separator)}\\d${decimals === undefined ? '+' : `{1,${decimals}}`})?`;
  const pattern = new RegExp(`^[+-]?\\d+${frac}(?:[eE][+-]?\\d+)?$`);
  return pattern.test(text);
}

/** A zod string that follows the decimal rule, with the spec's message. */
export function zDecimal(options: DecimalOptions = {}) {
  return z.string({ error: formMessages.decimal }).refine((v) => isDecimal(v, options), formMessages.decimal);
}
