/**
 * 10,000 WhatsApp webhook deliveries, 30% of them replays of earlier ones (Meta retries a
 * delivery it thinks failed): are they acknowledged fast, and does a replay ever have a
 * second effect?
 *
 * A fresh company with a WhatsApp line receives 7,000 distinct messages from 2,000 people,
 * plus 3,000 replays of those messages (same body, same signature), shuffled and sent over
 * HTTP with 20 concurrent connections, as Meta's servers would. Prints the acknowledgement
 * time (p50/p99), how long the queue took to process everything, and counts what was stored:
 * one message per provider id, one lead, clean lead and chat per person, unread counts that
 * add up — any surplus is a double effect.
 *
 *   npm run webhooks --workspace @mostrador/bench                    # PGlite (in memory)
 *   DATABASE_URL=postgres://…/empty_db npm run webhooks --workspace @mostrador/bench
 *   EVENTS=2000 npm run webhooks …                                   # another size
 */
import { sign, whatsappText } from '../apps/server/test/fakes/meta.js';
import { benchCompany, startBench } from './start.js';

const EVENTS = Number(process.env.EVENTS ?? 10_000);
const DUPLICATE_SHARE = 0.3;
const PEOPLE = Math.max(1, Math.round(EVENTS / 5));
const CONCURRENCY = 20;
const LINE = '199000000000001';

const { booted, address, token } = await startBench({ work: true });
const { pool } = booted.database;
const company = { id: await benchCompany(booted, 'Bench webhooks') };
const put = await fetch(`${address}/api/channels/whatsapp`, {
  method: 'PUT',
  headers: { authorization: `Bearer ${token}`, 'x-company-id': company.id, 'content-type': 'application/json' },
  body: JSON.stringify({ phoneNumberId: LINE }),
});
if (!put.ok) throw new Error(`canal: ${put.status} ${await put.text()}`);

// 7,000 distinct messages from 2,000 people, then 3,000 replays of random ones, shuffled
const unique = Math.round(EVENTS * (1 - DUPLICATE_SHARE));
const bodies: string[] = [];
for (let i = 0; i < unique; i++) {
  const person = i % PEOPLE;
  const from = `519${String(10_000_000 + person * 37).padStart(8, '0')}`;
  bodies.push(
    JSON.stringify(
      whatsappText({ phoneNumberId: LINE, from, name: `Cliente ${person}`, id: `wamid.BENCH${i.toString(36).toUpperCase()}`, text: `Hola, consulta ${i}`, at: new Date(Date.now() - (unique - i) * 1000) }),
    ),
  );
}
const deliveries = [...bodies];
for (let i = 0; i < EVENTS - unique; i++) deliveries.push(bodies[Math.floor(Math.random() * unique)]);
for (let i = deliveries.length - 1; i > 0; i--) {
  const j = Math.floor(Math.random() * (i + 1));
  [deliveries[i], deliveries[j]] = [deliveries[j], deliveries[i]];
}

const acks: number[] = [];
let failures = 0;
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < deliveries.length) {
      const body = deliveries[next++];
      const start = performance.now();
      const res = await fetch(`${address}/api/webhooks/whatsapp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body) },
        body,
      });
      await res.arrayBuffer();
      acks.push(performance.now() - start);
      if (res.status !== 200) failures++;
    }
  }),
);
const sendSeconds = (performance.now() - t0) / 1000;

// wait for the queue to process every stored event
const deadline = Date.now() + 30 * 60_000;
for (;;) {
  const {
    rows: [{ n }],
  } = await pool.query<{ n: number }>(`select count(*)::int as n from webhook_events where status = 'pending' and account_id = $1`, [LINE]);
  if (n === 0) break;
  if (Date.now() % 5000 < 500) console.log(`pendientes en la cola: ${n}`);
  if (Date.now() > deadline) throw new Error('la cola no terminó en 30 minutos');
  await new Promise((r) => setTimeout(r, 500));
}
const totalSeconds = (performance.now() - t0) / 1000;

const one = async (text: string) => Number((await pool.query<{ n: number }>(text, [company.id])).rows[0].n);
const stored = {
  events: Number((await pool.query<{ n: number }>(`select count(*)::int as n from webhook_events where account_id = $1`, [LINE])).rows[0].n),
  messages: await one('select count(*)::int as n from chat_messages where company_id = $1'),
  leads: await one('select count(*)::int as n from leads where company_id = $1'),
  cleanLeads: await one('select count(*)::int as n from clean_leads where company_id = $1'),
  chats: await one('select count(*)::int as n from chats where company_id = $1'),
  unread: await one('select coalesce(sum(unread_count), 0)::int as n from chats where company_id = $1'),
};
const doubles =
  Math.max(0, stored.events - unique) +
  Math.max(0, stored.messages - unique) +
  Math.max(0, stored.leads - PEOPLE) +
  Math.max(0, stored.cleanLeads - PEOPLE) +
  Math.max(0, stored.chats - PEOPLE) +
  Math.max(0, stored.unread - unique);
const missing = unique - stored.messages;

acks.sort((a, b) => a - b);
const p = (q: number) => acks[Math.min(acks.length - 1, Math.floor(q * acks.length))].toFixed(1);
console.log(`\n\nPOST /api/webhooks/whatsapp on ${booted.database.kind} (node ${process.version}, ${CONCURRENCY} connections)`);
console.log(`deliveries ${deliveries.length.toLocaleString('es-PE')} (${unique.toLocaleString('es-PE')} distinct, ${(deliveries.length - unique).toLocaleString('es-PE')} replays), people ${PEOPLE.toLocaleString('es-PE')}`);
console.log(`acknowledgement  p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  max ${acks[acks.length - 1].toFixed(1)} ms  non-200 ${failures}`);
console.log(`sent in ${sendSeconds.toFixed(1)} s (${Math.round(deliveries.length / sendSeconds)} deliveries/s); all processed after ${totalSeconds.toFixed(1)} s (${Math.round(unique / totalSeconds)} messages/s)`);
console.log(`stored: ${JSON.stringify(stored)}`);
console.log(`double effects: ${doubles}   missing messages: ${missing}`);
await booted.close();
if (doubles > 0 || missing > 0 || failures > 0) process.exit(1);
