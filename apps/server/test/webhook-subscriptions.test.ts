import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Outbound webhooks (issue 28, decision 0073), as an integrator meets them: a receiver on this
 * machine verifies each delivery's signature the way Stripe's libraries do, answers 200, 500 or
 * nothing at all, and the product retries, keeps the order of an aggregate's events, logs every
 * attempt, pauses a subscription failing for 24 h and sends again on «Reenviar».
 */

/** An integrator's verification: the header's t and v1, HMAC-SHA256 of "t.body", a 5-minute tolerance. */
function verify(secret: string, header: string | undefined, raw: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex'));
  const got = Buffer.from(parts.v1);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: { id: string; type: string; createdAt: string; companyId: string; data: Record<string, unknown> };
}

let t: TestApp;
let admin: Signed;
let company: string;
let server: Server;
let base: string;
const received: Received[] = [];
/** What the receiver does next: its status, or hang (no answer before the product's 1 s timeout). */
let behaviour: { status: number; hang?: boolean } = { status: 200 };

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) });
      if (behaviour.hang) return void setTimeout(() => res.end('tarde'), 2500);
      res.writeHead(behaviour.status, { 'content-type': 'text/plain' }).end(behaviour.status >= 300 ? 'el ERP está en mantenimiento' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1', WEBHOOK_TIMEOUT_SECONDS: '1' });
  admin = await login(t, demo.admin);
  company = admin.company('Demo Chile');
});
afterAll(async () => {
  await t?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});
beforeEach(() => {
  behaviour = { status: 200 };
});

type Json = Record<string, unknown>;
const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json, headers = as(admin, company)) => {
  const res = await t.app.inject({ method, url: `/api${url}`, headers, payload });
  return { status: res.statusCode, body: (res.body ? res.json() : undefined) as Json & { errors?: { msg: string } } };
};
const subscribe = async (path: string, events: string[]) => {
  const made = await call('POST', '/webhook-subscriptions', { url: `${base}${path}`, events, description: 'ERP' });
  expect(made.status).toBe(201);
  return made.body as Json & { _id: string; secret: string };
};
const newLead = async (name: string) => {
  const res = await call('POST', '/leads', { name, platform: 'whatsapp', status: 'sin-asignar' });
  expect(res.status).toBe(201);
  return res.body._id as string;
};
const at = (path: string) => received.filter((r) => r.path === path);
const deliveries = async (id: string) => (await call('GET', `/webhook-subscriptions/${id}/deliveries`)).body.payload as Array<Json & { status: string; attempts: Json[] }>;
/** The next retry is due now (instead of in 30 s), and the deliverer looks. */
const retryNow = async (subscriptionId: string) => {
  await t.sql(`update webhook_deliveries set next_attempt_at = now() where subscription_id = $1 and status = 'pending'`, [subscriptionId]);
  await t.app.webhookDeliverer.wake();
};

