/**
 * Products sent from a WhatsApp chat (issue 30, decisions 0085 and 0086): how fast does `POST
 * /api/chats/:id/products` answer, and what does it cost beside the floors measured in the same
 * run — (a) the fake Graph API's own rate for the very payload the server posted, sent straight
 * to it (what the HTTP hop to Meta costs at best), (b) Meta's documented Cloud API throughput
 * per phone number (80 messages/s by default, up to 1,000: ../shared/INTEGRATIONS.md) and (c)
 * pgbench running the statements the call ran, captured from every connection of the server's
 * pool during one call (a fresh message id and provider id per transaction).
 *
 * A fresh company with a WhatsApp line on the test tree's fake Graph API (in a process of its
 * own, with its catalogue rules: fake-process.ts), 40 products with pictures in 10 categories
 * synced into the line's catalogue by the product's own «Sincronizar catálogo» (every item
 * accepted), and CHATS chats whose 24-hour window is open. Measures one product (interactive
 * `product`) and 30 (a `product_list` of 10 sections): sequential p50/p95/p99, then 10
 * connections over all the chats for BENCH_SECONDS.
 *
 *   DATABASE_URL=postgres://…/empty_db npm run product-send --workspace @mostrador/bench
 *   npm run product-send --workspace @mostrador/bench          # PGlite: no pgbench floor
 */
import { randomBytes } from 'node:crypto';
import { createGraphCatalogClient } from '../apps/server/src/integrations/meta/catalog.js';
import { createMetaCatalogService } from '../apps/server/src/modules/meta-catalog/service.js';
import { type Captured, captureAll, DURATION, inline, pgbench, type Rate } from './compare.js';
import { startFake } from './fake-process.js';
import { type Call, type Fired, fire } from './loadgen.js';
import { benchCompany, failUnansweredFetches, startBench } from './start.js';

const TOKEN = 'EAAGm0PX4ZCpsBAJ9benchProductosToken7Q2x';
const LINE = '109000000000077';
const CATALOG = '880000000000077';
const PRODUCTS = 40;
const CHATS = Number(process.env.CHATS ?? 2_000);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 200);
/** Meta's documented Cloud API throughput per business phone number (../shared/INTEGRATIONS.md). */
const META_DEFAULT = 80;
const META_UPGRADED = 1_000;

failUnansweredFetches();
const fake = await startFake('graph', TOKEN, CATALOG);
const { booted, address, token } = await startBench({ env: { SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url } });
const { pool, db } = booted.database;
const company = await benchCompany(booted, 'Bench productos en el chat');
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' };

const put = await fetch(`${address}/api/channels/whatsapp`, { method: 'PUT', headers, body: JSON.stringify({ phoneNumberId: LINE, accessToken: TOKEN }) });
if (!put.ok) throw new Error(`canal: ${put.status} ${await put.text()}`);

// 40 products with pictures in 10 categories, synced into the line's catalogue as «Sincronizar catálogo» does
await pool.query(`insert into categories (company_id, name) select $1, 'Pasillo ' || lpad(i::text, 2, '0') from generate_series(1, 10) as i`, [company]);
await pool.query(
  `insert into products (company_id, name, sku, price, stock, image_url, category_id)
   select $1, 'Producto ' || lpad(i::text, 2, '0'), 'PS-' || lpad(i::text, 3, '0'), 5 + i, 100,
          'https://cdn.mostrador.app/productos/ps-' || i || '.png',
          (select id from categories where company_id = $1 and name = 'Pasillo ' || lpad((1 + i % 10)::text, 2, '0'))
   from generate_series(1, $2::int) as i`,
  [company, PRODUCTS],
);
const catalogs = createMetaCatalogService({ db, secrets: booted.app.secrets, client: createGraphCatalogClient(fake.url), publicUrl: booted.app.settings.publicUrl, pollMs: 20 });
await catalogs.setCatalog(company, CATALOG);
await catalogs.start(company, undefined);
await catalogs.run(company);
const synced = await catalogs.get(company);
if (synced.accepted !== PRODUCTS) throw new Error(`catálogo: ${synced.accepted} de ${PRODUCTS} aceptados (${JSON.stringify(synced.errors)})`);
const products = (await pool.query<{ id: string }>('select id from products where company_id = $1 order by sku', [company])).rows.map((r) => r.id);

