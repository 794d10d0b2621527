import { describe, expect, it } from 'vitest';
import { type BusinessHours, businessHoursIn, businessMinutesBetween, isOpen, openingPeriodOf } from './business-hours.js';

const week = (intervals: Array<{ start: string; end: string }>, sat: Array<{ start: string; end: string }> = []) => ({
  mon: intervals,
  tue: intervals,
  wed: intervals,
  thu: intervals,
  fri: intervals,
  sat,
  sun: [],
});

const madrid: BusinessHours = {
  zone: 'Europe/Madrid',
  schedule: week(
    [
      { start: '09:00', end: '13:00' },
      { start: '14:00', end: '19:00' },
    ],
    [{ start: '09:00', end: '13:00' }],
  ),
  holidays: [{ date: '2026-12-25' }],
};

describe('isOpen', () => {
  it('reads the wall clock of the zone', () => {
    // Thursday 2026-12-03, Madrid is UTC+1 in winter
    expect(isOpen(madrid, new Date('2026-12-03T08:30:00Z'))).toBe(true); // 09:30
    expect(isOpen(madrid, new Date('2026-12-03T07:59:00Z'))).toBe(false); // 08:59
    expect(isOpen(madrid, new Date('2026-12-03T12:30:00Z'))).toBe(false); // 13:30, lunch
    expect(isOpen(madrid, new Date('2026-12-03T17:59:00Z'))).toBe(true); // 18:59
    expect(isOpen(madrid, new Date('2026-12-03T18:00:00Z'))).toBe(false); // 19:00 sharp: closed
    expect(isOpen(madrid, new Date('2026-12-06T10:00:00Z'))).toBe(false); // Sunday
  });

  it('is closed on a holiday, all day, in the zone', () => {
    expect(isOpen(madrid, new Date('2026-12-25T10:00:00Z'))).toBe(false); // a Friday, Christmas
    expect(isOpen(madrid, new Date('2026-12-24T10:00:00Z'))).toBe(true);
  });

  it('follows summer time: the same 09:30 is 07:30 UTC in summer and 08:30 in winter', () => {
    expect(isOpen(madrid, new Date('2026-03-30T07:30:00Z'))).toBe(true); // Monday after the change, 09:30 CEST
    expect(isOpen(madrid, new Date('2026-03-23T07:30:00Z'))).toBe(false); // Monday before, 08:30 CET
    expect(isOpen(madrid, new Date('2026-03-23T08:30:00Z'))).toBe(true);
  });
});

describe('openingPeriodOf', () => {
  it('is null while open', () => {
    expect(openingPeriodOf(madrid, new Date('2026-12-03T08:30:00Z'))).toBeNull();
  });

  it('is the last closing: lunch, the evening, the weekend', () => {
    // 13:30 Thursday → closed since 13:00 (12:00Z)
    expect(openingPeriodOf(madrid, new Date('2026-12-03T12:30:00Z'))?.toISOString()).toBe('2026-12-03T12:00:00.000Z');
    // 07:00 Thursday → since Wednesday 19:00 (18:00Z)
    expect(openingPeriodOf(madrid, new Date('2026-12-03T06:00:00Z'))?.toISOString()).toBe('2026-12-02T18:00:00.000Z');
    // Sunday → since Saturday 13:00
    expect(openingPeriodOf(madrid, new Date('2026-12-06T10:00:00Z'))?.toISOString()).toBe('2026-12-05T12:00:00.000Z');
  });

  it('spans a holiday: Christmas Friday morning is still Thursday evening’s period', () => {
    expect(openingPeriodOf(madrid, new Date('2026-12-25T10:00:00Z'))?.toISOString()).toBe('2026-12-24T18:00:00.000Z');
    expect(openingPeriodOf(madrid, new Date('2026-12-26T07:00:00Z'))?.toISOString()).toBe('2026-12-24T18:00:00.000Z');
  });

  it('keys one period across a change of summer time', () => {
    // Saturday 2026-03-28 closes 13:00 CET (12:00Z); clocks go forward Sunday; Monday 08:00 CEST (06:00Z) is still that period
    expect(openingPeriodOf(madrid, new Date('2026-03-30T06:00:00Z'))?.toISOString()).toBe('2026-03-28T12:00:00.000Z');
    // autumn: Saturday 2026-10-24 closes 13:00 CEST (11:00Z); Monday 08:00 CET (07:00Z)
    expect(openingPeriodOf(madrid, new Date('2026-10-26T07:00:00Z'))?.toISOString()).toBe('2026-10-24T11:00:00.000Z');
  });

  it('an interval ending where the next begins is no closing', () => {
    const allDay: BusinessHours = { zone: 'America/Lima', schedule: week([{ start: '00:00', end: '24:00' }]), holidays: [] };
    // Saturday in Lima: closed since Friday 24:00 = Saturday 05:00Z
    expect(openingPeriodOf(allDay, new Date('2026-12-05T15:00:00Z'))?.toISOString()).toBe('2026-12-05T05:00:00.000Z');
    expect(isOpen(allDay, new Date('2026-12-04T04:59:00Z'))).toBe(true);
  });

  it('never open: one period since the epoch', () => {
    expect(openingPeriodOf({ zone: 'UTC', schedule: {}, holidays: [] }, new Date())?.getTime()).toBe(0);
  });
});

