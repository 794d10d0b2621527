import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RealtimeEvent } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * In-product notices (decision 0075): a webhook subscription failing for 24 h pauses itself and
 * writes `webhook_subscription.paused` on the spine in the same statement; the `notifications`
 * listener tells the company's owners and the roles with the module `api` — once each, however
 * often the event is handed — and they read them under the bell, each only their own.
 */

let t: TestApp;
let admin: Signed;
let agent: Signed;
let company: string;
let server: Server;
let base: string;

beforeAll(async () => {
  // a receiver that is always down
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(503).end('caído'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1', WEBHOOK_TIMEOUT_SECONDS: '1' });
  admin = await login(t, demo.admin);
  agent = await login(t, demo.agent);
  company = admin.company('Demo Perú');
  // the demo's own notice (its Zapier flow paused itself) is dropped: these tests count their own
  await t.sql('delete from notifications');
});
afterAll(async () => {
  await t?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

type Json = Record<string, unknown>;
interface Notice {
  _id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  readAt: string | null;
  createdAt: string;
}
const call = async (who: Signed | Record<string, string>, method: 'GET' | 'POST', url: string, payload?: Json) => {
  const headers = 'token' in who ? as(who as Signed, company) : (who as Record<string, string>);
  const res = await t.app.inject({ method, url: `/api${url}`, headers, payload });
  return { status: res.statusCode, body: (res.body ? res.json() : undefined) as Json & { errors?: { msg: string; code?: string } } };
};
const bell = async (who: Signed) => {
  const res = await call(who, 'GET', '/notifications');
  expect(res.status).toBe(200);
  return res.body as unknown as { payload: Notice[]; unread: number };
};

/** A subscription whose deliveries have failed for 25 h: the next failure pauses it. */
async function pauseOne(path: string): Promise<string> {
  const made = await call(admin, 'POST', '/webhook-subscriptions', { url: `${base}${path}`, events: ['lead.created'] });
  expect(made.status).toBe(201);
  const id = made.body._id as string;
  expect((await call(admin, 'POST', '/leads', { name: `Cliente ${path}`, platform: 'whatsapp', status: 'sin-asignar' })).status).toBe(201);
  await until(async () => (await t.sql(`select 1 from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.subscription_id = $1`, [id])).length, (n) => n >= 1);
  await t.sql(`update webhook_subscriptions set failing_since = now() - interval '25 hours' where id = $1`, [id]);
  await t.sql(`update webhook_deliveries set next_attempt_at = now() where subscription_id = $1 and status = 'pending'`, [id]);
  await t.app.webhookDeliverer.wake();
  return id;
}

describe('a subscription that pauses itself', () => {
  let first: Notice;

  it('writes its event in the pause itself, and its owner (not an agent without `api`) gets exactly one notice, live', async () => {
    const heard: RealtimeEvent[] = [];
    const stop = t.app.realtime.subscribe(company, (e) => heard.push(e));
    const id = await pauseOne('/erp-caido');
    const sub = await call(admin, 'GET', `/webhook-subscriptions/${id}`);
    expect(sub.body.status).toBe('paused');

    const events = await t.sql<{ type: string; aggregate_type: string; aggregate_id: string; payload: Json; paused_at: Date; occurred_at: Date }>(
      `select e.type, e.aggregate_type, e.aggregate_id, e.payload, s.paused_at, e.occurred_at
         from domain_events e join webhook_subscriptions s on s.id::text = e.aggregate_id where e.type = 'webhook_subscription.paused'`,
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ aggregate_type: 'webhook_subscription', aggregate_id: id, payload: { subscriptionId: id, url: `${base}/erp-caido`, reason: sub.body.pausedReason } });
    // the same statement: the same transaction time
    expect(new Date(events[0].occurred_at).getTime()).toBe(new Date(events[0].paused_at).getTime());

    const mine = await until(() => bell(admin), (b) => b.payload.length >= 1);
    expect(mine.unread).toBe(1);
    expect(mine.payload).toHaveLength(1);
    first = mine.payload[0];
    expect(first).toMatchObject({ kind: 'webhook_subscription.paused', title: 'Se pausó una suscripción de webhooks', link: '/configuracion/webhooks', readAt: null });
    expect(first.body).toContain(`${base}/erp-caido`);
    expect(first.body).toMatch(/fallaron durante 24 horas/);
    await until(async () => heard.filter((e) => e.type === 'notification.created'), (l) => l.length >= 1);
    stop();
    const live = heard.filter((e) => e.type === 'notification.created');
    expect(live.map((e) => e.type === 'notification.created' && [e.userId, e.notification._id])).toContainEqual([admin.user._id, first._id]);

    expect((await bell(agent)).payload).toEqual([]);
    // only owners and roles with the module `api` were told
    const told = await t.sql<{ role: string }>(`select m.role from notifications n join memberships m on m.user_id = n.user_id and m.company_id = n.company_id`);
    expect(told.length).toBeGreaterThanOrEqual(1);
    expect(told.every((r) => r.role === 'admin')).toBe(true);
  });

  it('tells nobody twice when the event is handed again', async () => {
    const before = (await t.sql<{ n: string }>(`select count(*) as n from notifications`))[0].n;
    expect(await t.app.spine.replay('notifications', new Date(Date.now() - 3600_000))).toBeGreaterThanOrEqual(1);
    await t.app.spine.drain();
    expect((await t.sql<{ n: string }>(`select count(*) as n from notifications`))[0].n).toBe(before);
    expect((await bell(admin)).payload).toHaveLength(1);
  });

  it('is marked read by its person only; read-all marks the rest', async () => {
    // another person's notice, in the same company or from another corporation, does not exist for them
    const refused = await call(agent, 'POST', `/notifications/${first._id}/read`);
    expect(refused.status).toBe(404);
    expect(refused.body.errors?.msg).toBe('El aviso no existe');
    const acme = await login(t, demo.acme);
    expect((await call(as(acme), 'POST', `/notifications/${first._id}/read`)).status).toBe(404);
    expect((await bell(admin)).unread).toBe(1);
    // nor in another company of the same person
    expect((await call(as(admin, admin.company('Demo Chile')), 'POST', `/notifications/${first._id}/read`)).status).toBe(404);
    expect((await call(admin, 'POST', '/notifications/no-es-un-id/read')).status).toBe(400);

    const read = await call(admin, 'POST', `/notifications/${first._id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.readAt).toEqual(expect.any(String));
    expect((await bell(admin)).unread).toBe(0);

    // a role given the module `api` is told too
    const corporation = (await t.sql<{ corporation_id: string }>(`select corporation_id from companies where id = $1`, [company]))[0].corporation_id;
    await t.sql(`insert into role_permissions (corporation_id, role, module, action) values ($1, 'agent', 'api', 'list') on conflict do nothing`, [corporation]);
    await pauseOne('/otro-caido');
    const agents = await until(() => bell(agent), (b) => b.payload.length >= 1);
    expect(agents).toMatchObject({ unread: 1, payload: [{ kind: 'webhook_subscription.paused' }] });
    const owners = await until(() => bell(admin), (b) => b.payload.length >= 2);
    expect(owners.unread).toBe(1);
    expect(owners.payload[0].body).toContain('/otro-caido');

    const all = await call(admin, 'POST', '/notifications/read-all');
    expect(all).toMatchObject({ status: 200, body: { updated: 1 } });
    expect((await bell(admin)).unread).toBe(0);
    // the agent's stays unread
    expect((await bell(agent)).unread).toBe(1);
  });

  it('is a person’s: an API key may not read them', async () => {
    const made = await call(admin, 'POST', '/api-keys', { name: 'BI', permissions: ['leads.list'] });
    expect(made.status).toBe(201);
    const res = await call({ authorization: `Bearer ${made.body.key as string}` }, 'GET', '/notifications');
    expect(res.status).toBe(401);
  });
});