// CHATS people who wrote in the last hour: each chat's window is open. A chat's id is made of its
// number, so pgbench can write to a random one of them as the load generator does (not all to one row)
const RUN = randomBytes(4).toString('hex');
const chatIdOf = (n: string) => `('${RUN}-0000-4000-9000-' || lpad(to_hex((${n})::bigint), 12, '0'))::uuid`;
await pool.query(
  `with l as (insert into leads (company_id, name, platform, status, telefono)
              select $1, 'Cliente ' || i, 'whatsapp', 'sin-asignar', '519' || lpad(i::text, 8, '0') from generate_series(1, $2::int) as i returning id, name),
        c as (insert into chats (id, company_id, contact_name, platform, lead_id, status)
              select ${chatIdOf('row_number() over ()')}, $1, name, 'whatsapp', id, 'open' from l returning id)
   insert into chat_windows (chat_id, company_id, last_inbound_at) select id, $1, now() - interval '1 hour' from c`,
  [company, CHATS],
);
const chats = (await pool.query<{ id: string }>('select id from chats where company_id = $1 order by id', [company])).rows.map((r) => r.id);
await pool.query('analyze chats; analyze chat_windows; analyze leads; analyze products; analyze chat_messages');

const one = JSON.stringify({ productIds: [products[1]], text: 'Este te puede gustar' });
const thirty = JSON.stringify({ productIds: products.slice(0, 30), text: 'Te comparto lo que tenemos' });
const urlOf = (chat: string) => `/api/chats/${chat}/products`;

async function send(chat: string, body: string) {
  const res = await fetch(`${address}${urlOf(chat)}`, { method: 'POST', headers, body });
  const answer = (await res.json()) as { _id?: string; status?: string };
  if (res.status !== 201 || answer.status !== 'sent') throw new Error(`POST ${urlOf(chat)}: ${res.status} ${JSON.stringify(answer)}`);
  return answer as { _id: string };
}

const pct = (times: number[], q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
async function sequential(body: string) {
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL + 5; i++) {
    const t0 = performance.now();
    await send(chats[i % chats.length], body);
    if (i >= 5) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 0.5), p95: pct(times, 0.95), p99: pct(times, 0.99) };
}

console.log(`\nProducts from a WhatsApp chat on ${booted.database.kind} (node ${process.version}): ${PRODUCTS} products in the line's catalogue, ${CHATS.toLocaleString('es-PE')} chats in their window`);
const seqOne = await sequential(one);
const payloadOne = await fake.ask<object>({ type: 'last-send' });
const seqThirty = await sequential(thirty);
const payloadThirty = await fake.ask<object>({ type: 'last-send' });
console.log(`sequential, ${SEQUENTIAL} sends each     p50      p95      p99`);
console.log(`  1 product (product)         ${seqOne.p50.padStart(6)} ms ${seqOne.p95.padStart(6)} ms ${seqOne.p99.padStart(6)} ms`);
console.log(`  30 products (product_list)  ${seqThirty.p50.padStart(6)} ms ${seqThirty.p95.padStart(6)} ms ${seqThirty.p99.padStart(6)} ms`);

// (c) the statements one call runs, on every connection (the transaction's own included)
while (pool.totalCount > pool.idleCount || pool.waitingCount > 0) await new Promise((r) => setTimeout(r, 50));
async function floorOf(body: string): Promise<{ statements: string[]; count: number }> {
  let sent: { _id: string } | undefined;
  const seen: Captured[] = await captureAll(async () => {
    sent = await send(chats[0], body);
  });
  const messageId = (sent as { _id: string })._id;
  const providerIds = seen.flatMap((s) => s.values).filter((v): v is string => typeof v === 'string' && /^wamid\./i.test(v));
  // a fresh message id and provider id per transaction (pgbench's :r, 48 random bits), one of the chats (:c)
  const statements = seen.map((s) => {
    let text = inline(s)
      .replaceAll(`'${messageId}'`, `('00000000-0000-4000-8000-' || lpad(to_hex(:r::bigint), 12, '0'))::uuid`)
      .replaceAll(`'${chats[0]}'`, chatIdOf(':c'));
    for (const p of providerIds) text = text.replaceAll(`'${p}'`, `('wamid.BENCH' || :r)`);
    return text;
  });
  if (process.env.SHOW_SQL) for (const s of statements) console.log(`  ${s.slice(0, 300)}`);
  return { statements: ['\\set r random(1, 281474976710655)', `\\set c random(1, ${CHATS})`, ...statements], count: seen.length };
}
const sqlOne = await floorOf(one);
const sqlThirty = await floorOf(thirty);

