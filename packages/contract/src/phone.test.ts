import { describe, expect, it } from 'vitest';
import { zPhone } from './fields.js';
import { countryOfPhone, isPhoneNumber, normalisePhone, PHONE_INVALID_MESSAGE } from './phone.js';

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
    expect(countryOfPhone(null)).toBeUndefined();
  });

  it('reads a number of the wrong length by its prefix all the same', () => {
    expect(countryOfPhone('5198765432')).toBe('PE');
    expect(countryOfPhone('5691234567890')).toBe('CL');
  });

  it('the longest dialling code wins, and of equal codes the one whose length fits', () => {
    const list = [
      { code: 'US', dial: '1', national: [10] },
      { code: 'DO', dial: '1809', national: [7] },
      { code: 'KZ', dial: '7', national: [10] },
      { code: 'RU', dial: '7', national: [10, 11] },
    ];
    // 1 809 555 1234: the Dominican Republic's 1809, not the 1 it starts with
    expect(countryOfPhone('18095551234', list)).toBe('DO');
    expect(countryOfPhone('14155552671', list)).toBe('US');
    // two countries share 7: the first whose length fits, else the first
    expect(countryOfPhone('712345678901', list)).toBe('RU');
    expect(countryOfPhone('71234567890', list)).toBe('KZ');
    expect(countryOfPhone('7123', list)).toBe('KZ');
  });
});

describe('phone numbers are validated as phone numbers (libphonenumber-js)', () => {
  it('accepts real numbers of the countries we sell in and others, stored as digits with the code', () => {
    for (const phone of ['51987654321', '5112345678', '56912345678', '573001234567', '34612345678', '14155552671']) {
      expect(isPhoneNumber(phone), phone).toBe(true);
      expect(zPhone().safeParse(phone)).toEqual({ success: true, data: phone });
    }
  });

  it('refuses digits that are no number in Spanish: unknown code, wrong length for the country', () => {
    // 999 is no country code; Peru has no 12-digit mobiles; Spain no number starting 34 0
    for (const phone of ['99912345678', '519876543210', '34012345678', '5798765']) {
      expect(isPhoneNumber(phone), phone).toBe(false);
      const r = zPhone().safeParse(phone);
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => i.message)).toEqual([phone.length < 8 ? 'Solo dígitos, con el código de país (de 8 a 15 dígitos)' : PHONE_INVALID_MESSAGE]);
    }
  });

  it('still refuses what is not digits with one Spanish message', () => {
    const r = zPhone().safeParse('+51 987 654 321');
    expect(r.error?.issues.map((i) => i.message)).toEqual(['Solo dígitos, con el código de país (de 8 a 15 dígitos)']);
  });
});
