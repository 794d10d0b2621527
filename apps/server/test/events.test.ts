import type { RealtimeEvent } from '@mostrador/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartsJoiner, notifyPayloads, REALTIME_CHANNEL } from '../src/lib/realtime.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let base: string;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let chile: string;

beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  chile = admin.company('Demo Chile');
});
afterAll(async () => {
  await t?.close();
});

/** An open browser: reads GET /api/events over real HTTP and collects what arrives. */
async function openStream(s: Signed, companyId: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers: as(s, companyId) as Record<string, string>, signal: controller.signal });
  const received: RealtimeEvent[] = [];
  const names: string[] = [];
  const reading = (async () => {
    if (!res.ok || !res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const name = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (name && data) {
            names.push(name);
            received.push(JSON.parse(data));
          }
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    res,
    received,
    names,
    async close() {
      controller.abort();
      await reading;
    },
  };
}

async function until(check: () => boolean, what: string, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`no llegó a tiempo: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const leadUpdated = (leadId: string): RealtimeEvent => ({ type: 'lead.updated', leadId });

describe('GET /api/events (real time)', () => {
  it('needs a signed-in user: without a token it is refused and no stream opens', async () => {
    const res = await fetch(`${base}/api/events`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).not.toContain('text/event-stream');
  });

  it('an event of the company reaches every open browser of it, and no other company', async () => {
    const first = await openStream(admin, peru);
    const second = await openStream(agent, peru);
    const otherCompany = await openStream(admin, chile);
    const otherCorporation = await openStream(acme, acme.company('Acme'));
    try {
      for (const s of [first, second, otherCompany, otherCorporation]) {
        expect(s.res.status).toBe(200);
        expect(s.res.headers.get('content-type')).toContain('text/event-stream');
      }
      await t.app.realtime.publish(peru, leadUpdated('00000000-0000-4000-8000-000000000001'));
      await until(() => first.received.length === 1 && second.received.length === 1, 'el evento a los dos navegadores');
      expect(first.names).toEqual(['lead.updated']);
      expect(second.received[0]).toEqual(leadUpdated('00000000-0000-4000-8000-000000000001'));

      // the other companies' streams hear their own events only
      await t.app.realtime.publish(chile, leadUpdated('00000000-0000-4000-8000-000000000002'));
      await until(() => otherCompany.received.length === 1, 'el evento de Demo Chile');
      expect(otherCompany.received[0]).toEqual(leadUpdated('00000000-0000-4000-8000-000000000002'));
      expect(first.received).toHaveLength(1);
      expect(otherCorporation.received).toHaveLength(0);
    } finally {
      await Promise.all([first, second, otherCompany, otherCorporation].map((s) => s.close()));
    }
  });

  it('a person’s notice reaches that person’s browsers only (decision 0075)', async () => {
    const mine = await openStream(admin, peru);
    const theirs = await openStream(agent, peru);
    // a key its creator made, reading the inbox's stream: its tenant names the creator, yet it is not them
    const made = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: as(admin, peru), payload: { name: 'Panel', permissions: ['chats.list'] } });
    expect(made.statusCode).toBe(201);
    const key = await openStream({ token: made.json().key } as Signed, peru);
    try {
      const notification = { _id: '00000000-0000-4000-8000-000000000009', kind: 'webhook_subscription.paused', title: 'Se pausó una suscripción de webhooks', body: '…', link: '/configuracion/webhooks', readAt: null, createdAt: new Date().toISOString() };
      await t.app.realtime.publish(peru, { type: 'notification.created', userId: admin.user._id, notification });
      // a later company event reaches both: the agent's stream had its chance at the notice
      await t.app.realtime.publish(peru, leadUpdated('00000000-0000-4000-8000-000000000010'));
      await until(() => mine.received.length === 2 && theirs.received.length === 1 && key.received.length === 1, 'el aviso y el evento');
      expect(mine.names).toEqual(['notification.created', 'lead.updated']);
      expect(theirs.names).toEqual(['lead.updated']);
      expect(key.names).toEqual(['lead.updated']);
    } finally {
      await Promise.all([mine, theirs, key].map((s) => s.close()));
    }
  });

  it('a company the user does not belong to cannot be listened to', async () => {
    const res = await fetch(`${base}/api/events`, { headers: as(acme, peru) as Record<string, string> });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await res.body?.cancel();
  });

  it('a closed browser is forgotten: later events go only to the open ones', async () => {
    const leaving = await openStream(admin, peru);
    const staying = await openStream(admin, peru);
    await leaving.close();
    await new Promise((r) => setTimeout(r, 100));
    await t.app.realtime.publish(peru, leadUpdated('00000000-0000-4000-8000-000000000003'));
    await until(() => staying.received.length === 1, 'el evento al navegador abierto');
    expect(leaving.received).toHaveLength(0);
    await staying.close();
  });

  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL an event raised by another process (a worker) reaches the browsers through NOTIFY', async () => {
    const stream = await openStream(admin, peru);
    const worker = new pg.Client({ connectionString: t.database.connectionString });
    await worker.connect();
    try {
      await worker.query('begin');
      await worker.query('select pg_notify($1, $2)', [REALTIME_CHANNEL, JSON.stringify({ companyId: peru, event: leadUpdated('00000000-0000-4000-8000-000000000004') })]);
      // NOTIFY is delivered when the work commits, not before
      await new Promise((r) => setTimeout(r, 200));
      expect(stream.received).toHaveLength(0);
      await worker.query('commit');
      await until(() => stream.received.length === 1, 'el evento del otro proceso');
      expect(stream.received[0]).toEqual(leadUpdated('00000000-0000-4000-8000-000000000004'));
    } finally {
      await worker.end();
      await stream.close();
    }
  });
});

/** A sync's progress with a long error report: far over NOTIFY's 8000 bytes. */
const bigProgress = (errors: number): RealtimeEvent => ({
  type: 'sync.progress',
  run: {
    _id: '00000000-0000-4000-8000-000000000009',
    storeId: '00000000-0000-4000-8000-000000000010',
    storeName: 'Tienda Ñuñoa 🛒',
    country: 'CL',
    kind: 'all',
    status: 'running',
    total: 10_000,
    done: 4_321,
    created: 10,
    updated: 2,
    unchanged: 4_000,
    storeWrites: 0,
    requests: 90,
    failedItems: errors,
    errors: Array.from({ length: errors }, (_, i) => ({ item: `Producto P${i} «añejo» ☕`, msg: `La tienda rechazó el SKU repetido P${i}: ya lo usa otro producto` })),
    createdAt: '2026-11-25T12:00:00.000Z',
  },
});

describe('events larger than one NOTIFY', () => {
  it('go in parts under 8000 bytes each and come back whole, in any order of arrival', () => {
    const envelope = { companyId: '00000000-0000-4000-8000-000000000001', event: bigProgress(400) };
    const payloads = notifyPayloads(envelope);
    expect(payloads.length).toBeGreaterThan(3);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(7900);
    const joiner = createPartsJoiner();
    const parts = payloads.map((p) => JSON.parse(p));
    const [last, ...rest] = [...parts].reverse();
    for (const p of rest) expect(joiner.add(p)).toBeUndefined();
    expect(joiner.add(last)).toEqual(envelope);
    joiner.clear();
    // a small event stays one payload
    expect(notifyPayloads({ companyId: envelope.companyId, event: leadUpdated('00000000-0000-4000-8000-000000000005') })).toHaveLength(1);
  });

  it('reach the open browsers whole (on PostgreSQL through NOTIFY in parts)', async () => {
    const stream = await openStream(admin, peru);
    try {
      const event = bigProgress(300);
      await t.app.realtime.publish(peru, event);
      await until(() => stream.received.length === 1, 'el progreso con su informe');
      expect(stream.received[0]).toEqual(event);
    } finally {
      await stream.close();
    }
  });
});
