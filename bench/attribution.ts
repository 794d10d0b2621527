/**
 * The attribution funnel (issue 31, decision 0097) of a company with a year of traffic: 200,000
 * conversations and 40,000 orders attributed (a third to 60 ads of 12 campaigns, a tenth to 50
 * massive sends, the rest organic; 30 agents; analyses on half the chats), a year of spend per ad
 * and campaign. The attribution rows are filled directly (server-side generate_series), as the
 * listener would have left them; then:
 *  1. p50/p95/p99 of sequential GET /api/metrics/attribution over 30 and 365 days, by each grouping,
 *     and of the drill-down;
 *  2. the 30-day funnel by campaign and by agent under autocannon (10 connections), beside the
 *     statements each call issued (captured from the pool) under pgbench -n -c 10 -j 2.
 *
 *   DATABASE_URL=postgres://…/db npm run attribution --workspace @mostrador/bench   # PostgreSQL (pgbench needs it)
 *   CONVERSATIONS=50000 BENCH_SECONDS=5 npm run attribution …                      # another size / duration
 */
import { benchCompany, startBench } from './start.js';
import { measure, printTable, type Row } from './compare.js';

const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 200_000);
const ORDERS = Math.round(CONVERSATIONS / 5);
const { booted, address, token } = await startBench();
const { pool } = booted.database;
const databaseUrl = booted.database.kind === 'postgres' ? process.env.DATABASE_URL : undefined;

const company = await benchCompany(booted, 'Bench atribución');
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company };
const started = performance.now();
await pool.query(`insert into agentes (company_id, name, email, active) select $1, 'Agente ' || i, 'agente' || i || '@bench.pe', true from generate_series(1, 30) i`, [company]);
await pool.query(
  `insert into meta_ads (company_id, ad_id, campaign_id, campaign_name) select $1, 'ad-' || i, 'camp-' || (i % 12), 'Campaña ' || (i % 12) from generate_series(1, 60) i`,
  [company],
);
await pool.query(
  `insert into ad_spend_ads_daily (company_id, day, ad_id, campaign_id, currency, spend)
   select $1, d::date, 'ad-' || i, 'camp-' || (i % 12), 'PEN', 10 + (i % 7) from generate_series(now() - interval '365 days', now(), interval '1 day') d, generate_series(1, 60) i`,
  [company],
);
await pool.query(
  `insert into ad_spend_daily (company_id, day, campaign_id, campaign_name, currency, spend, impressions, clicks)
   select company_id, day, campaign_id, 'Campaña ' || substr(campaign_id, 6), currency, sum(spend), 1000, 50 from ad_spend_ads_daily where company_id = $1 group by 1, 2, 3, 5`,
  [company],
);
await pool.query(
  `insert into sends (company_id, kind, name, status, content) select $1, 'massive', 'Envío ' || i, 'finished', '{}'::jsonb from generate_series(1, 50) i`,
  [company],
);
const { rows: sendRows } = await pool.query<{ id: string }>(`select id::text from sends where company_id = $1 order by name`, [company]);
const { rows: agentRows } = await pool.query<{ id: string }>(`select id::text from agentes where company_id = $1 order by name`, [company]);
await pool.query(
  `insert into chats (company_id, contact_name, platform, status, created_at)
   select $1, 'Cliente ' || i, 'whatsapp', 'open', now() - make_interval(secs => (i::float / $2) * 365 * 86400) from generate_series(1, $2) i`,
  [company, CONVERSATIONS],
);
await pool.query(
  `insert into conversation_attributions (company_id, chat_id, started_at, answered_at, touch, ad_id, send_id, agente_id)
   select c.company_id, c.id, c.created_at, c.created_at + make_interval(secs => (n % 20) * 30),
          case when n % 3 = 0 then 'ad' when n % 10 = 1 then 'send' else 'organic' end,
          case when n % 3 = 0 then 'ad-' || (1 + n % 60) end, case when n % 3 <> 0 and n % 10 = 1 then ($2::uuid[])[1 + n % 50] end,
          case when n % 8 <> 0 then ($3::uuid[])[1 + n % 30] end
     from (select *, row_number() over (order by created_at) as n from chats where company_id = $1) c`,
  [company, `{${sendRows.map((s) => s.id).join(',')}}`, `{${agentRows.map((a) => a.id).join(',')}}`],
);
await pool.query(
  `insert into chat_analyses (chat_id, company_id, sentiment, motive, quality, category, engine, messages)
   select chat_id, company_id, (array['positive','neutral','negative'])[1 + (abs(hashtext(chat_id::text)) % 3)], 'compra', 3, 'venta', 'bench', 4
     from conversation_attributions where company_id = $1 and abs(hashtext(chat_id::text)) % 2 = 0`,
  [company],
);
await pool.query(
  `insert into order_attributions (company_id, order_id, chat_id, ordered_at, conversation_started_at, touch, ad_id, send_id, agente_id, model, window_days, status, total, currency, paid)
   select ca.company_id, gen_random_uuid(), ca.chat_id, ca.started_at + interval '3 hours', ca.started_at, ca.touch, ca.ad_id, ca.send_id, ca.agente_id, 'last', 7,
          (array['created','paid','done','cancelled'])[1 + n % 4], 50 + n % 200, 'PEN', n % 4 in (1, 2)
     from (select *, row_number() over (order by chat_id) as n from conversation_attributions where company_id = $1) ca where n % 5 = 0`,
  [company],
);
await pool.query('analyze conversation_attributions, order_attributions, ad_spend_daily, ad_spend_ads_daily, meta_ads, chat_analyses');
console.log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
const month = `from=${day(29 * 86_400_000)}&to=${day(0)}`;
const year = `from=${day(364 * 86_400_000)}&to=${day(0)}`;

