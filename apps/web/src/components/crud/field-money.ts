import { localeOfCountry, type Money, moneyOf } from '../../lib/money';
import type { FieldConfig, ResourceRecord } from './types';

/** The money a field's amounts are in (`FieldConfig.money`): the company's, or the currency its record names. */
export function moneyFor(config: FieldConfig | undefined, row: ResourceRecord | undefined, company: Money): Money | undefined {
  const money = config?.money;
  if (!money) return undefined;
  if (money !== true && 'countryField' in money) {
    const country = row?.[money.countryField];
    return typeof country === 'string' && country in localeOfCountry ? moneyOf({ country }) : company;
  }
  const own = money === true ? undefined : row?.[money.currencyField];
  return typeof own === 'string' && /^[A-Z]{3}$/.test(own) ? { ...company, currency: own } : company;
}
