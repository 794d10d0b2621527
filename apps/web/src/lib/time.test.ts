import { describe, expect, it } from 'vitest';
import { dayLabel, relativeTime, windowIsOpen } from './time';

const now = new Date(2025, 10, 21, 15, 0, 0).getTime();
const ago = (ms: number) => new Date(now - ms).toISOString();
const MIN = 60_000;

describe('relativeTime', () => {
  it('says how long ago in Spanish', () => {
    expect(relativeTime(ago(20_000), now)).toBe('ahora');
    expect(relativeTime(ago(5 * MIN), now)).toBe('hace 5 min');
    expect(relativeTime(ago(3 * 60 * MIN), now)).toBe('hace 3 h');
    expect(relativeTime(new Date(2025, 10, 20, 10, 0).toISOString(), now)).toBe('ayer');
    expect(relativeTime(new Date(2025, 10, 18, 10, 0).toISOString(), now)).toBe('hace 3 días');
    expect(relativeTime(new Date(2025, 9, 2, 10, 0).toISOString(), now)).toMatch(/^2 oct/);
    expect(relativeTime(new Date(2024, 2, 14, 10, 0).toISOString(), now)).toBe('14/03/2024');
    expect(relativeTime(undefined, now)).toBe('');
  });

  it('labels thread days', () => {
    expect(dayLabel(ago(MIN), now)).toBe('Hoy');
    expect(dayLabel(new Date(2025, 10, 20, 23, 0).toISOString(), now)).toBe('Ayer');
    expect(dayLabel(new Date(2025, 10, 17, 9, 0).toISOString(), now)).toBe('lunes, 17 de noviembre');
  });
});

describe('windowIsOpen', () => {
  it('is open until the instant passes, closed when absent', () => {
    expect(windowIsOpen(new Date(now + MIN).toISOString(), now)).toBe(true);
    expect(windowIsOpen(new Date(now - MIN).toISOString(), now)).toBe(false);
    expect(windowIsOpen(undefined, now)).toBe(false);
  });
});
