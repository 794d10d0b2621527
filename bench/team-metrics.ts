/**
 * How the team answers (issue 31, decision 0094) for a company with 200,000 conversations over
 * the last 180 days: how fast is GET /api/metrics/team, and how close to the database's own rate
 * for the same statements? Fills a fresh company (server-side generate_series straight into
 * team_conversations — what the spine's listener writes — with 20 agents in 4 teams, 10 labels,
 * 4 channels and a paid order for one conversation in ten), or reuses one of an earlier run, then:
 *  1. p50/p95/p99 of sequential calls per grouping, over 30 and 180 days, beside the p95 of the
 *     same statements run one after another on one connection (the floor);
 *  2. the calls under autocannon (10 connections, its own process) beside the statements each
 *     call issued (captured from the pool) under pgbench -n -c 10 -j 2.
 *
 *   DATABASE_URL=postgres://…/db npm run team-metrics --workspace @mostrador/bench   # PostgreSQL (pgbench needs it)
 *   CONVERSATIONS=50000 BENCH_SECONDS=5 npm run team-metrics …                      # another size / duration
 */
import { type Captured, capture, inline, measure, printTable, type Row } from './compare.js';
import { benchCompany, startBench } from './start.js';

const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 200_000);
const { booted, address, token } = await startBench();
const { pool } = booted.database;
const databaseUrl = booted.database.kind === 'postgres' ? process.env.DATABASE_URL : undefined;

async function teamCompany(): Promise<{ id: string; filled: boolean }> {
  const { rows } = await pool.query<{ id: string }>(
    `select c.id from companies c where c.name like 'Bench team%'
        and (select count(*) from team_conversations t where t.company_id = c.id) = $1 order by c.created_at limit 1`,
    [CONVERSATIONS],
  );
  if (rows[0]) {
    await pool.query(`insert into memberships (company_id, user_id, role, is_default) select $1, id, 'admin', false from users where email = 'admin@demo.com' on conflict do nothing`, [rows[0].id]);
    return { id: rows[0].id, filled: true };
  }
  return { id: await benchCompany(booted, 'Bench team'), filled: false };
}
const company = await teamCompany();
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company.id };

const started = performance.now();
if (!company.filled) {
  await pool.query(`insert into equipos_de_ventas (company_id, name) select $1, 'Equipo ' || i from generate_series(1, 4) i`, [company.id]);
  // 20 agents, each a user id of its own (answers are by user), in 4 teams
  await pool.query(
    `with t as (select array_agg(id order by name) as ids from equipos_de_ventas where company_id = $1)
     insert into agentes (company_id, name, user_id, equipo_de_ventas_id, active)
     select $1, 'Agente ' || i, gen_random_uuid()::text, t.ids[1 + i % 4], true from generate_series(1, 20) i, t`,
    [company.id],
  );
  await pool.query(`insert into mostrador_labels (company_id, name, color) select $1, 'Etiqueta ' || i, '#28156C' from generate_series(1, 10) i`, [company.id]);
  // a lead per 20 conversations, one in three with a label
  await pool.query(
    `with lb as (select array_agg(id::text order by name) as ids from mostrador_labels where company_id = $1)
     insert into leads (company_id, name, platform, status, mostrador_labels)
     select $1, 'Cliente ' || i, 'whatsapp', 'sin-asignar', case when i % 3 = 0 then jsonb_build_array(lb.ids[1 + i % 10]) else '[]'::jsonb end
       from generate_series(1, $2::int / 20) i, lb`,
    [company.id, CONVERSATIONS],
  );
  const BATCH = 50_000;
  for (let from = 0; from < CONVERSATIONS; from += BATCH) {
    // first responses skewed (most within minutes, a tail of hours); 4 in 5 resolved; 1 in 12 reopened
    await pool.query(
      `with a as (select array_agg(user_id::uuid order by name) as ids from agentes where company_id = $1),
            l as (select array_agg(id order by name) as ids from leads where company_id = $1)
       insert into team_conversations (company_id, chat_id, started_at, channel, lead_id, agent_user, first_response_at, first_wall_s, first_business_s,
                                       next_responses, next_wall_s, next_business_s, resolved_at, resolution_wall_s, resolution_business_s, reopenings)
       select $1, gen_random_uuid(), s.at, (array['whatsapp','facebook','instagram','telegram'])[1 + i % 4], l.ids[1 + i % greatest(1, array_length(l.ids, 1))],
              case when i % 25 <> 0 then a.ids[1 + i % 20] end,
              case when i % 25 <> 0 then s.at + make_interval(secs => s.fr) end,
              case when i % 25 <> 0 then s.fr end, case when i % 25 <> 0 then (s.fr * 0.6)::int end,
              i % 4, (i % 4) * 240, (i % 4) * 180,
              case when i % 5 <> 0 then s.at + make_interval(secs => s.res) end,
              case when i % 5 <> 0 then s.res end, case when i % 5 <> 0 then (s.res * 0.4)::int end,
              case when i % 12 = 0 then 1 else 0 end
         from generate_series($2::int, $3::int) as i, a, l,
              lateral (select now() - make_interval(secs => (i::bigint * 7919 % (180 * 86400))::int) as at,
                              (30 + power((i * 37 % 1000) / 1000.0, 3) * 14400)::int as fr,
                              (600 + (i * 53 % 1000) * 170)::int as res) s`,
      [company.id, from, Math.min(from + BATCH, CONVERSATIONS) - 1],
    );
    process.stdout.write(`\rfilled ${Math.min(from + BATCH, CONVERSATIONS).toLocaleString('es-PE')} conversations`);
  }
  await pool.query(
    `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, chat_id, created_at)
     select $1, 'T-' || row_number() over (), (array['paid','shipped','done','created','cancelled'])[1 + (row_number() over ())::int % 5], 'chat',
            'Cliente', '51900000000', '{"name":"Cliente","telefono":"51900000000"}', '[]', 120, 120, 'PEN', t.chat_id, t.started_at + interval '2 hours'
       from team_conversations t where t.company_id = $1 and abs(hashtext(t.chat_id::text)) % 10 = 0`,
    [company.id],
  );
  await pool.query('analyze team_conversations');
  await pool.query('analyze orders');
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
} else console.log(`reusing the ${CONVERSATIONS.toLocaleString('es-PE')} conversations of an earlier run (company ${company.id})`);

