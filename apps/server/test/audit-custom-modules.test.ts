import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * The audit log of the custom modules (issue 28, decision 0072): what they change outside the
 * generic resource layer — an order's status and a public placement, a chat's status — is
 * recorded with who did it and its fields from → to, in the change's own transaction, and read
 * back as a user reads it, through GET /api/audit-log.
 */
let t: TestApp;
let admin: Signed;
let home: string;
const ids: Record<string, string> = {};

interface Entry {
  action: string;
  entity: string;
  entityId: string | null;
  actor: { type: string; id?: string; name: string };
  changes: Record<string, { from: unknown; to: unknown }>;
  userAgent: string | null;
}
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = as(admin, home)) =>
  t.app.inject({ method, url: `/api${url}`, headers: { 'user-agent': 'auditoria-modulos/1.0', ...headers }, payload });
/** A record's history as /auditoria shows it: newest first. */
async function history(entity: string, entityId: string): Promise<Entry[]> {
  const res = await call('GET', `/audit-log?entity=${entity}&entityId=${entityId}&limit=200`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().payload as Entry[];
}
const auditCount = async () => (await t.sql<{ n: number }>('select count(*)::int as n from audit_log'))[0].n;

let keySeq = 0;
const place = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/orders/place', headers: { 'idempotency-key': `audit-key-${Date.now()}-${keySeq++}` }, payload, remoteAddress: '203.0.113.9' });

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  home = admin.company('Demo Chile');
  const make = async (path: string, body: object) => {
    const res = await call('POST', path, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  ids.mug = await make('/products', { name: 'Taza auditada', sku: 'AUD-01', price: 5000, stock: 4 });
  ids.catalog = await make('/catalogs', { name: 'Catálogo auditado', productIds: [ids.mug] });
});
afterAll(async () => {
  await t?.close();
});

describe('orders', () => {
  const customer = { name: 'Ana Auditada', telefono: '+56 9 7777 1234' };
  let orderId = '';

  it('a public placement is a creation by the system; a status change names the user and from → to', async () => {
    const placed = await place({ catalog: ids.catalog, customer, items: [{ productId: ids.mug, quantity: 1 }], shippment: { method: 'pickup' } });
    expect(placed.statusCode, placed.body).toBe(201);
    orderId = placed.json()._id;
    const [created] = await history('orders', orderId);
    expect(created).toMatchObject({
      action: 'create',
      entity: 'orders',
      entityId: orderId,
      actor: { type: 'system' },
      changes: { status: { from: null, to: 'created' }, customerName: { from: null, to: 'Ana Auditada' }, total: { from: null, to: 5000 }, source: { from: null, to: 'catalogo' } },
    });

    const paid = await call('POST', `/orders/${orderId}/status`, { status: 'paid' });
    expect(paid.statusCode, paid.body).toBe(200);
    const [update] = await history('orders', orderId);
    expect(update).toMatchObject({
      action: 'update',
      actor: { type: 'user', id: admin.user._id, name: expect.stringMatching(/\S/) },
      changes: { status: { from: 'created', to: 'paid' } },
      userAgent: 'auditoria-modulos/1.0',
    });
  });

  it('a change refused or rolled back leaves no entry', async () => {
    const before = await auditCount();
    // not a move of decision 0032: refused before anything is written
    expect((await call('POST', `/orders/${orderId}/status`, { status: 'created' })).statusCode).toBe(400);
    // more than the stock: the placement's transaction rolls back
    const short = await place({ catalog: ids.catalog, customer, items: [{ productId: ids.mug, quantity: 99 }], shippment: { method: 'pickup' } });
    expect(short.statusCode).toBe(409);
    expect(await auditCount()).toBe(before);

    // the audit row and the change are one transaction: when the row cannot be written, the order does not move either
    await t.sql(`create or replace function audit_test_refuse() returns trigger language plpgsql as $$
      begin if new.entity = 'orders' and new.changes->'status'->>'to' = 'cancelled' then raise exception 'auditoría no disponible'; end if; return new; end $$`);
    await t.sql('create trigger audit_test_refuse before insert on audit_log for each row execute function audit_test_refuse()');
    try {
      const cancelled = await call('POST', `/orders/${orderId}/status`, { status: 'cancelled' });
      expect(cancelled.statusCode).toBe(500);
    } finally {
      await t.sql('drop trigger audit_test_refuse on audit_log');
      await t.sql('drop function audit_test_refuse()');
    }
    const [order] = await t.sql<{ status: string }>('select status from orders where id = $1', [orderId]);
    expect(order.status).toBe('paid');
    // the stock the cancellation gave back was given back in the same transaction, and taken back with it
    const [mug] = await t.sql<{ stock: number }>('select stock from products where id = $1', [ids.mug]);
    expect(Number(mug.stock)).toBe(3);
    expect((await history('orders', orderId)).map((e) => e.action)).toEqual(['update', 'create']);
  });
});

describe('chats', () => {
  it('a snooze, a resolve and a reopen name the user and status and snoozedUntil from → to; a status it already had records nothing', async () => {
    const made = await call('POST', '/chats', { contactName: 'Chat auditado', platform: 'whatsapp', status: 'open' });
    expect(made.statusCode, made.body).toBe(201);
    const chat = made.json()._id as string;
    const status = (body: object) => call('POST', `/chats/${chat}/status`, body);
    const snoozedUntil = new Date(Date.now() + 24 * 3_600_000).toISOString();
    expect((await status({ status: 'snoozed', snoozedUntil })).statusCode).toBe(200);
    expect((await status({ status: 'closed' })).statusCode).toBe(200);
    expect((await status({ status: 'closed' })).statusCode).toBe(200);
    expect((await status({ status: 'open' })).statusCode).toBe(200);
    const updates = (await history('chats', chat)).filter((e) => e.action === 'update');
    expect(updates.map((e) => e.changes)).toEqual([
      { status: { from: 'closed', to: 'open' } },
      { status: { from: 'snoozed', to: 'closed' }, snoozedUntil: { from: snoozedUntil, to: null } },
      { status: { from: 'open', to: 'snoozed' }, snoozedUntil: { from: null, to: snoozedUntil } },
    ]);
    for (const e of updates) expect(e.actor).toMatchObject({ type: 'user', id: admin.user._id });
    // another company's chat: a 404, nothing recorded
    const before = await auditCount();
    expect((await call('POST', `/chats/${chat}/status`, { status: 'closed' }, as(admin, admin.company('Demo Perú')))).statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it('a snoozed chat that opens by itself is the system’s doing', async () => {
    const made = await call('POST', '/chats', { contactName: 'Chat que despierta', platform: 'whatsapp', status: 'open' });
    const chat = made.json()._id as string;
    const snoozedUntil = new Date(Date.now() + 1500).toISOString();
    expect((await call('POST', `/chats/${chat}/status`, { status: 'snoozed', snoozedUntil })).statusCode).toBe(200);
    const [woken] = await until(
      () => history('chats', chat),
      (h) => h[0]?.changes.status?.to === 'open',
    );
    expect(woken).toMatchObject({ action: 'update', actor: { type: 'system' }, changes: { status: { from: 'snoozed', to: 'open' }, snoozedUntil: { from: snoozedUntil, to: null } } });
  });
});
