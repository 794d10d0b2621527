/**
 * The pipeline board (issue 31, decision 0099) of a company with 1,000,000 leads: how fast is
 * GET /api/lead-board through the API, and how close to the database's own rate for the same
 * statements? Fills a fresh company in the database (server-side generate_series; the board's
 * triggers write each lead's history row and keep the column counts) with two stages of its
 * own, agents, labels and open orders — or reuses a filled one of an earlier run — then:
 *  1. p50/p95/p99 of sequential calls: the board (unfiltered: kept counts; by channel, by agent
 *     and by label: counted), «Ver más» deep in a column by cursor, a move and the funnel;
 *  2. the board and «Ver más» under autocannon (10 connections, its own process), beside the
 *     statements each call issued (captured from the pool) under pgbench -n -c 10 -j 2.
 *
 *   DATABASE_URL=postgres://…/db npm run lead-board --workspace @mostrador/bench   # PostgreSQL (pgbench needs it)
 *   LEADS=100000 BENCH_SECONDS=5 npm run lead-board …                             # another size / duration
 */
import { benchCompany, startBench } from './start.js';
import { measure, printTable, type Row } from './compare.js';

const LEADS = Number(process.env.LEADS ?? 1_000_000);
const { booted, address, token } = await startBench();
const { pool } = booted.database;
const databaseUrl = booted.database.kind === 'postgres' ? process.env.DATABASE_URL : undefined;

async function boardCompany(): Promise<{ id: string; filled: boolean }> {
  const { rows } = await pool.query<{ id: string }>(
    `select c.id from companies c join resource_counts rc on rc.company_id = c.id and rc.resource = 'leads'
      where c.name like 'Bench board%' group by c.id, c.created_at having sum(rc.n) = $1 order by c.created_at limit 1`,
    [LEADS],
  );
  if (rows[0]) {
    await pool.query(
      `insert into memberships (company_id, user_id, role, is_default) select $1, id, 'admin', false from users where email = 'admin@demo.com' on conflict do nothing`,
      [rows[0].id],
    );
    return { id: rows[0].id, filled: true };
  }
  return { id: await benchCompany(booted, 'Bench board'), filled: false };
}
const company = await boardCompany();
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company.id };

const started = performance.now();
if (!company.filled) {
  await pool.query(
    `insert into lead_stages (company_id, name, maps_to, position) values ($1, 'Cotización enviada', 'informado-al-agente', 1), ($1, 'Sin respuesta', 're-conectar', 1)`,
    [company.id],
  );
  await pool.query(
    `insert into agentes (company_id, name, email, active) select $1, 'Agente ' || i, 'agente' || i || '@bench.pe', true from generate_series(1, 20) i`,
    [company.id],
  );
  await pool.query(`insert into mostrador_labels (company_id, name, color) select $1, 'Etiqueta ' || i, '#28156C' from generate_series(1, 10) i`, [company.id]);
  const BATCH = 100_000;
  for (let from = 0; from < LEADS; from += BATCH) {
    await pool.query(
      `with a as (select array_agg(id order by name) as ids from agentes where company_id = $1),
            s as (select array_agg(id order by position, name) as ids from lead_stages where company_id = $1),
            lb as (select array_agg(id::text order by name) as ids from mostrador_labels where company_id = $1)
       insert into leads (company_id, name, telefono, platform, status, stage_id, agente_id, mostrador_labels, created_at, updated_at)
       select $1, 'Cliente ' || i, '519' || lpad((i::bigint * 7919 % 100000000)::text, 8, '0'),
         (array['whatsapp','facebook','instagram','web'])[1 + i % 4],
         (array['sin-asignar','re-conectar','informado-al-agente','compra-realizada','compra-fallida'])[1 + i % 5],
         case when i % 5 = 2 and i % 3 = 0 then s.ids[1] when i % 5 = 1 and i % 3 = 0 then s.ids[2] end,
         case when i % 5 <> 0 then a.ids[1 + i % 20] end,
         case when i % 7 = 0 then jsonb_build_array(lb.ids[1 + i % 10]) else '[]'::jsonb end,
         now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval
       from generate_series($2::int, $3::int) as i, a, s, lb`,
      [company.id, from, Math.min(from + BATCH, LEADS) - 1],
    );
    process.stdout.write(`\rfilled ${Math.min(from + BATCH, LEADS).toLocaleString('es-PE')} leads`);
  }
  // open orders for one lead in fifty
  await pool.query(
    `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id)
     select $1, 'B-' || row_number() over (), (array['created','paid','shipped','done','cancelled'])[1 + (row_number() over ())::int % 5], 'chat',
            l.name, '51900000000', '{"name":"Cliente","telefono":"51900000000"}', '[]', 99.9, 99.9, 'PEN', l.id
       from leads l where l.company_id = $1 and l.name ~ '0$' and l.created_at > now() - interval '12 days'`,
    [company.id],
  );
  await pool.query('analyze leads');
  await pool.query('analyze lead_stage_history');
  await pool.query('analyze orders');
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
} else console.log(`reusing the ${LEADS.toLocaleString('es-PE')} leads of an earlier run (company ${company.id})`);