const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
const pct = (times: number[], q: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(q * times.length))] as number;

/** The statements of one call, run one after another on one connection: its floor. */
async function floorOf(statements: Captured[], n: number): Promise<number[]> {
  const client = await pool.connect();
  try {
    const times: number[] = [];
    for (let i = 0; i < n + 2; i++) {
      const t0 = performance.now();
      for (const s of statements) await client.query(inline(s));
      if (i >= 2) times.push(performance.now() - t0);
    }
    return times;
  } finally {
    client.release();
  }
}

async function timed(title: string, url: string, n = 30) {
  const call = async () => {
    const res = await fetch(`${address}${url}`, { headers });
    const body = (await res.json()) as { rows?: Array<{ conversations: number }> };
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  let note = '';
  const times: number[] = [];
  try {
    for (let i = 0; i < n + 3; i++) {
      const t0 = performance.now();
      const body = await call();
      if (i >= 3) times.push(performance.now() - t0);
      note = `${body.rows?.length ?? 0} rows, ${(body.rows ?? []).reduce((s, r) => s + r.conversations, 0).toLocaleString('es-PE')} conversations`;
    }
  } catch (error) {
    console.log(`${title.padEnd(44)} n/a (${(error as Error).message})`);
    return;
  }
  const statements = await capture(pool, call);
  const floor = await floorOf(statements, n);
  const f = (v: number) => v.toFixed(1).padStart(7);
  console.log(
    `${title.padEnd(44)} p50 ${f(pct(times, 0.5))} ms  p95 ${f(pct(times, 0.95))} ms  p99 ${f(pct(times, 0.99))} ms` +
      ` | same SQL p95 ${f(pct(floor, 0.95))} ms (${statements.length} statements)  (${note})`,
  );
}

console.log(`\nGET /api/metrics/team on ${booted.database.kind}, ${CONVERSATIONS.toLocaleString('es-PE')} conversations over 180 days in one company (node ${process.version})`);
for (const groupBy of ['agent', 'team', 'channel', 'label']) {
  await timed(`groupBy=${groupBy}, last 30 days`, `/api/metrics/team?from=${day(29)}&to=${day(0)}&groupBy=${groupBy}`);
}
await timed('groupBy=agent, last 180 days', `/api/metrics/team?from=${day(179)}&to=${day(0)}&groupBy=agent`, 10);
await timed('groupBy=label, last 180 days', `/api/metrics/team?from=${day(179)}&to=${day(0)}&groupBy=label`, 10);

console.log(`\n10 connections, ${process.env.BENCH_SECONDS ?? 10} s each; pgbench: the statements each call issued, same parameters`);
const rows: Row[] = [
  await measure(pool, databaseUrl, 'agent, 30 days', `${address}/api/metrics/team?from=${day(29)}&to=${day(0)}&groupBy=agent`, headers),
  await measure(pool, databaseUrl, 'label, 30 days', `${address}/api/metrics/team?from=${day(29)}&to=${day(0)}&groupBy=label`, headers),
  await measure(pool, databaseUrl, 'agent, 180 days', `${address}/api/metrics/team?from=${day(179)}&to=${day(0)}&groupBy=agent`, headers),
];
printTable(rows);
await booted.close();
