/**
 * What the audit log costs a write (decision 0072): the statements and milliseconds of a lead's
 * create through the API with its audit row, and the same INSERT replayed with and without the
 * audit CTE (the exact statement the product sent, captured from its pool), alternating batches.
 *
 *   DATABASE_URL=postgres://… npm run audit-cost --workspace @mostrador/bench   (default: PGlite)
 */
import { startBench } from './start.js';

const N = Number(process.env.N ?? 500);
const { booted, address, token, user } = await startBench();
const pool = booted.database.pool as unknown as { query: (q: unknown, v?: unknown[]) => Promise<{ rows: unknown[] }> };
const sent: Array<{ text: string; values: unknown[] }> = [];
const original = pool.query.bind(pool);
pool.query = (q: unknown, v?: unknown[]) => {
  const text = typeof q === 'string' ? q : (q as { text: string }).text;
  const values = v ?? (q as { values?: unknown[] }).values ?? [];
  sent.push({ text, values });
  return original(q as never, v as never);
};
const headers = { authorization: `Bearer ${token}`, 'x-company-id': user.companyId, 'content-type': 'application/json' };
const create = (i: number) =>
  fetch(`${address}/api/leads`, { method: 'POST', headers, body: JSON.stringify({ name: `Bench ${i}`, telefono: `569${String(10_000_000 + i)}`, platform: 'whatsapp', status: 'sin-asignar' }) });

// warm up, then the API figure
for (let i = 0; i < 20; i++) await create(i);
sent.length = 0;
let t0 = performance.now();
for (let i = 0; i < N; i++) {
  const res = await create(1000 + i);
  if (res.status !== 201) throw new Error(`create ${res.status} ${await res.text()}`);
}
const apiMs = (performance.now() - t0) / N;
const perCreate = sent.length / N;
const audited = sent.find((s) => s.text.includes('audit_log') && s.text.includes('insert into "leads"'));
if (!audited) throw new Error('no audited insert seen');

// the same INSERT with and without its audit CTE
const inner = audited.text.slice(audited.text.indexOf('with r as (') + 'with r as ('.length, audited.text.indexOf('), audited as ('));
const used = Math.max(...[...inner.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
const plain = { text: inner, values: audited.values.slice(0, used) };
const run = async (q: { text: string; values: unknown[] }, n: number) => {
  const start = performance.now();
  for (let i = 0; i < n; i++) await original({ text: q.text, values: q.values } as never);
  return performance.now() - start;
};
let withMs = 0;
let withoutMs = 0;
for (let round = 0; round < 10; round++) {
  withMs += await run(audited, N / 10);
  withoutMs += await run(plain, N / 10);
}
t0 = performance.now();
const rows = (await original('select count(*)::int as n from audit_log' as never)).rows as Array<{ n: number }>;
console.log(
  JSON.stringify(
    {
      database: booted.database.kind,
      creates: N,
      statementsPerCreateViaApi: perCreate,
      msPerCreateViaApi: Number(apiMs.toFixed(3)),
      msPerInsertWithAudit: Number((withMs / N).toFixed(3)),
      msPerInsertWithoutAudit: Number((withoutMs / N).toFixed(3)),
      auditCostMsPerWrite: Number(((withMs - withoutMs) / N).toFixed(3)),
      auditRows: rows[0]?.n,
    },
    null,
    2,
  ),
);
await booted.close();
process.exit(0);
