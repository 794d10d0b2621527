/**
 * A company with 1,000,000 leads: how fast is its lead list through the API, and how close
 * to the database's own rate for the same statements (issue 10, decision 0023)?
 * Fills a fresh company with generated leads in the database (server-side generate_series,
 * the triggers keep its row count) — or reuses a filled one of an earlier run on the same
 * database — then:
 *  1. p50/p99 of sequential GET /api/leads: first page (createdAt desc), sort=name, a search,
 *     a deep page by `page` (offset 500,000) and the same depth by `cursor`;
 *  2. the table of issue 10: /api/health, /api/auth, the first page, the deep page by page and
 *     by cursor, each under autocannon (10 connections, its own process), the statements each
 *     call issued (captured from the pool) and the same statements with the same parameters
 *     under pgbench -n -c 10 -j 2, with the ratio.
 *
 *   DATABASE_URL=postgres://…/db npm run leads --workspace @mostrador/bench   # PostgreSQL (pgbench needs it)
 *   npm run leads --workspace @mostrador/bench                                # PGlite in memory, no pgbench
 *   LEADS=100000 BENCH_SECONDS=5 npm run leads …                               # another size / duration
 */
import { benchCompany, startBench } from './start.js';
import { measure, printTable, type Row } from './compare.js';

const LEADS = Number(process.env.LEADS ?? 1_000_000);
const { booted, address, token, user } = await startBench();
const { pool } = booted.database;
const databaseUrl = booted.database.kind === 'postgres' ? process.env.DATABASE_URL : undefined;
const headers = { authorization: `Bearer ${token}` };

/** A company of an earlier run with the leads already there (same database), else a fresh one. */
async function leadsCompany(): Promise<{ id: string; filled: boolean }> {
  const { rows } = await pool.query<{ id: string }>(
    `select c.id from companies c join resource_counts rc on rc.company_id = c.id and rc.resource = 'leads'
      where c.name like 'Bench leads%' and rc.n = $1 order by c.created_at limit 1`,
    [LEADS],
  );
  if (rows[0]) {
    await pool.query(
      `insert into memberships (company_id, user_id, role, is_default) select $1, id, 'admin', false from users where email = 'admin@demo.com' on conflict do nothing`,
      [rows[0].id],
    );
    return { id: rows[0].id, filled: true };
  }
  return { id: await benchCompany(booted, 'Bench leads'), filled: false };
}
const company = await leadsCompany();
const companyHeaders = { ...headers, 'x-company-id': company.id };

const started = performance.now();
const BATCH = 100_000;
for (let from = 0; !company.filled && from < LEADS; from += BATCH) {
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
if (!company.filled) {
  await pool.query('analyze leads');
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
} else console.log(`reusing the ${LEADS.toLocaleString('es-PE')} leads of an earlier run (company ${company.id})`);

async function timed(title: string, url: string, n = 60) {
  const times: number[] = [];
  let body: { totalDocs?: number; payload?: unknown[] } = {};
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(`${address}${url}`, { headers: companyHeaders });
    body = (await res.json()) as typeof body;
    if (res.status !== 200) {
      console.log(`${title.padEnd(44)} n/a (${res.status})`);
      return;
    }
    if (i >= 5) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`${title.padEnd(44)} p50 ${p(0.5).padStart(7)} ms  p99 ${p(0.99).padStart(7)} ms  (totalDocs ${body.totalDocs?.toLocaleString('es-PE')}, ${body.payload?.length} rows)`);
}

// the cursor of the row just before offset 500,000: the deep page by cursor starts where page 25,000 starts
const DEEP_PAGE = Math.floor(LEADS / 2 / 20);
const before = (await (await fetch(`${address}/api/leads?page=${DEEP_PAGE - 1}`, { headers: companyHeaders })).json()) as { nextCursor?: string };
const deepCursor = before.nextCursor;

console.log(`\nGET /api/leads on ${booted.database.kind}, ${LEADS.toLocaleString('es-PE')} leads in one company (node ${process.version})`);
await timed('first page, default sort (createdAt desc)', '/api/leads');
await timed('first page, sort=name', '/api/leads?sort=name&order=asc');
await timed('search filter=cliente12345 (name/tel/email)', '/api/leads?filter=cliente12345', 10);
await timed(`deep page ${DEEP_PAGE.toLocaleString('es-PE')} (offset ${((DEEP_PAGE - 1) * 20).toLocaleString('es-PE')})`, `/api/leads?page=${DEEP_PAGE}`, 10);
if (deepCursor) await timed('the same page by cursor', `/api/leads?cursor=${deepCursor}&page=${DEEP_PAGE}`, 60);
else console.log('the same page by cursor                      n/a (no nextCursor: this server has no cursors)');

console.log(`\n10 connections, ${process.env.BENCH_SECONDS ?? 10} s each; pgbench: the statements each call issued, same parameters`);
const authHeaders = { authorization: `Bearer ${token}`, 'x-company-id': user.companyId };
const rows: Row[] = [
  await measure(pool, databaseUrl, 'GET /api/health (select 1, no auth)', `${address}/api/health`),
  await measure(pool, databaseUrl, 'GET /api/auth (authenticated no-op)', `${address}/api/auth?module=users&action=list`, authHeaders),
  await measure(pool, databaseUrl, 'GET /api/leads first page', `${address}/api/leads`, companyHeaders),
  await measure(pool, databaseUrl, `GET /api/leads?page=${DEEP_PAGE}`, `${address}/api/leads?page=${DEEP_PAGE}`, companyHeaders),
  deepCursor
    ? await measure(pool, databaseUrl, 'GET /api/leads?cursor= (same depth)', `${address}/api/leads?cursor=${deepCursor}&page=${DEEP_PAGE}`, companyHeaders)
    : { title: 'GET /api/leads?cursor= (same depth)', note: 'n/a (no cursors)' },
];
printTable(rows);
await booted.close();
