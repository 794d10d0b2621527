/**
 * Metrics from rollups (issue 14, decision 0045): one company with 10,000,000 messages and
 * 1,000,000 leads. How fast is each of the 19 calls, what do the rollup triggers cost a message
 * write, and how long after a burst of customer messages do the figures show it?
 *
 * Fills a fresh company server-side (generate_series, through the triggers as any write):
 * LEADS leads and clean leads over two years, the first CHATS of them with a chat over the three
 * platforms, MESSAGES messages spread over the chats (alternating in/out, a few failed), an
 * analysis for every chat, an order for a fifth, a tenth of the leads arriving from one of 60
 * ads of 12 campaigns (their referral, and two years of daily spend). Then:
 * - the write cost: 500-row message batches (as the sending engine writes) and single-row inserts
 *   (as a webhook does), with the metrics triggers and with them disabled;
 * - each call, sequential p50/p95 over HTTP with a 12-month window and the whole two years;
 * - on PostgreSQL, a few calls under 10 connections beside pgbench of the very statements they
 *   issued (bench/compare.ts): the floor;
 * - the lag: BURST signed WhatsApp webhook deliveries (default 10,000 messages from 2,000 new
 *   people, 20 connections) through the real path (webhook → queue → inbox → triggers → analysis
 *   job): seconds until `total_messages` counts them all, and until `sentiment_analysis_counts`
 *   counts every one of their chats analysed (this process runs the jobs, ANALYSIS=on).
 *
 *   DATABASE_URL=postgres://…/empty_db npm run metrics --workspace @mostrador/bench
 *   LEADS=100000 CHATS=20000 MESSAGES=500000 BURST=2000 npm run metrics --workspace @mostrador/bench   # PGlite, smaller
 */
import { metricNames } from '@mostrador/contract';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sign, whatsappText } from '../apps/server/test/fakes/meta.js';
import { cannon, capture, inline, pgbench, printTable, type Row } from './compare.js';
import { benchCompany, failUnansweredFetches, signIn, startBench } from './start.js';

const CHATS = Number(process.env.CHATS ?? 200_000);
const MESSAGES = Number(process.env.MESSAGES ?? 10_000_000);
const LEADS = Math.max(CHATS, Number(process.env.LEADS ?? 1_000_000));
const BURST = Number(process.env.BURST ?? 10_000);
// ONLY=burst, ONLY=writes, ONLY=meta_ad_spend,ceo_dashboard…: just those parts (with REUSE=1, a quick rerun)
const ONLY = process.env.ONLY?.split(',').map((p) => p.trim());
const part = (name: string) => !ONLY || ONLY.includes(name);
const calls = metricNames.filter(part);
// JOB_PROCESSES=N (PostgreSQL): the jobs run in N `npm run worker` processes, as a deployment on
// PostgreSQL runs them, and this process only serves HTTP (and sends the burst); 0: all in this one
const JOB_PROCESSES = Number(process.env.JOB_PROCESSES ?? 0);
failUnansweredFetches();
const { booted, address, token } = await startBench({ work: JOB_PROCESSES === 0, env: { ANALYSIS: 'on' } });
const { pool } = booted.database;
// REUSE=1: the newest company an earlier run filled on this database (its fill takes ~15 minutes)
const reused = process.env.REUSE === '1' ? (await pool.query<{ id: string }>(`select id from companies where name like 'Bench métricas%' order by created_at desc limit 1`)).rows[0]?.id : undefined;
const company = reused ?? (await benchCompany(booted, 'Bench métricas'));
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' };
const renew = async () => {
  headers.authorization = `Bearer ${(await signIn(address)).token}`;
};
const DAYS = 730;