async function timed(title: string, url: string, n = 40) {
  const times: number[] = [];
  let note = '';
  for (let i = 0; i < n + 3; i++) {
    const t0 = performance.now();
    const res = await fetch(`${address}${url}`, { headers });
    const body = (await res.json()) as { rows?: Array<{ conversations: number; orders: number }>; payload?: unknown[]; total?: number };
    if (res.status !== 200) {
      console.log(`${title.padEnd(48)} n/a (${res.status} ${JSON.stringify(body)})`);
      return;
    }
    if (i >= 3) times.push(performance.now() - t0);
    if (body.rows) note = `${body.rows.length} rows, ${body.rows.reduce((s, r) => s + r.conversations, 0).toLocaleString('es-PE')} conversations, ${body.rows.reduce((s, r) => s + r.orders, 0).toLocaleString('es-PE')} orders`;
    else if (body.payload) note = `${body.payload.length} of ${body.total} chats`;
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] as number).toFixed(1);
  console.log(`${title.padEnd(48)} p50 ${p(0.5).padStart(7)} ms  p95 ${p(0.95).padStart(7)} ms  p99 ${p(0.99).padStart(7)} ms  (${note})`);
}

console.log(`\nThe attribution funnel on ${booted.database.kind}, ${CONVERSATIONS.toLocaleString('es-PE')} conversations and ${ORDERS.toLocaleString('es-PE')} orders in a year (node ${process.version})`);
for (const by of ['ad_campaign', 'ad', 'send', 'agent']) await timed(`GET /api/metrics/attribution?by=${by} (30 days)`, `/api/metrics/attribution?by=${by}&${month}`);
await timed('GET /api/metrics/attribution?by=ad_campaign (365 d)', `/api/metrics/attribution?by=ad_campaign&${year}`, 15);
await timed('GET /api/metrics/attribution?by=agent (365 days)', `/api/metrics/attribution?by=agent&${year}`, 15);
await timed('GET …/attribution/chats?by=ad&key=ad-4 (30 days)', `/api/metrics/attribution/chats?by=ad&key=ad-4&${month}`);

console.log(`\n10 connections, ${process.env.BENCH_SECONDS ?? 10} s each; pgbench: the statements each call issued, same parameters`);
const rows: Row[] = [
  await measure(pool, databaseUrl, 'GET /api/metrics/attribution?by=ad_campaign (30 d)', `${address}/api/metrics/attribution?by=ad_campaign&${month}`, headers),
  await measure(pool, databaseUrl, 'GET /api/metrics/attribution?by=agent (30 d)', `${address}/api/metrics/attribution?by=agent&${month}`, headers),
];
printTable(rows);
await booted.close();
