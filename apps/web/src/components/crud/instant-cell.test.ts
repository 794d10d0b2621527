import { describe, expect, it } from 'vitest';
import { shortInstant } from './instant-cell';

describe('shortInstant', () => {
  const now = new Date(2026, 10, 25, 20, 0);
  it('writes a date of this year without the year, on one short line', () => {
    expect(shortInstant(new Date(2026, 10, 25, 19, 30).toISOString(), now)).toMatch(/^25 nov\.?, 7:30\s?p\.\s?m\.$/);
  });
  it('keeps the year of an older date', () => {
    expect(shortInstant(new Date(2024, 11, 3, 9, 10).toISOString(), now)).toMatch(/^3 dic\.? 2024, 9:10\s?a\.\s?m\.$/);
  });
  it('says nothing was there, or shows a text that is not a date as it is', () => {
    expect(shortInstant(undefined, now)).toBe('—');
    expect(shortInstant('pronto', now)).toBe('pronto');
  });
});
