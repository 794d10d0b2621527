import { describe, expect, it } from 'vitest';
import { type BusinessHours, businessHoursIn, isOpen, openingPeriodOf } from './business-hours.js';

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
