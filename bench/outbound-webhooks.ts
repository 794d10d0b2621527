/**
 * Outbound webhooks (issue 28, decision 0073): how fast do the spine's events reach a company's
 * receiver, signed and in order, and how soon after they happen?
 *
 * - Throughput: EVENTS events (default 3,000, 10 per transaction, over 300 aggregates) for a
 *   subscription whose receiver on loopback answers at once, then for one answering in 500 ms:
 *   deliveries a second from the first event written to the last delivery recorded. The floor
 *   beside each: the same receiver driven straight by this process with WEBHOOK_DELIVERY_LANES
 *   concurrent POSTs of the same bodies (what the network and the receiver allow), and, for the
 *   500 ms one, lanes ÷ 0.5 s.
 * - Lag: RATE events a second (default 200) for SECONDS seconds (default 10) to the healthy
 *   receiver, which notes now − the event's createdAt: p50, p99, max (goal p99 ≤ 1 s).
 *
 *   npm run outbound-webhooks --workspace @mostrador/bench                     # PGlite
 *   DATABASE_URL=postgres://…/empty_db npm run outbound-webhooks --workspace @mostrador/bench
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { emit } from '../apps/server/src/spine/outbox.js';
import { benchCompany, failUnansweredFetches, startBench } from './start.js';

const EVENTS = Number(process.env.EVENTS ?? 3000);
const RATE = Number(process.env.RATE ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 10);
const LANES = 32;
failUnansweredFetches(600_000);
const { booted, address, token } = await startBench({ work: true, env: { OUTBOUND_ALLOW_PRIVATE_URLS: '1', WEBHOOK_DELIVERY_LANES: String(LANES) } });
const { db, pool } = booted.database;

/** A receiver on loopback answering after `delayMs`; notes each body's lag and the order per aggregate. */
async function receiver(delayMs: number) {
  const lags: number[] = [];
  const last = new Map<string, number>();
  let outOfOrder = 0;
  let count = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: string; data: { leadId: string; n?: number } };
      lags.push(Date.now() - Date.parse(body.createdAt));
      count++;
      const n = Number((body.data as { status?: string }).status ?? 0);
      const before = last.get(body.data.leadId) ?? -1;
      if (n < before) outOfOrder++;
      last.set(body.data.leadId, n);
      setTimeout(() => res.writeHead(200).end('ok'), delayMs);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, lags, get count() { return count; }, get outOfOrder() { return outOfOrder; }, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

async function subscribe(company: string, url: string) {
  const res = await fetch(`${address}/api/webhook-subscriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['lead.updated', 'lead.status_changed'] }),
  });
  if (res.status !== 201) throw new Error(`subscribe ${res.status} ${await res.text()}`);
  return (await res.json()) as { _id: string };
}

/** `n` events of 300 aggregates, 10 per transaction; each carries its index in the aggregate as its status (the receiver checks the order). */
async function write(company: string, n: number, from = 0) {
  for (let i = from; i < from + n; i += 10) {
    await db.transaction(async (tx) =>
      emit(
        tx,
        Array.from({ length: Math.min(10, from + n - i) }, (_, k) => {
          const j = i + k;
          return { companyId: company, type: 'lead.status_changed' as const, aggregateId: `bench-${j % 300}`, payload: { leadId: `bench-${j % 300}`, status: String(Math.floor(j / 300)), previous: null } };
        }),
      ),
    );
  }
  booted.app.spine.wake();
}

async function delivered(subscription: string) {
  const { rows } = await pool.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where subscription_id = $1 and status = 'delivered'`, [subscription]);
  return rows[0].n;
}
async function until(ok: () => Promise<boolean>, ms = 600_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('timeout');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The floor: the same receiver, `count` POSTs of a body like the product's, LANES at a time, from this process. */
async function floor(url: string, count: number) {
  const body = JSON.stringify({ id: crypto.randomUUID(), type: 'lead.status_changed', createdAt: new Date().toISOString(), companyId: 'x', data: { leadId: 'floor', status: '0' } });
  const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: LANES });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < count) {
        next++;
        await new Promise<void>((resolve, reject) => {
          const req = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
            res.resume();
            res.on('end', () => resolve());
          });
          req.on('error', reject);
          req.end(body);
        });
      }
    }),
  );
  agent.destroy();
  return count / ((performance.now() - started) / 1000);
}

const pct = (list: number[], p: number) => {
  const s = [...list].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const fmt = (n: number) => n.toFixed(0).padStart(6);

console.log(`Webhooks de salida (${booted.database.kind}, ${LANES} carriles, ${EVENTS} eventos por prueba)`);
for (const [label, delay] of [
  ['receptor sano', 0],
  ['receptor de 500 ms', 500],
] as const) {
  const company = await benchCompany(booted, `Bench webhooks ${delay}`);
  const r = await receiver(delay);
  const sub = await subscribe(company, r.url);
  const events = delay ? Math.min(EVENTS, 1000) : EVENTS;
  const started = performance.now();
  await write(company, events);
  await until(async () => (await delivered(sub._id)) >= events);
  const seconds = (performance.now() - started) / 1000;
  const rate = events / seconds;
  const bound = delay ? LANES / (delay / 1000) : await floor(r.url, Math.min(events, 2000));
  console.log(`  ${label.padEnd(20)} ${fmt(rate)} entregas/s  (piso ${fmt(bound)}/s, ${(rate / bound).toFixed(2)}×)  ${events} en ${seconds.toFixed(1)} s, fuera de orden: ${r.outOfOrder}`);
  await r.close();
}

{
  const company = await benchCompany(booted, 'Bench webhooks retraso');
  const r = await receiver(0);
  await subscribe(company, r.url);
  const total = RATE * SECONDS;
  const started = Date.now();
  for (let written = 0; written < total; ) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * RATE) + 10);
    if (due > written) {
      await write(company, due - written, written);
      written = due;
    } else await new Promise((res) => setTimeout(res, 5));
  }
  await until(async () => r.count >= total, 120_000);
  console.log(
    `  retraso a ${RATE} eventos/s durante ${SECONDS} s: p50 ${pct(r.lags, 50)} ms, p99 ${pct(r.lags, 99)} ms, máx ${Math.max(...r.lags)} ms (meta p99 ≤ 1000 ms), fuera de orden: ${r.outOfOrder}`,
  );
  await r.close();
}
await booted.close();
process.exit(0);