const calls = (body: string): Call[] => chats.map((chat) => ({ method: 'POST', path: urlOf(chat), headers, body }));
const graphCall = (payload: object): Call[] => [
  { method: 'POST', path: `/v21.0/${LINE}/messages`, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(payload) },
];
const ok = (f: Fired, status: string) => Object.entries(f.statuses).every(([s]) => s === status);

console.log(`\n10 connections, ${DURATION} s each (the load generator in its own process; the fake Graph API in another)`);
const rows: Array<{ title: string; http: Fired; graph: Fired; sql?: Rate; prepared?: Rate; queries: number }> = [];
for (const [title, body, payload, floor] of [
  ['1 product (product)', one, payloadOne, sqlOne],
  ['30 products (product_list)', thirty, payloadThirty, sqlThirty],
] as const) {
  const before = await fake.ask<number>({ type: 'sent' });
  const http = await fire(address, calls(body), { seconds: DURATION });
  const delivered = (await fake.ask<number>({ type: 'sent' })) - before;
  if (!ok(http, '201')) console.log(`  ${title}: statuses ${JSON.stringify(http.statuses)}`);
  if (delivered !== http.count) console.log(`  ${title}: ${http.count} answers, ${delivered} messages reached the fake`);
  const graph = await fire(new URL(fake.url).origin, graphCall(payload), { seconds: DURATION });
  if (!ok(graph, '200')) console.log(`  ${title} straight to the fake: statuses ${JSON.stringify(graph.statuses)}`);
  const url = process.env.DATABASE_URL;
  const sql = booted.database.kind === 'postgres' && url ? await pgbench(url, floor.statements) : undefined;
  const prepared = booted.database.kind === 'postgres' && url ? await pgbench(url, floor.statements, 'prepared') : undefined;
  rows.push({ title, http, graph, sql, prepared, queries: floor.count });
}

const n0 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : Math.round(n).toLocaleString('en-US'));
const ratio = (a: number, b: number | undefined) => (b ? `${((100 * a) / b).toFixed(0)} %` : '–');
console.log('| 10 connections | sends/s | p50 / p95 / p99 ms | (a) fake Graph API alone, same payload, req/s | sends / (a) | (b) Meta per line 80 / 1,000 msg/s | statements | (c) pgbench -M simple tps | sends / (c) | pgbench -M prepared tps | sends / prepared |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const lat = `${r.http.p50.toFixed(1)} / ${r.http.p95.toFixed(1)} / ${r.http.p99.toFixed(1)}`;
  console.log(
    `| ${r.title} | ${n0(r.http.rps)} | ${lat} | ${n0(r.graph.rps)} | ${ratio(r.http.rps, r.graph.rps)} | ${(r.http.rps / META_DEFAULT).toFixed(1)}× / ${(r.http.rps / META_UPGRADED).toFixed(2)}× | ${r.queries} | ${n0(r.sql?.rps)} | ${ratio(r.http.rps, r.sql?.rps)} | ${n0(r.prepared?.rps)} | ${ratio(r.http.rps, r.prepared?.rps)} |`,
  );
  if ((r.sql?.errors ?? 0) > 0 || (r.prepared?.errors ?? 0) > 0) console.log(`  ${r.title}: pgbench failures ${r.sql?.errors} / ${r.prepared?.errors}`);
}
const stored = (await pool.query<{ sent: number; other: number }>(`select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status <> 'sent')::int as other from chat_messages where company_id = $1`, [company])).rows[0];
console.log(`stored: ${stored.sent.toLocaleString('en-US')} product messages sent, ${stored.other} in another status`);
await booted.close();
fake.close();