const started = performance.now();
if (!reused) {
  const BATCH = 20_000;
  for (let from = 0; from < CHATS; from += BATCH) {
    const to = Math.min(from + BATCH, CHATS) - 1;
    await pool.query(
      `with people as (
         select i, (array['whatsapp','facebook','instagram'])[1 + i % 3] as platform, 'Persona ' || i as name,
                now() - make_interval(secs => (i::bigint * 7919) % (${DAYS} * 86400)) as at
           from generate_series($2::int, $3::int) as i),
       cl as (insert into clean_leads (company_id, name, status, created_at) select $1, name, 'sin-asignar', at from people returning id),
       l as (insert into leads (company_id, name, platform, status, platform_user_id, created_at)
             select $1, name, platform, 'sin-asignar', 'u' || i, at from people returning id, name, platform, created_at)
       insert into chats (company_id, contact_name, platform, lead_id, status, created_at)
       select $1, name, platform, id, 'open', created_at from l`,
      [company, from, to],
    );
    process.stdout.write(`\rchats ${(to + 1).toLocaleString('es-PE')}`);
}
for (let from = CHATS; from < LEADS; from += 50_000) {
  const to = Math.min(from + 50_000, LEADS) - 1;
  await pool.query(
    `with people as (
       select i, (array['whatsapp','facebook','instagram','woocommerce','importado'])[1 + i % 5] as platform, 'Persona ' || i as name,
              now() - make_interval(secs => (i::bigint * 7919) % (${DAYS} * 86400)) as at
         from generate_series($2::int, $3::int) as i),
     cl as (insert into clean_leads (company_id, name, status, created_at) select $1, name, 'sin-asignar', at from people returning id)
     insert into leads (company_id, name, platform, status, platform_user_id, created_at)
     select $1, name, platform, 'sin-asignar', 'u' || i, at from people`,
    [company, from, to],
  );
  process.stdout.write(`\rleads ${(to + 1).toLocaleString('es-PE')}`);
}
console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
// 12 campaigns of 5 ads each, two years of daily spend; a tenth of the leads came from one of the ads
await pool.query(
  `insert into meta_ads (company_id, ad_id, campaign_id, campaign_name)
   select $1, 'ad-' || c || '-' || a, 'cmp-' || c, 'Campaña ' || c from generate_series(1, 12) c cross join generate_series(1, 5) a`,
  [company],
);
await pool.query(
  `insert into ad_spend_daily (company_id, day, campaign_id, campaign_name, currency, spend, impressions, clicks)
   select $1, (now() - make_interval(days => d))::date, 'cmp-' || c, 'Campaña ' || c, 'USD', 5 + (c * d) % 40, 1000 + (c * d) % 900, 20 + (c * d) % 70
     from generate_series(1, 12) c cross join generate_series(0, ${DAYS - 1}) d`,
  [company],
);
await pool.query(
  `insert into lead_referrals (company_id, lead_id, platform, referral, created_at)
   select $1, id, platform, jsonb_build_object('sourceType', 'ad', 'sourceId', 'ad-' || (1 + (n / 10) % 12) || '-' || (1 + (n / 120) % 5), 'headline', 'Oferta ' || (1 + n % 12), 'ctwaClid', 'b' || n), created_at
     from (select id, platform, created_at, row_number() over (order by id) as n from leads where company_id = $1) l where n % 10 = 0`,
  [company],
);

}
const chatIds = (await pool.query<{ id: string }>('select id from chats where company_id = $1 order by created_at', [company])).rows.map((r) => r.id);
const perChat = Math.max(1, Math.round(MESSAGES / chatIds.length));
if (!reused) {
  const msgStart = performance.now();
  const CHAT_BATCH = Math.max(1, Math.floor(200_000 / perChat));
  for (let from = 0; from < chatIds.length; from += CHAT_BATCH) {
    await pool.query(
      `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at)
       select $1, c.id, case when n % 2 = 0 then 'in' else 'out' end, 'text', 'Mensaje ' || n,
              case when n % 2 = 0 then 'received' when n % 37 = 1 then 'failed' else 'read' end,
              c.created_at + make_interval(mins => n * 7)
         from chats c cross join generate_series(1, ${perChat}) as n
        where c.company_id = $1 and c.id = any($2::uuid[])`,
      [company, chatIds.slice(from, from + CHAT_BATCH)],
    );
    process.stdout.write(`\rmessages ${Math.min((from + CHAT_BATCH) * perChat, chatIds.length * perChat).toLocaleString('es-PE')}`);
}
console.log(`  (${((performance.now() - msgStart) / 1000).toFixed(1)} s)`);
// the inbox's own last message time, and an analysis of every chat up to it: nothing is waiting for the analysis job
await pool.query(
  `update chats c set last_message_at = to_char(m.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
     from (select chat_id, max(sent_at) as at from chat_messages where company_id = $1 group by chat_id) m
    where c.company_id = $1 and c.id = m.chat_id`,
  [company],
);
await pool.query(
  `insert into chat_analyses (chat_id, company_id, sentiment, motive, dissatisfaction_origin, cross_sell_offered, cross_sell_taken, personalised_promotion, quality, category, engine, messages, last_message_at)
   select id, company_id, (array['positive','neutral','negative'])[1 + n % 3], (array['precio','stock','compra','envio','pago','reclamo','horario','otro'])[1 + n % 8],
          case when n % 3 = 2 then (array['demora','precio','producto','entrega','atencion','pago','otro'])[1 + n % 7] end,
          n % 4 = 0, n % 8 = 0, n % 5 = 0, 1 + n % 5, (array['venta','soporte','postventa','informacion','spam'])[1 + n % 5], 'embedded', ${perChat}, last_message_at::timestamptz
     from (select id, company_id, last_message_at, row_number() over (order by id) as n from chats where company_id = $1) c`,
  [company],
);
await pool.query(
  `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id, chat_id, created_at)
   select $1, 'B-' || n, (array['created','paid','shipped','done','cancelled'])[1 + n % 5], 'catalogo', 'Cliente', '51999999999', '{}', '[]', 10 + n % 500, 10 + n % 500,
          case when n % 10 = 0 then 'USD' else 'PEN' end, lead_id, id, created_at + interval '2 hours'
     from (select id, lead_id, created_at, row_number() over (order by id) as n from chats where company_id = $1) c where n % 5 = 0`,
  [company],
);
}
// what the fill's writers staged, in the rollups (migration 0042; a metric call would fold it first too)
const foldStart = performance.now();
await pool.query('select mostrador_metrics_fold($1)', [company]);
if (!reused) console.log(`fold of the fill's staged rollup rows: ${((performance.now() - foldStart) / 1000).toFixed(1)} s`);
if (!reused && booted.database.kind === 'postgres') {
  // as pgbench -i does after its load: vacuumed (visibility map and hint bits set, so the phases do
  // not pay for the fill's first reads) and checkpointed (the fill's dirty pages written now, not
  // during the burst); this machine's PostgreSQL runs with autovacuum off
  const tidy = performance.now();
  await pool.query('vacuum (analyze)');
  await pool.query('checkpoint');
  console.log(`vacuum and checkpoint after the fill: ${((performance.now() - tidy) / 1000).toFixed(1)} s`);
} else await pool.query('analyze');
const [{ n: stored }] = (await pool.query<{ n: number }>('select count(*)::int as n from chat_messages where company_id = $1', [company])).rows;
const [{ n: leadCount }] = (await pool.query<{ n: number }>('select count(*)::int as n from leads where company_id = $1', [company])).rows;
const rollupRows = (
  await pool.query<{ t: string; n: number }>(
    `select 'messages_daily' as t, count(*)::int as n from metrics_messages_daily where company_id = $1 union all
     select 'chat_months', count(*)::int from metrics_chat_months where company_id = $1 union all
     select 'entities_daily', count(*)::int from metrics_entities_daily where company_id = $1 union all
     select 'analyses_daily', count(*)::int from metrics_analyses_daily where company_id = $1 union all
     select 'sales_daily', count(*)::int from metrics_sales_daily where company_id = $1`,
    [company],
  )
).rows;
console.log(`\n${booted.database.kind}: ${stored.toLocaleString('es-PE')} messages, ${leadCount.toLocaleString('es-PE')} leads, ${CHATS.toLocaleString('es-PE')} chats; rollup rows: ${rollupRows.map((r) => `${r.t} ${r.n.toLocaleString('es-PE')}`).join(', ')}`);