describe('a subscription', () => {
  it('receives what it listens to, signed so an integrator can verify it, and its secret is shown once', async () => {
    const sub = await subscribe('/erp', ['lead.created']);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify((await call('GET', `/webhook-subscriptions/${sub._id}`)).body)).not.toContain(sub.secret);
    const leadId = await newLead('Cliente del ERP');
    const [got] = await until(async () => at('/erp'), (list) => list.length >= 1);
    expect(got.body).toMatchObject({ type: 'lead.created', companyId: company, data: { leadId } });
    expect(got.headers['mostrador-event-type']).toBe('lead.created');
    expect(got.headers['mostrador-event-id']).toBe(got.body.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(verify(sub.secret, got.headers['mostrador-signature'] as string, got.raw)).toBe(true);
    // a tampered body or another secret does not verify
    expect(verify(sub.secret, got.headers['mostrador-signature'] as string, got.raw.replace(leadId, 'otro-lead'))).toBe(false);
    expect(verify('whsec_otro', got.headers['mostrador-signature'] as string, got.raw)).toBe(false);
    const [delivery] = await until(() => deliveries(sub._id), (list) => list[0]?.status === 'delivered');
    expect(delivery.attempts).toMatchObject([{ status: 200, excerpt: 'ok', error: null }]);
  });

  it('is not sent what it does not listen to, nor another company’s events', async () => {
    const sub = await subscribe('/solo-pedidos', ['order.created']);
    await newLead('No es un pedido');
    const other = await login(t, demo.acme);
    await t.app.inject({ method: 'POST', url: '/api/leads', headers: as(other), payload: { name: 'De Acme', platform: 'whatsapp', status: 'sin-asignar' } });
    await t.app.spine.drain();
    await new Promise((r) => setTimeout(r, 1500));
    expect(at('/solo-pedidos')).toEqual([]);
    expect(await deliveries(sub._id)).toEqual([]);
  });

  it('keeps the order of an aggregate’s events, and sends nothing for a change that rolled back', async () => {
    await subscribe('/orden', ['lead.created', 'lead.updated']);
    const leadId = await newLead('Ordenado');
    for (const name of ['Uno', 'Dos', 'Tres']) expect((await call('PUT', `/leads/${leadId}`, { name })).status).toBe(200);
    const list = await until(async () => at('/orden').filter((r) => r.body.data.leadId === leadId), (l) => l.length >= 4);
    expect(list.map((r) => r.body.type)).toEqual(['lead.created', 'lead.updated', 'lead.updated', 'lead.updated']);

    const client = await t.app.database.pool.connect();
    try {
      await client.query('begin');
      await client.query(`insert into leads (company_id, name, platform, status) values ($1, 'Nunca existió', 'whatsapp', 'sin-asignar')`, [company]);
      await client.query('rollback');
    } finally {
      client.release();
    }
    await new Promise((r) => setTimeout(r, 1500));
    expect(received.some((r) => JSON.stringify(r.body).includes('Nunca existió'))).toBe(false);
  });
});

describe('a receiver that fails', () => {
  it('is retried on a 500 and on a timeout, each attempt logged, until it answers', async () => {
    const sub = await subscribe('/caido', ['lead.created']);
    behaviour = { status: 500 };
    await newLead('Reintentado');
    let [delivery] = await until(() => deliveries(sub._id), (l) => (l[0]?.attempts.length ?? 0) >= 1);
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ status: 500, error: 'La dirección respondió HTTP 500', excerpt: 'el ERP está en mantenimiento' });
    // the wait grows: the next try is some seconds away, not now
    expect(Date.parse(delivery.nextAttemptAt as string) - Date.now()).toBeGreaterThan(5_000);
    expect((await call('GET', `/webhook-subscriptions/${sub._id}`)).body.failingSince).not.toBeNull();

    behaviour = { status: 200, hang: true };
    await retryNow(sub._id);
    [delivery] = await until(() => deliveries(sub._id), (l) => (l[0]?.attempts.length ?? 0) >= 2);
    expect(delivery.attempts[1]).toMatchObject({ status: null, error: 'Sin respuesta en 1 s' });

    behaviour = { status: 204 };
    await retryNow(sub._id);
    [delivery] = await until(() => deliveries(sub._id), (l) => l[0]?.status === 'delivered');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, null, 204]);
    // the same event each time, signed anew
    const ids = new Set(at('/caido').map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect((await call('GET', `/webhook-subscriptions/${sub._id}`)).body.failingSince).toBeNull();
  });

  it('failing for 24 h is paused with its reason; resumed, what waited is sent; «Reenviar» sends a delivery again', async () => {
    const sub = await subscribe('/pausa', ['lead.created']);
    behaviour = { status: 503 };
    await newLead('Antes de la pausa');
    await until(() => deliveries(sub._id), (l) => (l[0]?.attempts.length ?? 0) >= 1);
    await t.sql(`update webhook_subscriptions set failing_since = now() - interval '25 hours' where id = $1`, [sub._id]);
    await retryNow(sub._id);
    const paused = await until(
      async () => (await call('GET', `/webhook-subscriptions/${sub._id}`)).body,
      (s) => s.status === 'paused',
    );
    expect(paused.pausedReason).toMatch(/fallaron durante 24 horas/);
    // paused: nothing more is tried
    behaviour = { status: 200 };
    const before = at('/pausa').length;
    await retryNow(sub._id);
    expect(at('/pausa').length).toBe(before);

    expect((await call('PUT', `/webhook-subscriptions/${sub._id}`, { status: 'active' })).status).toBe(200);
    await until(() => deliveries(sub._id), (l) => l[0]?.status === 'delivered');
    const [delivered] = await deliveries(sub._id);
    const redeliver = await call('POST', `/webhook-subscriptions/${sub._id}/deliveries/${delivered._id}/redeliver`);
    expect(redeliver.status).toBe(202);
    await until(async () => at('/pausa').filter((r) => r.body.id === delivered.eventId).length, (n) => n >= 3);
  });
});

