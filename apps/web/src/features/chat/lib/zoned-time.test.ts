import { describe, expect, it } from 'vitest';
import { instantOf, wallTime } from './zoned-time';

describe('wall times in the company’s zone', () => {
  it('reads and writes Lima (UTC−5) whatever the browser’s zone', () => {
    expect(instantOf('2026-12-03T09:00', 'America/Lima')?.toISOString()).toBe('2026-12-03T14:00:00.000Z');
    expect(wallTime(new Date('2026-12-03T14:00:00Z'), 'America/Lima')).toBe('2026-12-03T09:00');
  });

  it('follows a zone’s change of hour (Santiago: −3 in summer, −4 in winter)', () => {
    expect(instantOf('2026-01-15T09:00', 'America/Santiago')?.toISOString()).toBe('2026-01-15T12:00:00.000Z');
    expect(instantOf('2026-07-15T09:00', 'America/Santiago')?.toISOString()).toBe('2026-07-15T13:00:00.000Z');
    expect(wallTime(new Date('2026-07-15T13:00:00Z'), 'America/Santiago')).toBe('2026-07-15T09:00');
  });

  it('refuses what is not a date and time', () => {
    expect(instantOf('', 'America/Lima')).toBeUndefined();
    expect(instantOf('mañana', 'America/Lima')).toBeUndefined();
  });
});
