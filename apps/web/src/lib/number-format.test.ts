import { afterEach, describe, expect, it } from 'vitest';
import { formatDecimal, formatNumber, formatShare } from '../features/metrics/model';
import { formatAmount, people } from '../features/massive-messages/send-check-panel';
import { companyLocale, formatCount } from './number-format';
import { sessionStore } from './session';

const as = (country: 'PE' | 'CL' | 'CO' | 'ES') =>
  sessionStore.set((s) => ({
    ...s,
    companyId: `c-${country}`,
    user: { _id: 'u1', first_name: 'Ana', last_name: 'Díaz', corporation: { companies: [{ company: { _id: `c-${country}`, name: country, country }, default: true, role: 'admin' }] } } as never,
  }));
/** Intl writes a no-break space in some locales. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

afterEach(() => sessionStore.set((s) => ({ ...s, user: null, companyId: null })));

describe('numbers in the company’s locale (issue 31)', () => {
  it('a Peruvian company writes 12,345.6; a Chilean, Colombian or Spanish one 12.345,6', () => {
    as('PE');
    expect(companyLocale()).toBe('es-PE');
    expect([formatNumber(12345), formatDecimal(12345.6), formatCount(1234567)]).toEqual(['12,345', '12,345.6', '1,234,567']);
    as('CL');
    expect([formatNumber(12345), formatDecimal(12345.6), formatCount(1234567), people(1500)]).toEqual(['12.345', '12.345,6', '1.234.567', '1.500 personas']);
    expect(plain(formatShare(0.256))).toBe('25,6%');
    expect(plain(formatAmount(1990, 'CLP'))).toBe('$1.990');
    as('CO');
    expect(formatNumber(12345)).toBe('12.345');
    as('ES');
    expect(formatDecimal(12345.6)).toBe('12.345,6');
  });

  it('with no company (signed out) it writes as Perú, the product’s default', () => {
    expect(companyLocale()).toBe('es-PE');
    expect(formatNumber(1000)).toBe('1,000');
  });
});
