import { describe, expect, it } from 'vitest';
import { chartMonths, defaultRange, monthLabel, monthlySeries, monthsBetween } from './summary-model';

describe('lead summary model', () => {
  it('defaults to this month and the five before', () => {
    expect(defaultRange(new Date(2025, 2, 14))).toEqual({ from: '2024-10-01', to: '2025-03-14' });
  });

  it('lists the months of a range, across years', () => {
    expect(monthsBetween('2024-11-15', '2025-02-01')).toEqual(['2024-11', '2024-12', '2025-01', '2025-02']);
    expect(monthsBetween('2025-03-01', '2025-03-31')).toEqual(['2025-03']);
  });

  it('names months in Spanish', () => {
    expect(monthLabel('2025-03', 'long')).toMatch(/^marzo( de)? 2025$/);
    expect(monthLabel('2025-01')).toMatch(/^ene 2025$/);
  });

  it('gives each platform with leads a series with zeros where a month has none', () => {
    const summary = {
      from: '',
      to: '',
      total: 5,
      byStatus: [],
      byPlatform: [],
      byMonth: [
        { month: '2025-01', platform: 'whatsapp' as const, count: 3 },
        { month: '2025-03', platform: 'web' as const, count: 2 },
        { month: '2024-12', platform: 'web' as const, count: 0 },
      ],
    };
    const months = chartMonths(summary, ['2025-01', '2025-02']);
    expect(months).toEqual(['2025-01', '2025-02', '2025-03']);
    expect(monthlySeries(summary, months)).toEqual([
      { platform: 'whatsapp', data: [3, 0, 0] },
      { platform: 'web', data: [0, 0, 2] },
    ]);
  });
});