const ids = async (sql: string) => (await pool.query<{ id: string }>(sql, [company.id])).rows[0]?.id;
const someAgent = await ids(`select id::text from agentes where company_id = $1 order by name limit 1`);
const someLabel = await ids(`select id::text from mostrador_labels where company_id = $1 order by name limit 1`);

async function timed(title: string, url: string, n = 40, init: RequestInit = {}) {
  const times: number[] = [];
  let note = '';
  for (let i = 0; i < n + 3; i++) {
    const t0 = performance.now();
    const res = await fetch(`${address}${url}`, { ...init, headers: { ...headers, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
    const body = (await res.json()) as { columns?: Array<{ count: number }>; cards?: unknown[] };
    if (res.status !== 200) {
      console.log(`${title.padEnd(46)} n/a (${res.status} ${JSON.stringify(body)})`);
      return;
    }
    if (i >= 3) times.push(performance.now() - t0);
    if (body.columns) note = `${body.columns.length} columns, ${body.columns.reduce((s, c) => s + c.count, 0).toLocaleString('es-PE')} leads`;
    else if (body.cards) note = `${body.cards.length} cards`;
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] as number).toFixed(1);
  console.log(`${title.padEnd(46)} p50 ${p(0.5).padStart(7)} ms  p95 ${p(0.95).padStart(7)} ms  p99 ${p(0.99).padStart(7)} ms  (${note})`);
}

// a cursor deep in «Informado al agente»: the board's page, then 50 «Ver más» of 100
let cursor: string | undefined = ((await (await fetch(`${address}/api/lead-board?limit=100`, { headers })).json()) as { columns: Array<{ stage: string; nextCursor?: string }> }).columns.find(
  (c) => c.stage === 'informado-al-agente',
)?.nextCursor;
for (let i = 0; i < 50 && cursor; i++) {
  cursor = ((await (await fetch(`${address}/api/lead-board/columns/informado-al-agente?limit=100&cursor=${cursor}`, { headers })).json()) as { nextCursor?: string }).nextCursor;
}
const moving = await ids(`select id::text from leads where company_id = $1 and status = 'compra-fallida' order by created_at desc limit 1`);

console.log(`\nThe pipeline board on ${booted.database.kind}, ${LEADS.toLocaleString('es-PE')} leads in one company (node ${process.version})`);
await timed('GET /api/lead-board (unfiltered, kept counts)', '/api/lead-board');
await timed('GET /api/lead-board?platform=instagram', '/api/lead-board?platform=instagram', 15);
await timed('GET /api/lead-board?agenteId=…', `/api/lead-board?agenteId=${someAgent}`, 15);
await timed('GET /api/lead-board?mostradorLabels=…', `/api/lead-board?mostradorLabels=${someLabel}`, 15);
if (cursor) await timed('GET …/columns/informado-al-agente (cursor 5,100)', `/api/lead-board/columns/informado-al-agente?cursor=${cursor}`);
for (const [i, to] of ['compra-realizada', 'compra-fallida'].entries()) {
  await timed(`POST /api/lead-board/move (${i ? 'back' : 'there'})`, '/api/lead-board/move', 1, { method: 'POST', body: JSON.stringify({ leadId: moving, toStage: to }) });
}
await timed('GET /api/lead-board/funnel (90 days)', '/api/lead-board/funnel', 5);

console.log(`\n10 connections, ${process.env.BENCH_SECONDS ?? 10} s each; pgbench: the statements each call issued, same parameters`);
const rows: Row[] = [
  await measure(pool, databaseUrl, 'GET /api/lead-board (unfiltered)', `${address}/api/lead-board`, headers),
  await measure(pool, databaseUrl, 'GET /api/lead-board?platform=instagram', `${address}/api/lead-board?platform=instagram`, headers),
  cursor
    ? await measure(pool, databaseUrl, 'GET …/columns/…?cursor= (deep)', `${address}/api/lead-board/columns/informado-al-agente?cursor=${cursor}`, headers)
    : { title: 'GET …/columns/…?cursor= (deep)', note: 'n/a (no cursor)' },
];
printTable(rows);
await booted.close();
