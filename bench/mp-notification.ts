/**
 * Mercado Pago's payment notifications (issue 30, decision 0083): how many signed `POST
 * /api/webhooks/mercadopago/:companyId` a second does the server take when each pays a
 * different order (the payment read back from Mercado Pago, the order locked, the payment row,
 * the order «Pagada» once, its spine event from the table's trigger), and how many replays of a
 * notification already processed — beside the floors of the same run: pgbench running the
 * statements one paying notification ran (captured from every connection of the server's pool,
 * a fresh «Creada» order per transaction), pgbench of the statements a replay ran, and the
 * fake's `GET /v1/payments/{id}` alone.
 *
 * A fresh company with Mercado Pago credentials on the test tree's fake (in a process of its
 * own: fake-process.ts), ORDERS orders «Creada», each with its Checkout Pro link made through
 * `POST /api/orders/:id/payment-link`, each paid in the fake; then the notifications Mercado
 * Pago would send, signed as the tests sign them (`x-signature: ts=…,v1=…` over the manifest),
 * at 10 connections, each once; then the same notifications again (the same x-request-id: a
 * replay), and once more with new request ids (Mercado Pago's second notification of a payment
 * already recorded). Counts what was stored: one payment row and one `order.paid` per order.
 *
 *   DATABASE_URL=postgres://…/empty_db npm run mp-notification --workspace @mostrador/bench
 *   npm run mp-notification --workspace @mostrador/bench       # PGlite: no pgbench floor
 */
import { randomUUID } from 'node:crypto';
import { notification } from '../apps/server/test/fakes/mercadopago.js';
import { type Captured, captureAll, DURATION, inline, pgbench, type Rate } from './compare.js';
import { startFake } from './fake-process.js';
import { type Call, type Fired, fire } from './loadgen.js';
import { benchCompany, failUnansweredFetches, startBench } from './start.js';

const TOKEN = 'APP_USR-7788-bench-token';
const SECRET = 'mp-clave-secreta-bench-5d1e';
const url = process.env.DATABASE_URL;
const ORDERS = Number(process.env.ORDERS ?? (url ? 3_000 : 1_000));
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 200);
/** Orders «Creada» kept for pgbench, one per transaction. */
const FLOOR_ORDERS = Number(process.env.FLOOR_ORDERS ?? 25_000);

failUnansweredFetches();
const fake = await startFake('mercadopago', TOKEN);
const { booted, address, token } = await startBench({ env: { OUTBOUND_ALLOW_PRIVATE_URLS: '1', MERCADOPAGO_API_URL: fake.url, PUBLIC_URL: 'https://tienda.example.pe' } });
const { pool } = booted.database;
const company = await benchCompany(booted, 'Bench pagos Mercado Pago');
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' };

const saved = await fetch(`${address}/api/payments/mercadopago/settings`, { method: 'PUT', headers, body: JSON.stringify({ accessToken: TOKEN, webhookSecret: SECRET, sandbox: false }) });
if (!saved.ok) throw new Error(`credenciales: ${saved.status} ${await saved.text()}`);

const newOrders = async (n: number, prefix: string) =>
  (
    await pool.query<{ id: string }>(
      `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency)
       select $1, $3 || lpad(i::text, 6, '0'), 'created', 'catalogo', 'Camila Rojas', '51987654321', '{}'::jsonb,
              '[{"productId":null,"sku":"TZ-01","name":"Taza cerámica","quantity":2,"unitPrice":30,"total":60},{"productId":null,"sku":"PL-01-M","name":"Polera algodón","size":"M","quantity":1,"unitPrice":59.9,"total":59.9}]'::jsonb,
              119.9, 119.9, 'PEN'
       from generate_series(1, $2::int) as i returning id`,
      [company, n, prefix],
    )
  ).rows.map((r) => r.id);

const t0 = performance.now();
const orders = await newOrders(ORDERS + SEQUENTIAL + 5, 'MP-');
// each order's Checkout Pro link through the product (a preference in the fake), 10 at a time
const links = await fire(
  address,
  orders.map((id) => ({ method: 'POST', path: `/api/orders/${id}/payment-link`, headers, body: '{}' })),
);
if (links.statuses['200'] !== orders.length) throw new Error(`enlaces: ${JSON.stringify(links.statuses)}`);
const prefs = (await pool.query<{ order_id: string; preference_id: string }>(`select order_id, preference_id from order_payments where company_id = $1 and status = 'link'`, [company])).rows;
const prefOf = new Map(prefs.map((r) => [r.order_id, r.preference_id]));
// the buyer pays each one in the fake: a payment id per order
const paymentIds = await fake.ask<string[]>({ type: 'pay', preferenceIds: orders.map((id) => prefOf.get(id) as string) });
await pool.query('analyze orders; analyze order_payments');
console.log(`\nMercado Pago notifications on ${booted.database.kind} (node ${process.version}): ${orders.length.toLocaleString('en-US')} orders with a link and a payment (${((performance.now() - t0) / 1000).toFixed(1)} s)`);

