/**
 * The event spine (issue 27, decision 0068): what do domain events cost the path every customer
 * message takes, and how soon does a listener hear of an event?
 *
 * - The burst, twice in this run on two fresh companies: BURST signed WhatsApp deliveries
 *   (default 10,000 messages from 2,000 new people, 20 connections) through the real path
 *   (webhook → queue → inbox → metrics → analysis job), first with the spine's emitters disabled
 *   and the dispatcher stopped (the product before the spine), then as it runs now. For each:
 *   the statements this process sent per message (every `pool.query`: the inbox, the queue's,
 *   the spine's), seconds until every message is stored and counted by `total_messages`, until
 *   every chat is analysed, and (spine on) until every event is delivered to its listeners.
 * - The delivery lag: RATE events a second for SECONDS seconds (10 per transaction, as a busy
 *   product writes them), handed to a listener that notes `now − occurred_at`: p50, p99, max.
 *   The floor beside it: a NOTIFY from one connection heard by a LISTEN on another (PostgreSQL).
 *
 *   DATABASE_URL=postgres://…/empty_db npm run spine --workspace @mostrador/bench
 *   BURST=2000 RATE=500 npm run spine --workspace @mostrador/bench          # PGlite, smaller
 */
import { readFileSync } from 'node:fs';
import type { DomainEvent } from '@mostrador/contract';
import type { Listener } from '../apps/server/src/spine/dispatcher.js';
import pg from 'pg';
import { sign, whatsappText } from '../apps/server/test/fakes/meta.js';
import { benchCompany, failUnansweredFetches, startBench } from './start.js';

const BURST = Number(process.env.BURST ?? 10_000);
const RATE = Number(process.env.RATE ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 10);
failUnansweredFetches();
const { booted, address, token } = await startBench({ work: true, env: { ANALYSIS: 'on' } });
const { pool } = booted.database;

// every statement this process sends, counted on every connection (the pool's, a transaction's, LISTEN's)
let statements = 0;
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
  statements++;
  return clientQuery.apply(this, args);
};
/** The bench's own reads, not counted. */
async function query(text: string, values: unknown[] = []) {
  const before = statements;
  const result = await pool.query(text, values);
  statements = before + (statements - before - 1);
  return result;
}

const emitters = (await pool.query<{ tgname: string; table: string }>(`select tgname, tgrelid::regclass::text as table from pg_trigger where tgname like 'spine\\_%'`)).rows;
async function emittersOn(on: boolean) {
  for (const t of emitters) await pool.query(`alter table ${t.table} ${on ? 'enable' : 'disable'} trigger ${t.tgname}`);
}

const spineOf = (booted.app as { spine?: { start(): Promise<void>; stop(): Promise<void> } }).spine;
const sample = (JSON.parse(readFileSync(new URL('./analysis-sample/messages.json', import.meta.url), 'utf8')) as string[][]).map((r) => r[4]);
const day = new Date().toISOString().slice(0, 10);

