/**
 * A company with 1,000,000 leads: how fast is its lead list through the API?
 * Fills a fresh company with generated leads in the database (server-side generate_series,
 * the triggers keep its row count), then times GET /api/leads over HTTP: the first page in
 * the default sort (createdAt desc), the first page sorted by name, a search, and a deep
 * page (page 25,000 of 20 → offset 500,000). Prints p50/p99 of sequential requests and the
 * throughput of the first page with 10 connections.
 *
 *   npm run leads --workspace @mostrador/bench                       # PGlite (in memory)
 *   DATABASE_URL=postgres://…/empty_db npm run leads --workspace @mostrador/bench
 *   LEADS=100000 npm run leads …                                     # another size
 */
import autocannon from 'autocannon';
import { benchCompany, startBench } from './start.js';

const LEADS = Number(process.env.LEADS ?? 1_000_000);
const { booted, address, token } = await startBench();
const { pool } = booted.database;
const headers = { authorization: `Bearer ${token}` };

const company = { id: await benchCompany(booted, 'Bench') };
const companyHeaders = { ...headers, 'x-company-id': company.id };

const started = performance.now();
const BATCH = 100_000;
for (let from = 0; from < LEADS; from += BATCH) {
  await pool.query(
    `insert into leads (company_id, name, telefono, email, platform, status, details, created_at, updated_at)
     select $1,
       (array['María','José','Lucía','Carlos','Rosa','Jorge','Ana','Luis','Carmen','Miguel'])[1 + i % 10] || ' ' ||
       (array['Quispe','Flores','Sánchez','Rodríguez','García','Mamani','Huamán','Chávez','Torres','Vargas','Rojas'])[1 + i % 11] || ' ' || i,
       '519' || lpad((i::bigint * 7919 % 100000000)::text, 8, '0'),
       'cliente' || i || '@gmail.com',
       (array['whatsapp','facebook','instagram','web'])[1 + i % 4],
       (array['sin-asignar','re-conectar','informado-al-agente','compra-realizada','compra-fallida'])[1 + i % 5],
       jsonb_build_array(jsonb_build_object('message', 'Hola, quiero información', 'updatedAt', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
       now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval
     from generate_series($2::int, $3::int) as i`,
    [company.id, from, Math.min(from + BATCH, LEADS) - 1],
  );
  process.stdout.write(`\rfilled ${Math.min(from + BATCH, LEADS).toLocaleString('es-PE')} leads`);
}
await pool.query('analyze leads');
console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);

async function timed(title: string, url: string, n = 60) {
  const times: number[] = [];
  let body: { totalDocs?: number; payload?: unknown[] } = {};
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(`${address}${url}`, { headers: companyHeaders });
    body = (await res.json()) as typeof body;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    if (i >= 5) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`${title.padEnd(44)} p50 ${p(0.5).padStart(7)} ms  p99 ${p(0.99).padStart(7)} ms  (totalDocs ${body.totalDocs?.toLocaleString('es-PE')}, ${body.payload?.length} rows)`);
}

console.log(`\nGET /api/leads on ${booted.database.kind}, ${LEADS.toLocaleString('es-PE')} leads in one company (node ${process.version})`);
await timed('first page, default sort (createdAt desc)', '/api/leads');
await timed('first page, sort=name', '/api/leads?sort=name&order=asc');
await timed('search filter=cliente12345 (name/tel/email)', '/api/leads?filter=cliente12345', 10);
await timed('deep page 25,000 (offset 500,000)', '/api/leads?page=25000', 10);
const r = await autocannon({ url: `${address}/api/leads`, headers: companyHeaders, connections: 10, duration: 5 });
console.log(`first page, 10 connections: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${r.non2xx + r.errors}`);
await booted.close();