/** The notification Mercado Pago sends of a payment, signed with the application's secret as the tests sign it. */
const signedFor = (paymentId: string, requestId = randomUUID()): Call => {
  const n = notification(company, paymentId, SECRET, { requestId });
  return { method: 'POST', path: n.url, headers: n.headers, body: JSON.stringify(n.payload) };
};
const signed = (i: number) => signedFor(paymentIds[i]);
async function post(c: Call) {
  const res = await fetch(`${address}${c.path}`, { method: c.method, headers: c.headers, body: c.body });
  const answer = (await res.json()) as { result?: string };
  if (res.status !== 200) throw new Error(`POST ${c.path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer.result;
}

// sequential: one at a time, each a different order (after 5 to warm up)
const pct = (times: number[], q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
const times: number[] = [];
for (let i = ORDERS; i < ORDERS + SEQUENTIAL + 5; i++) {
  const s = performance.now();
  const result = await post(signed(i));
  if (result !== 'moved') throw new Error(`notificación ${i}: ${result}`);
  if (i >= ORDERS + 5) times.push(performance.now() - s);
}
times.sort((a, b) => a - b);
console.log(`sequential, ${SEQUENTIAL} paying notifications: p50 ${pct(times, 0.5)} ms  p95 ${pct(times, 0.95)} ms  p99 ${pct(times, 0.99)} ms`);

// the statements one paying notification runs, on every connection (the transaction's own included)
while (pool.totalCount > pool.idleCount || pool.waitingCount > 0) await new Promise((r) => setTimeout(r, 50));
const [extra] = await newOrders(1, 'MP-PROBE-');
const link = await fetch(`${address}/api/orders/${extra}/payment-link`, { method: 'POST', headers, body: '{}' });
const [extraPayment] = await fake.ask<string[]>({ type: 'pay', preferenceIds: [((await link.json()) as { preferenceId: string }).preferenceId] });
const probeCall = signedFor(extraPayment);
let probeResult: string | undefined;
const seen: Captured[] = await captureAll(async () => {
  probeResult = await post(probeCall);
});
if (probeResult !== 'moved') throw new Error(`captura: ${probeResult}`);
// and what its replay runs (the same x-request-id: answered from the payment row, nothing fetched)
let replayResult: string | undefined;
const replayed: Captured[] = await captureAll(async () => {
  replayResult = await post(probeCall);
});
if (replayResult !== 'unchanged') throw new Error(`captura de la repetición: ${replayResult}`);
// pgbench pays a fresh «Creada» order each transaction: the first statement takes the next one of
// FLOOR_ORDERS into a session setting (no round trip of its own), the later ones read it where the
// notification had its order id, and its payment id (the order's id as text: unique per order)
const floorOrders = url && booted.database.kind === 'postgres' ? await newOrders(FLOOR_ORDERS, 'MP-PGB-') : [];
if (floorOrders.length) {
  await pool.query('create table if not exists bench_mp_floor (n bigint primary key, order_id uuid not null)');
  await pool.query('truncate bench_mp_floor');
  await pool.query('insert into bench_mp_floor (n, order_id) select ordinality, id from unnest($1::uuid[]) with ordinality as t(id, ordinality)', [floorOrders]);
  await pool.query('drop sequence if exists bench_mp_floor_seq; create sequence bench_mp_floor_seq; analyze bench_mp_floor; analyze orders');
}
// (the first select: before it only the public routes' rate limit, which names no order)
const first = seen.findIndex((s) => /^\s*select\b/i.test(s.text));
const statements = seen.map((s, i) => {
  const text = inline(s).replaceAll(`'${extra}'`, `current_setting('bench.order')::uuid`).replaceAll(`'${extraPayment}'`, `current_setting('bench.order')`);
  if (i !== first) return text;
  return `select s.*, set_config('bench.order', (select order_id::text from bench_mp_floor where n = (select nextval('bench_mp_floor_seq'))), false) as bench_order from (${text}) s`;
});
if (process.env.SHOW_SQL) for (const s of statements) console.log(`  ${s.slice(0, 400)}`);
// the replay's statements as they ran (its payment row exists: the same one every time)
const replayStatements = replayed.map(inline);

// 10 connections: every order paid once; the same notifications again for BENCH_SECONDS; each once more with a new request id
const paying = Array.from({ length: ORDERS }, (_, i) => signed(i));
const pay = await fire(address, paying);
const replay = await fire(address, paying, { seconds: DURATION });
const again = await fire(
  address,
  Array.from({ length: ORDERS }, (_, i) => signed(i)),
);
const mpOrigin = new URL(fake.url).origin;
const getPayment = await fire(
  mpOrigin,
  paymentIds.slice(0, ORDERS).map((id) => ({ method: 'GET', path: `/v1/payments/${id}`, headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } })),
  { seconds: DURATION },
);
let sql: Rate | undefined;
let prepared: Rate | undefined;
let replaySql: Rate | undefined;
if (floorOrders.length && url) {
  replaySql = await pgbench(url, replayStatements);
  sql = await pgbench(url, statements);
  const used = Number((await pool.query<{ n: number }>('select last_value::int as n from bench_mp_floor_seq')).rows[0].n);
  prepared = used + sql.rps * DURATION * 1.5 < FLOOR_ORDERS ? await pgbench(url, statements, 'prepared') : undefined;
  if (!prepared) console.log(`  pgbench -M prepared skipped: ${used.toLocaleString('en-US')} of ${FLOOR_ORDERS.toLocaleString('en-US')} floor orders used (FLOOR_ORDERS=… for more)`);
  const paidFloor = Number((await pool.query<{ n: number }>(`select count(*)::int as n from orders o join bench_mp_floor f on f.order_id = o.id where o.status = 'paid'`)).rows[0].n);
  const usedAll = Number((await pool.query<{ n: number }>('select last_value::int as n from bench_mp_floor_seq')).rows[0].n);
  console.log(`  pgbench paid ${paidFloor.toLocaleString('en-US')} floor orders in ${usedAll.toLocaleString('en-US')} transactions`);
}

const n0 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : Math.round(n).toLocaleString('en-US'));
const ratio = (a: number, b: number | undefined) => (b ? `${((100 * a) / b).toFixed(0)} %` : '–');
const lat = (f: Fired) => `${f.p50.toFixed(1)} / ${f.p95.toFixed(1)} / ${f.p99.toFixed(1)}`;
const st = (f: Fired) => Object.entries(f.statuses).map(([k, v]) => `${k}×${v}`).join(' ');
console.log(`\n10 connections (the load generator in its own process, the fake in another); ${DURATION} s where timed`);
console.log('| 10 connections | notifications/s | p50 / p95 / p99 ms | answers | statements | pgbench -M simple tps | / simple | pgbench -M prepared tps | / prepared | fake GET /v1/payments alone req/s | / fake |');
console.log('|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|');
console.log(`| paying, ${ORDERS.toLocaleString('en-US')} orders once each | ${n0(pay.rps)} | ${lat(pay)} | ${st(pay)} | ${seen.length} | ${n0(sql?.rps)} | ${ratio(pay.rps, sql?.rps)} | ${n0(prepared?.rps)} | ${ratio(pay.rps, prepared?.rps)} | ${n0(getPayment.rps)} | ${ratio(pay.rps, getPayment.rps)} |`);
console.log(`| replay (same x-request-id) | ${n0(replay.rps)} | ${lat(replay)} | ${st(replay)} | ${replayed.length} | ${n0(replaySql?.rps)} (its own statements) | ${ratio(replay.rps, replaySql?.rps)} | | | – (nothing fetched) | |`);
console.log(`| again, new x-request-id, once each | ${n0(again.rps)} | ${lat(again)} | ${st(again)} | | | | | | ${n0(getPayment.rps)} | ${ratio(again.rps, getPayment.rps)} |`);
if ((sql?.errors ?? 0) > 0 || (prepared?.errors ?? 0) > 0 || (replaySql?.errors ?? 0) > 0) console.log(`  pgbench failures ${sql?.errors} / ${prepared?.errors} / ${replaySql?.errors}`);

// what was stored: one approved payment row and one order.paid per order, whatever the replays
const check = (
  await pool.query<{ paid: number; approved: number; events: number; created: number }>(
    `select count(*) filter (where o.status = 'paid')::int as paid, count(*) filter (where o.status = 'created')::int as created,
            (select count(*)::int from order_payments p where p.company_id = $1 and p.status = 'approved' and p.order_id = any($2::uuid[])) as approved,
            (select count(*)::int from domain_events e where e.type = 'order.paid' and e.aggregate_id::text = any($2::text[])) as events
     from orders o where o.company_id = $1 and o.id = any($2::uuid[])`,
    [company, orders],
  )
).rows[0];
const doubles = Math.max(0, check.approved - orders.length) + Math.max(0, check.events - orders.length);
console.log(`stored for the ${orders.length.toLocaleString('en-US')} orders: ${check.paid} paid, ${check.created} still created, ${check.approved} approved payments, ${check.events} order.paid events; double effects ${doubles}`);
await booted.close();
fake.close();
if (doubles > 0 || check.paid !== orders.length) process.exit(1);
