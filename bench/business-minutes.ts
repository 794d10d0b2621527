/**
 * What `mostrador_business_minutes` costs a report (decision 0082): one statement summing it over
 * 10,000 spans (response times: a minute to two days, and a tenth of them up to 90 days), per
 * call, against the floor — the same statement over the same spans with a bare
 * `to - from` — in the same run, alternating rounds. Also the company form (its row read per call).
 *
 *   DATABASE_URL=postgres://… npm run business-minutes --workspace @mostrador/bench   (default: PGlite)
 */
import { startBench } from './start.js';

const N = Number(process.env.N ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const { booted, user } = await startBench();
const pool = booted.database.pool as unknown as { query: (q: string, v?: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }> };

const weekday = [
  { start: '09:00', end: '13:00' },
  { start: '14:00', end: '19:00' },
];
const hours = { zone: 'America/Santiago', schedule: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [{ start: '09:00', end: '13:00' }], sun: [] }, holidays: [{ date: '2026-09-18' }, { date: '2026-09-19' }, { date: '2026-12-25' }] };
// a seeded generator: the same spans each run
let seed = 29;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const froms: string[] = [];
const tos: string[] = [];
const start = Date.parse('2026-01-01T00:00:00Z');
for (let i = 0; i < N; i++) {
  const f = start + Math.floor(random() * 330 * 86_400_000);
  const length = i % 10 === 0 ? random() * 90 * 86_400_000 : 60_000 + random() * 2 * 86_400_000;
  froms.push(new Date(f).toISOString());
  tos.push(new Date(f + length).toISOString());
}

const statements = {
  floor: 'select sum(extract(epoch from s.t - s.f)) as v from unnest($1::timestamptz[], $2::timestamptz[]) as s(f, t)',
  hours: 'select sum(mostrador_business_minutes($3::jsonb, s.f, s.t)) as v from unnest($1::timestamptz[], $2::timestamptz[]) as s(f, t)',
  company: 'select sum(mostrador_business_minutes($3::uuid, s.f, s.t)) as v from unnest($1::timestamptz[], $2::timestamptz[]) as s(f, t)',
};
const args = { floor: [froms, tos], hours: [froms, tos, JSON.stringify(hours)], company: [froms, tos, user.companyId] };
const ms = { floor: 0, hours: 0, company: 0 };
const values: Record<string, unknown> = {};
for (let round = 0; round <= ROUNDS; round++) {
  for (const k of ['floor', 'hours', 'company'] as const) {
    const t0 = performance.now();
    const { rows } = await pool.query(statements[k], args[k]);
    // round 0 warms up
    if (round > 0) ms[k] += performance.now() - t0;
    values[k] = rows[0].v;
  }
}
const perCall = (k: keyof typeof ms) => Number(((ms[k] / ROUNDS / N) * 1000).toFixed(2));
console.log(
  JSON.stringify(
    {
      database: booted.database.kind,
      spans: N,
      rounds: ROUNDS,
      microsecondsPerCall: { floor: perCall('floor'), hoursJsonb: perCall('hours'), companyRow: perCall('company') },
      timesTheFloor: { hoursJsonb: Number((ms.hours / ms.floor).toFixed(1)), companyRow: Number((ms.company / ms.floor).toFixed(1)) },
      statementMs: { floor: Number((ms.floor / ROUNDS).toFixed(1)), hoursJsonb: Number((ms.hours / ROUNDS).toFixed(1)), companyRow: Number((ms.company / ROUNDS).toFixed(1)) },
      sumOfMinutes: { plain: Number(values.floor) / 60, hoursJsonb: Number(values.hours), companyRow: Number(values.company) },
    },
    null,
    2,
  ),
);
await booted.close();