describe('businessHoursIn', () => {
  const base = { zone: 'America/Lima', schedule: week([{ start: '09:00', end: '18:00' }]), holidays: [] };
  const messages = (input: unknown) => {
    const r = businessHoursIn.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it('takes a well formed week', () => {
    expect(messages(base)).toEqual([]);
  });
  it('says what is wrong, in Spanish, where', () => {
    expect(messages({ ...base, schedule: { ...base.schedule, mon: [{ start: '9', end: '18:00' }] } })).toEqual(['schedule.mon.0.start: Escribe la hora como HH:MM, por ejemplo 09:00']);
    expect(messages({ ...base, schedule: { ...base.schedule, mon: [{ start: '18:00', end: '09:00' }] } })).toEqual(['schedule.mon.0.end: La hora de cierre debe ser posterior a la de apertura']);
    expect(
      messages({
        ...base,
        schedule: {
          ...base.schedule,
          tue: [
            { start: '09:00', end: '13:00' },
            { start: '12:00', end: '15:00' },
          ],
        },
      }),
    ).toEqual(['schedule.tue.1.start: Este horario se cruza con otro del mismo día']);
    expect(messages({ ...base, schedule: { ...base.schedule, wed: Array.from({ length: 6 }, (_, i) => ({ start: `0${i}:00`, end: `0${i}:30` })) } })).toEqual([
      'schedule.wed: Como mucho 5 horarios por día',
    ]);
    expect(messages({ ...base, holidays: [{ date: '2026-02-30' }] })).toEqual(['holidays.0.date: Escribe una fecha válida, como 2026-12-25']);
    expect(messages({ ...base, holidays: [{ date: '2026-12-25' }, { date: '2026-12-25' }] })).toEqual(['holidays.1.date: Ese feriado ya está en la lista']);
    expect(messages({ ...base, awayEnabled: true, awayText: '  ' })).toEqual(['awayText: Escribe el mensaje de ausencia para poder activarlo']);
    expect(messages({ ...base, awayText: 'x'.repeat(1001) })).toEqual(['awayText: Este campo es demasiado largo']);
    expect(messages({ ...base, zone: 'Marte/Olimpo' })).toEqual(['zone: Elige una zona horaria de la lista']);
  });
});

describe('businessMinutesBetween', () => {
  const at = (iso: string) => new Date(iso);
  const minutes = (hours: BusinessHours, from: string, to: string) => businessMinutesBetween(hours, at(from), at(to));
  const allDay = [{ start: '00:00', end: '24:00' }];

  it('counts only the open intervals of the zone, lunch break excluded', () => {
    // Thursday 2026-12-03 in Madrid (UTC+1): 09:30 → 18:00 is 09:30–13:00 and 14:00–18:00
    expect(minutes(madrid, '2026-12-03T08:30:00Z', '2026-12-03T17:00:00Z')).toBe(210 + 240);
    // the whole day: 4 h + 5 h
    expect(minutes(madrid, '2026-12-02T23:00:00Z', '2026-12-03T23:00:00Z')).toBe(540);
    // a span inside the lunch break, and one on a Sunday
    expect(minutes(madrid, '2026-12-03T12:10:00Z', '2026-12-03T12:50:00Z')).toBe(0);
    expect(minutes(madrid, '2026-12-06T00:00:00Z', '2026-12-06T22:00:00Z')).toBe(0);
  });

  it('is 0 when from is after or equal to to', () => {
    expect(minutes(madrid, '2026-12-03T17:00:00Z', '2026-12-03T08:30:00Z')).toBe(0);
    expect(minutes(madrid, '2026-12-03T10:00:00Z', '2026-12-03T10:00:00Z')).toBe(0);
  });

  it('keeps holidays closed all day', () => {
    // Thursday 24th (9 h), Friday 25th holiday, Saturday 26th 09:00–13:00
    expect(minutes(madrid, '2026-12-24T00:00:00Z', '2026-12-27T00:00:00Z')).toBe(540 + 240);
    expect(minutes(madrid, '2026-12-25T00:00:00Z', '2026-12-25T22:00:00Z')).toBe(0);
  });

  it('counts whole seconds: both instants taken down to their second', () => {
    expect(minutes(madrid, '2026-12-03T09:00:00.999Z', '2026-12-03T09:00:30.500Z')).toBe(0.5);
    expect(minutes(madrid, '2026-12-03T09:00:00.000Z', '2026-12-03T09:00:01.000Z')).toBe(1 / 60);
  });

  it('goes on across midnight when one day closes at 24:00 and the next opens at 00:00', () => {
    const night: BusinessHours = { zone: 'America/Lima', schedule: { fri: [{ start: '18:00', end: '24:00' }], sat: [{ start: '00:00', end: '02:00' }] }, holidays: [] };
    // Friday 2026-12-04 23:00 Lima (UTC−5) → Saturday 01:00
    expect(minutes(night, '2026-12-05T04:00:00Z', '2026-12-05T06:00:00Z')).toBe(120);
    // the whole night 18:00–02:00
    expect(minutes(night, '2026-12-04T12:00:00Z', '2026-12-05T12:00:00Z')).toBe(480);
  });

  it('follows summer time in Madrid: the change days last 23 and 25 hours', () => {
    const sundays: BusinessHours = { zone: 'Europe/Madrid', schedule: { sun: allDay }, holidays: [] };
    // 2026-03-29 at 02:00 the clock goes to 03:00; 2026-10-25 at 03:00 back to 02:00
    expect(minutes(sundays, '2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z')).toBe(23 * 60);
    expect(minutes(sundays, '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z')).toBe(25 * 60);
    // 01:00–04:00 across the change is 2 h in spring and 4 h in autumn; 09:00–18:00 stays 9 h
    const early: BusinessHours = { zone: 'Europe/Madrid', schedule: { sun: [{ start: '01:00', end: '04:00' }, { start: '09:00', end: '18:00' }] }, holidays: [] };
    expect(minutes(early, '2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z')).toBe(120 + 540);
    expect(minutes(early, '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z')).toBe(240 + 540);
    // a span starting inside the repeated hour's second pass (02:30 winter time = 01:30Z) → 04:00
    expect(minutes(early, '2026-10-25T01:30:00Z', '2026-10-25T03:00:00Z')).toBe(90);
  });

  it('follows summer time in Santiago, where the clock changes at midnight', () => {
    // Saturday 2026-04-04 24:00 (−03) goes back to 23:00 (−04): 20:00–24:00 lasts 5 h
    const saturdays: BusinessHours = { zone: 'America/Santiago', schedule: { sat: [{ start: '20:00', end: '24:00' }] }, holidays: [] };
    expect(minutes(saturdays, '2026-04-04T12:00:00Z', '2026-04-05T12:00:00Z')).toBe(300);
    // Sunday 2026-09-06 00:00 (−04) jumps to 01:00 (−03): 00:00–02:00 lasts 1 h
    const sundays: BusinessHours = { zone: 'America/Santiago', schedule: { sun: [{ start: '00:00', end: '02:00' }] }, holidays: [] };
    expect(minutes(sundays, '2026-09-05T12:00:00Z', '2026-09-06T12:00:00Z')).toBe(60);
    // an ordinary Sunday: 2 h
    expect(minutes(sundays, '2026-09-12T12:00:00Z', '2026-09-13T12:00:00Z')).toBe(120);
  });

  it('walks a 90-day span day by day (spring change inside), and years quickly', () => {
    // Monday 2026-01-05 00:00 Madrid → Sunday 2026-04-05 00:00: 12 weeks and Monday–Saturday, 2940 min each
    expect(minutes(madrid, '2026-01-04T23:00:00Z', '2026-04-04T22:00:00Z')).toBe(13 * 2940);
    const started = performance.now();
    // five years, one Christmas holiday in them
    const five = minutes(madrid, '2026-01-04T23:00:00Z', '2031-01-05T23:00:00Z');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(five).toBeGreaterThan(5 * 52 * 2940 - 540);
    expect(five).toBeLessThan(5 * 53 * 2940);
  });
});