describe('the subscriptions’ calls', () => {
  it('refuse a bad URL, no events, an unknown event, and another company’s subscription, in Spanish', async () => {
    expect((await call('POST', '/webhook-subscriptions', { url: 'ftp://erp', events: ['lead.created'] })).status).toBe(400);
    expect((await call('POST', '/webhook-subscriptions', { url: `${base}/x`, events: [] })).body.errors?.msg).toBe('Elige al menos un evento');
    expect((await call('POST', '/webhook-subscriptions', { url: `${base}/x`, events: ['lead.volado'] })).body.errors?.msg).toMatch(/Ese evento no existe/);
    const sub = await subscribe('/ajena', ['lead.created']);
    const other = await login(t, demo.acme);
    for (const [method, url] of [
      ['GET', `/webhook-subscriptions/${sub._id}`],
      ['GET', `/webhook-subscriptions/${sub._id}/deliveries`],
      ['DELETE', `/webhook-subscriptions/${sub._id}`],
    ] as const) {
      expect((await call(method, url, undefined, as(other))).status).toBe(404);
    }
    expect((await call('DELETE', `/webhook-subscriptions/${sub._id}`)).status).toBe(204);
  });

  it('are recorded in the audit log with who did them, the secret masked', async () => {
    const sub = await subscribe('/auditada', ['lead.created']);
    expect((await call('PUT', `/webhook-subscriptions/${sub._id}`, { status: 'paused', events: ['lead.created', 'order.paid'] })).status).toBe(200);
    expect((await call('DELETE', `/webhook-subscriptions/${sub._id}`)).status).toBe(204);
    const rows = await t.sql<{ action: string; actor: { type: string; id: string }; changes: Record<string, { from: unknown; to: unknown }> }>(
      `select action, actor, changes from audit_log where entity = 'webhook_subscriptions' and entity_id = $1 order by id`,
      [sub._id],
    );
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    expect(rows.every((r) => r.actor.type === 'user' && r.actor.id === admin.user._id)).toBe(true);
    expect(rows[0].changes.secret).toEqual({ from: null, to: '••••' });
    expect(JSON.stringify(rows)).not.toContain(sub.secret);
    expect(rows[1].changes.status).toEqual({ from: 'active', to: 'paused' });
    expect(rows[1].changes.events).toEqual({ from: ['lead.created'], to: ['lead.created', 'order.paid'] });
    expect(rows[2].changes.url).toEqual({ from: `${base}/auditada`, to: null });
  });
});

describe('without OUTBOUND_ALLOW_PRIVATE_URLS', () => {
  it('a loopback or private receiver is refused when subscribed', async () => {
    const strict = await startTestApp();
    try {
      const who = await login(strict, demo.admin);
      for (const url of ['http://127.0.0.1:9/hook', 'http://10.0.0.5/hook', 'http://localhost/hook']) {
        const res = await strict.app.inject({ method: 'POST', url: '/api/webhook-subscriptions', headers: as(who), payload: { url, events: ['lead.created'] } });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.msg).toMatch(/dirección interna/);
      }
    } finally {
      await strict.close();
    }
  });
});