// ---- the write cost ----
const triggers = ['metrics_chat_messages_ins', 'metrics_chat_messages_del', 'metrics_chat_messages_upd'];
async function writes(label: string) {
  const sample = chatIds.slice(0, 500);
  let t0 = performance.now();
  for (let i = 0; i < 40; i++) {
    await pool.query(
      `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at) select $1, unnest($2::uuid[]), 'out', 'text', 'Campaña', 'sent', now()`,
      [company, sample],
    );
  }
  const batch = (performance.now() - t0) / 40;
  t0 = performance.now();
  for (let i = 0; i < 500; i++) {
    await pool.query(`insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at) values ($1, $2, 'in', 'text', 'Hola', 'received', now())`, [company, sample[i]]);
  }
  const single = (performance.now() - t0) / 500;
  console.log(`${label.padEnd(34)} 500-row batch ${batch.toFixed(1).padStart(6)} ms   single-row insert ${single.toFixed(2).padStart(6)} ms`);
}
if (part('writes')) {
  console.log('\nmessage writes');
  await writes('with the metrics triggers');
  for (const t of triggers) await pool.query(`alter table chat_messages disable trigger ${t}`);
  await writes('without them');
  for (const t of triggers) await pool.query(`alter table chat_messages enable trigger ${t}`);
  // what was written without the triggers is counted again by a rebuild (the repair command's job)
  const rebuildStart = performance.now();
  await pool.query(`select mostrador_metrics_rebuild($1, 'America/Lima')`, [company]);
  console.log(`rebuild of the company's rollups: ${((performance.now() - rebuildStart) / 1000).toFixed(1)} s`);
}

