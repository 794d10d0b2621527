import { describe, expect, it } from 'vitest';
import { countryOfPhone, normalisePhone } from './phone.js';

describe('normalisePhone (SPEC §5)', () => {
  it('strips non-digits and prefixes the default country code of a national number', () => {
    expect(normalisePhone('987 654 321', 'PE')).toBe('51987654321');
    expect(normalisePhone('(01) 234-5678', 'PE')).toBe('5112345678');
    expect(normalisePhone('9 1234 5678', 'CL')).toBe('56912345678');
    expect(normalisePhone('300 123 4567', 'CO')).toBe('573001234567');
    expect(normalisePhone('612.34.56.78', 'ES')).toBe('34612345678');
  });

  it('uses 57 for Colombia, not the spec’s 58 (decision 0005)', () => {
    expect(normalisePhone('3001234567', 'CO')).toMatch(/^57/);
  });

  it('keeps a code that is already there', () => {
    expect(normalisePhone('51987654321', 'PE')).toBe('51987654321');
    expect(normalisePhone('+51 987 654 321', 'CL')).toBe('51987654321');
    expect(normalisePhone('0056 9 1234 5678', 'PE')).toBe('56912345678');
    expect(normalisePhone('573001234567', 'PE')).toBe('573001234567');
    expect(normalisePhone('34612345678', 'CO')).toBe('34612345678');
    // an international number of a country we do not sell in
    expect(normalisePhone('+1 (415) 555-2671', 'PE')).toBe('14155552671');
  });

  it('answers null when nothing usable remains', () => {
    expect(normalisePhone('', 'PE')).toBeNull();
    expect(normalisePhone('sin número', 'PE')).toBeNull();
    expect(normalisePhone('12', 'PE')).toBeNull();
    expect(normalisePhone(null, 'PE')).toBeNull();
    expect(normalisePhone('+1234567890123456789', 'PE')).toBeNull();
  });

  it('accepts WhatsApp ids (digits with code) unchanged', () => {
    expect(normalisePhone('51955443322', 'CL')).toBe('51955443322');
  });
});

describe('countryOfPhone', () => {
  it('infers the country from the prefix', () => {
    expect(countryOfPhone('51987654321')).toBe('PE');
    expect(countryOfPhone('56912345678')).toBe('CL');
    expect(countryOfPhone('573001234567')).toBe('CO');
    expect(countryOfPhone('34612345678')).toBe('ES');
    expect(countryOfPhone('+34 612 34 56 78')).toBe('ES');
  });

  it('knows no country for other prefixes', () => {
    expect(countryOfPhone('14155552671')).toBeUndefined();
    expect(countryOfPhone('584121234567')).toBeUndefined();
    expect(countryOfPhone('')).toBeUndefined();
  });
});