async function burst(label: string, line: string) {
  const company = await benchCompany(booted, `Bench bus ${label}`);
  const headers = { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' };
  const put = await fetch(`${address}/api/channels/whatsapp`, { method: 'PUT', headers, body: JSON.stringify({ phoneNumberId: line }) });
  if (!put.ok) throw new Error(`canal: ${put.status} ${await put.text()}`);
  const figure = async <T>(name: string, pick: (body: T) => number) =>
    pick((await (await fetch(`${address}/api/metrics/${name}`, { method: 'POST', headers, body: JSON.stringify({ from: day, to: day }) })).json()) as T);
  const people = Math.max(1, Math.round(BURST / 5));
  const run = Math.floor(Math.random() * 500);
  const bodies = Array.from({ length: BURST }, (_, i) =>
    JSON.stringify(
      whatsappText({
        phoneNumberId: line,
        from: `519${String(30_000_000 + run * 100_000 + (i % people) * 41).padStart(8, '0')}`,
        name: `Ráfaga ${i % people}`,
        id: `wamid.SPINE${label}${run}X${i.toString(36).toUpperCase()}`,
        text: sample[i % sample.length],
        at: new Date(Date.now() - (BURST - i) * 10),
      }),
    ),
  );
  const before = statements;
  let next = 0;
  const t0 = performance.now();
  const acks: number[] = [];
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const a = performance.now();
        const res = await fetch(`${address}/api/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body) }, body });
        await res.arrayBuffer();
        acks.push(performance.now() - a);
        if (res.status !== 200) throw new Error(`webhook: ${res.status}`);
      }
    }),
  );
  let stored: number | undefined;
  let counted: number | undefined;
  let analysed: number | undefined;
  let delivered: number | undefined;
  let perMessage: number | undefined;
  const deadline = Date.now() + 15 * 60_000;
  while (analysed === undefined || delivered === undefined) {
    const s = (performance.now() - t0) / 1000;
    if (stored === undefined) {
      const { rows } = await query(`select count(*)::int as n from chat_messages where company_id = $1`, [company]);
      if ((rows[0]?.n ?? 0) >= BURST) {
        stored = s;
        perMessage = (statements - before) / BURST;
      }
    }
    if (stored !== undefined && counted === undefined && (await figure<{ inbound: number }>('total_messages', (b) => b.inbound)) >= BURST) counted = s;
    if (counted !== undefined && analysed === undefined && (await figure<{ analysed: number }>('sentiment_analysis_counts', (b) => b.analysed)) >= people) analysed = s;
    if (delivered === undefined && !spineOf) delivered = 0;
    if (delivered === undefined) {
      const { rows } = await query(`select count(*)::int as n from domain_events where company_id = $1 and dispatched_at is null`, [company]);
      if (stored !== undefined && rows[0]?.n === 0) delivered = s;
    }
    if (Date.now() > deadline) throw new Error('la ráfaga no terminó en 15 minutos');
    await new Promise((r) => setTimeout(r, 250));
  }
  const { rows: ev } = spineOf ? await query(`select count(*)::int as n from domain_events where company_id = $1`, [company]) : { rows: [{ n: 0 }] };
  acks.sort((a, b) => a - b);
  return {
    label,
    acked: acks.length,
    ackP99: acks[Math.floor(acks.length * 0.99)] ?? 0,
    perMessage: perMessage ?? 0,
    stored: stored ?? 0,
    counted: counted ?? 0,
    analysed,
    delivered: label === 'sin bus' ? undefined : delivered,
    events: ev[0]?.n ?? 0,
  };
}

const rows: Awaited<ReturnType<typeof burst>>[] = [];
// the product before the spine (a checkout of an earlier commit has neither emitters nor dispatcher):
// this bench copied there measures that tree with the same code
if (BURST > 0) {
  await spineOf?.stop();
  await emittersOn(false);
  rows.push(await burst('sin bus', '199000000000081'));
  await emittersOn(true);
  await spineOf?.start();
  if (spineOf) rows.push(await burst('con bus', '199000000000082'));
  console.log(`\nburst of ${BURST.toLocaleString('es-PE')} WhatsApp messages from ${Math.round(BURST / 5).toLocaleString('es-PE')} new people, 20 connections, ${booted.database.kind}`);
  console.log('| run | ack p99 | statements / message | stored | counted | analysed | events | all delivered |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.ackP99.toFixed(0)} ms | ${r.perMessage.toFixed(2)} | ${r.stored.toFixed(1)} s | ${r.counted.toFixed(1)} s | ${r.analysed?.toFixed(1)} s | ${r.events.toLocaleString('es-PE')} | ${r.delivered === undefined ? '—' : `${r.delivered.toFixed(1)} s`} |`,
    );
  }
}

// ---- delivery lag at RATE events a second ----
if (RATE > 0 && spineOf) {
  const { createSpine } = await import('../apps/server/src/spine/dispatcher.js');
  const { emit } = await import('../apps/server/src/spine/outbox.js');
  await spineOf.stop();
  await pool.query('update domain_events set dispatched_at = now() where dispatched_at is null');
  const company = await benchCompany(booted, 'Bench bus retraso');
  const lags: number[] = [];
  const listener: Listener = {
    name: 'bench.lag',
    on: ['lead.updated'],
    async handle(events: DomainEvent[]) {
      const now = Date.now();
      for (const e of events) lags.push(now - Date.parse(e.occurredAt));
    },
  };
  const spine = createSpine(booted.database, [listener], { log: booted.app.log });
  await spine.start();
  const total = RATE * SECONDS;
  const perTx = 10;
  const t0 = performance.now();
  let written = 0;
  while (written < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * RATE));
    while (written < due) {
      const n = Math.min(perTx, due - written);
      await emit(booted.database.db, Array.from({ length: n }, (_, i) => ({ type: 'lead.updated' as const, companyId: company, aggregateId: `L${(written + i) % 500}`, payload: { leadId: `L${(written + i) % 500}` } })));
      written += n;
      spine.wake();
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const wrote = (performance.now() - t0) / 1000;
  const until = Date.now() + 120_000;
  while (lags.length < total && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  await spine.stop();
  lags.sort((a, b) => a - b);
  const q = (p: number) => lags[Math.min(lags.length - 1, Math.floor(lags.length * p))] ?? 0;
  console.log(`\ndelivery lag: ${total.toLocaleString('es-PE')} events at ${RATE}/s (${perTx} per transaction, written in ${wrote.toFixed(1)} s), ${booted.database.kind}`);
  console.log(`heard ${lags.length.toLocaleString('es-PE')}: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${lags[lags.length - 1] ?? 0} ms`);
  if (booted.database.kind === 'postgres') {
    // the floor: a NOTIFY heard by a LISTEN on another connection
    const listen = new pg.Client({ connectionString: booted.database.connectionString });
    await listen.connect();
    await listen.query('LISTEN bench_floor');
    const trips: number[] = [];
    for (let i = 0; i < 500; i++) {
      const heard = new Promise<void>((resolve) => listen.once('notification', () => resolve()));
      const a = performance.now();
      await pool.query(`select pg_notify('bench_floor', '')`);
      await heard;
      trips.push(performance.now() - a);
    }
    await listen.end();
    trips.sort((a, b) => a - b);
    console.log(`floor, NOTIFY → LISTEN on another connection: p50 ${trips[250]?.toFixed(2)} ms, p99 ${trips[495]?.toFixed(2)} ms`);
  }
}
await booted.close();