// ---- the calls ----
const today = new Date();
const day = (d: Date) => d.toISOString().slice(0, 10);
const windows = {
  '12 months': { from: day(new Date(today.getTime() - 365 * 86_400_000)), to: day(today) },
  '2 years': { from: day(new Date(today.getTime() - DAYS * 86_400_000)), to: day(today) },
};
const post = (name: string, body: object) => fetch(`${address}/api/metrics/${name}`, { method: 'POST', headers, body: JSON.stringify(body) });

async function timed(name: string, body: object, n = 60) {
  const times: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now();
    const res = await post(name, body);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${text}`);
    if (i >= 5) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
}

await renew();
console.log(`\nPOST /api/metrics/<name>, sequential, 60 calls each (node ${process.version})`);
console.log(`${'call'.padEnd(32)} ${Object.keys(windows).map((w) => `${w}: p50 / p95 ms`.padStart(26)).join('')}`);
let worst = 0;
for (const name of calls) {
  const cells: string[] = [];
  for (const body of Object.values(windows)) {
    const p = await timed(name, body);
    worst = Math.max(worst, p(0.95));
    cells.push(`${p(0.5).toFixed(1).padStart(8)} / ${p(0.95).toFixed(1).padStart(7)}`.padStart(26));
  }
  console.log(`${name.padEnd(32)} ${cells.join('')}`);
}
if (calls.length) console.log(`worst p95: ${worst.toFixed(1)} ms (goal ≤ 50 ms)`);

if (booted.database.kind === 'postgres' && process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  console.log(`\n10 connections, ${process.env.BENCH_SECONDS ?? 10} s each, 12-month window; pgbench: the statements each call issued, same parameters`);
  const rows: Row[] = [];
  for (const name of (['total_messages', 'messages_by_channel_by_month', 'sentiment_analysis', 'ceo_dashboard', 'meta_ad_spend'] as const).filter(part)) {
    const body = JSON.stringify(windows['12 months']);
    const call = async () => (await post(name, windows['12 months'])).arrayBuffer();
    await call();
    while (pool.totalCount > pool.idleCount || pool.waitingCount > 0) await new Promise((r) => setTimeout(r, 50));
    const tries = [await capture(pool, call), await capture(pool, call), await capture(pool, call)];
    const statements = tries.reduce((a, b) => (b.length < a.length ? b : a));
    const http = await cannon(`${address}/api/metrics/${name}`, headers, { method: 'POST', body });
    rows.push({ title: `POST /api/metrics/${name}`, http, sql: await pgbench(url, statements.map(inline)), prepared: await pgbench(url, statements.map(inline), 'prepared'), queries: statements.length });
  }
  if (rows.length) printTable(rows);
}

// ---- the lag after a burst of customer messages ----
if (BURST > 0 && part('burst')) {
  await renew();
  const LINE = '199000000000077';
  const put = await fetch(`${address}/api/channels/whatsapp`, { method: 'PUT', headers, body: JSON.stringify({ phoneNumberId: LINE }) });
  if (!put.ok) throw new Error(`canal: ${put.status} ${await put.text()}`);
  const sample = (JSON.parse(readFileSync(new URL('./analysis-sample/messages.json', import.meta.url), 'utf8')) as string[][]).map((r) => r[4]);
  const people = Math.max(1, Math.round(BURST / 5));
  // new people and message ids on every run (a rerun on the same database must not be a replay)
  const run = Math.floor(Math.random() * 500);
  const todayWindow = { from: day(today), to: day(today) };
  const figure = async <T>(name: string, pick: (body: T) => number) => pick((await (await post(name, todayWindow)).json()) as T);
  const inboundBefore = await figure<{ inbound: number }>('total_messages', (b) => b.inbound);
  const analysedBefore = await figure<{ analysed: number }>('sentiment_analysis_counts', (b) => b.analysed);
  const bodies = Array.from({ length: BURST }, (_, i) =>
    JSON.stringify(
      whatsappText({
        phoneNumberId: LINE,
        from: `519${String(20_000_000 + run * 100_000 + (i % people) * 41).padStart(8, '0')}`,
        name: `Ráfaga ${i % people}`,
        id: `wamid.BURST${run}X${i.toString(36).toUpperCase()}`,
        text: sample[i % sample.length],
        at: new Date(Date.now() - (BURST - i) * 10),
      }),
    ),
  );
  const workers = Array.from({ length: JOB_PROCESSES }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/worker.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, NODE_ENV: 'test', ANALYSIS: 'on', LOG_LEVEL: 'error', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-bench' },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  if (JOB_PROCESSES > 0) await new Promise((r) => setTimeout(r, 8000)); // the workers boot and start their queues
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const res = await fetch(`${address}/api/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body) }, body });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`webhook: ${res.status}`);
      }
    }),
  );
  const acked = (performance.now() - t0) / 1000;
  let counted: number | undefined;
  let analysed: number | undefined;
  const deadline = Date.now() + 15 * 60_000;
  while (analysed === undefined) {
    const seconds = (performance.now() - t0) / 1000;
    if (counted === undefined && (await figure<{ inbound: number }>('total_messages', (b) => b.inbound)) - inboundBefore >= BURST) counted = seconds;
    if (counted !== undefined && (await figure<{ analysed: number }>('sentiment_analysis_counts', (b) => b.analysed)) - analysedBefore >= people) analysed = seconds;
    if (Date.now() > deadline) throw new Error('la ráfaga no terminó en 15 minutos');
    await new Promise((r) => setTimeout(r, 250));
  }
  for (const w of workers) w.kill('SIGTERM');
  console.log(
    `\nburst of ${BURST.toLocaleString('es-PE')} WhatsApp messages from ${people.toLocaleString('es-PE')} new people (20 connections, ANALYSIS_DEBOUNCE_SECONDS ${booted.app.settings.analysisDebounceSeconds}, jobs ${JOB_PROCESSES ? `in ${JOB_PROCESSES} worker process(es)` : 'in this process'})`,
  );
  console.log(`all acknowledged after ${acked.toFixed(1)} s; counted by total_messages after ${counted?.toFixed(1)} s; every chat analysed and counted by sentiment_analysis_counts after ${analysed.toFixed(1)} s (goal ≤ 60 s)`);
}
await booted.close();
