import { type BusinessHours, businessMinutesBetween, hoursWeekdays, type OpenInterval } from '@mostrador/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.js';

/**
 * Business minutes in SQL (issue 29, decision 0082): `mostrador_business_minutes(hours, from, to)`
 * answers what the contract's businessMinutesBetween answers — to the second — on random
 * schedules, zones (several with summer time, one moving by half an hour), holidays and spans
 * around the changes; the company form reads its business_hours row, and a company with none
 * is always open (decision 0078).
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

interface Case {
  hours: BusinessHours;
  from: string;
  to: string;
}

/** Open seconds as the database counts them. */
async function sqlSeconds(c: Case): Promise<number> {
  const [row] = await t.sql<{ s: string }>('select round(mostrador_business_minutes($1::jsonb, $2::timestamptz, $3::timestamptz) * 60)::text as s', [JSON.stringify(c.hours), c.from, c.to]);
  return Number(row.s);
}
const jsSeconds = (c: Case) => Math.round(businessMinutesBetween(c.hours, new Date(c.from), new Date(c.to)) * 60);

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
/** A day's intervals: sorted distinct minutes of the day paired up (none overlap, as the contract requires). */
const dayIntervals = fc
  .uniqueArray(fc.oneof(fc.integer({ min: 0, max: 1440 }), fc.constantFrom(0, 60, 120, 150, 180, 1380, 1440)), { maxLength: 6 })
  .map((ms): OpenInterval[] => {
    const sorted = [...ms].sort((a, b) => a - b);
    const out: OpenInterval[] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2) out.push({ start: hhmm(sorted[i]), end: hhmm(sorted[i + 1]) });
    return out;
  });
const schedule = fc.tuple(...hoursWeekdays.map(() => dayIntervals)).map((days) => Object.fromEntries(hoursWeekdays.map((d, i) => [d, days[i]])));
const zones = ['Europe/Madrid', 'America/Santiago', 'America/New_York', 'Australia/Lord_Howe', 'America/Lima', 'Asia/Kolkata', 'UTC'];
/** Summer time changes of those zones, 2026: the spans start near them. */
const changes = [
  '2026-03-29T01:00:00Z',
  '2026-10-25T01:00:00Z',
  '2026-04-05T03:00:00Z',
  '2026-09-06T04:00:00Z',
  '2026-03-08T07:00:00Z',
  '2026-11-01T06:00:00Z',
  '2026-04-04T15:00:00Z',
  '2026-10-03T15:30:00Z',
].map((s) => Date.parse(s));
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const spanCase: fc.Arbitrary<Case> = fc
  .record({
    zone: fc.constantFrom(...zones),
    schedule,
    start: fc.oneof(
      fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -30 * HOUR, max: 30 * HOUR })).map(([c, d]) => c + d),
      fc.integer({ min: Date.parse('2024-01-01T00:00:00Z'), max: Date.parse('2028-12-31T00:00:00Z') }),
    ),
    length: fc.oneof(fc.integer({ min: -DAY, max: 3 * DAY }), fc.integer({ min: 0, max: 120 * DAY })),
    holidays: fc.uniqueArray(fc.integer({ min: -1, max: 121 }), { maxLength: 12 }),
  })
  .map(({ zone, schedule, start, length, holidays }) => ({
    hours: { zone, schedule, holidays: holidays.map((k) => ({ date: new Date(start + k * DAY).toISOString().slice(0, 10) })) },
    from: new Date(start).toISOString(),
    to: new Date(start + length).toISOString(),
  }));

describe('mostrador_business_minutes', () => {
  it('answers what businessMinutesBetween answers, to the second, on random schedules, zones, holidays and spans', async () => {
    let open = 0;
    await fc.assert(
      fc.asyncProperty(spanCase, async (c) => {
        const js = jsSeconds(c);
        expect(await sqlSeconds(c), JSON.stringify(c)).toBe(js);
        if (js > 0) open++;
      }),
      {
        numRuns: 300,
        // Madrid's autumn change: 01:00–04:00 holds the hour the clock repeats, the span starts in its
        // second pass (02:30 winter time) with odd milliseconds, Monday is a holiday, Tuesday counts
        examples: [
          [
            {
              hours: { zone: 'Europe/Madrid', schedule: { sun: [{ start: '01:00', end: '04:00' }], mon: [{ start: '09:00', end: '18:00' }], tue: [{ start: '09:00', end: '13:30' }] }, holidays: [{ date: '2026-10-26' }] },
              from: '2026-10-25T01:30:00.750Z',
              to: '2026-10-27T11:15:42.300Z',
            },
          ],
        ],
      },
    );
    expect(open).toBeGreaterThan(30);
  }, 300_000);

  it('counts the example by hand: 90 min of the repeated night, the holiday closed, 09:00–12:15:42 on Tuesday', async () => {
    const c: Case = {
      hours: { zone: 'Europe/Madrid', schedule: { sun: [{ start: '01:00', end: '04:00' }], mon: [{ start: '09:00', end: '18:00' }], tue: [{ start: '09:00', end: '13:30' }] }, holidays: [{ date: '2026-10-26' }] },
      from: '2026-10-25T01:30:00.750Z',
      to: '2026-10-27T11:15:42.300Z',
    };
    expect(await sqlSeconds(c)).toBe(90 * 60 + 3 * 3600 + 15 * 60 + 42);
    const [row] = await t.sql<{ m: string }>('select mostrador_business_minutes($1::jsonb, $2::timestamptz, $3::timestamptz)::float8 as m', [JSON.stringify(c.hours), c.to, c.from]);
    expect(Number(row.m)).toBe(0);
  });

  it("reads a company's business_hours row; a company with none is always open", async () => {
    const [withHours] = await t.sql<{ company_id: string; zone: string; schedule: BusinessHours['schedule']; holidays: BusinessHours['holidays'] }>(
      'select company_id::text, zone, schedule, holidays from business_hours where team_id is null order by company_id limit 1',
    );
    expect(withHours).toBeDefined();
    // a team of that company with hours of its own (open every day, all day) does not change the company's minutes
    const [team] = await t.sql<{ id: string }>(`insert into equipos_de_ventas (company_id, name) values ($1, 'Equipo nocturno') returning id::text`, [withHours.company_id]);
    const allDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
    await t.sql(`insert into business_hours (company_id, team_id, zone, schedule) values ($1, $2, 'UTC', $3::jsonb)`, [withHours.company_id, team.id, JSON.stringify(allDay)]);
    const [none] = await t.sql<{ id: string }>('select id::text from companies c where not exists (select 1 from business_hours b where b.company_id = c.id) limit 1');
    const from = '2026-12-01T10:00:00.400Z';
    const to = '2026-12-15T18:30:20.900Z';
    const [row] = await t.sql<{ saved: string; none: string }>(
      'select round(mostrador_business_minutes($1::uuid, $3::timestamptz, $4::timestamptz) * 60)::text as saved, round(mostrador_business_minutes($2::uuid, $3::timestamptz, $4::timestamptz) * 60)::text as none',
      [withHours.company_id, none.id, from, to],
    );
    const js = Math.round(businessMinutesBetween(withHours, new Date(from), new Date(to)) * 60);
    expect(js).toBeGreaterThan(0);
    expect(Number(row.saved)).toBe(js);
    // two weeks, 8 h 30 min and 20 s (the milliseconds dropped)
    expect(Number(row.none)).toBe(14 * 86_400 + 8 * 3600 + 30 * 60 + 20);
  });
});
