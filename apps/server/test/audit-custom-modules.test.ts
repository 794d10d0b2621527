import type { SendOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudLine } from './fakes/cloud-line.js';
import { type LineApp, startLineApp } from './fixtures/line-app.js';
import { createLabel, whatsappPeople } from './fixtures/whatsapp-people.js';
import { as, type Signed, type TestApp, until } from './helpers.js';

/**
 * The audit log of the custom modules (issue 28, decision 0072): what they change outside the
 * generic resource layer — an order's status and a public placement, a chat's status, a deleted
 * message, mass sends and campaign chunks, integration settings (tokens masked) and syncs started
 * — is recorded with who did it and its fields from → to, in the change's own transaction, and
 * read back as a user reads it, through GET /api/audit-log.
 * Demo Perú's WhatsApp channel points at a fake line (fixtures/line-app.ts).
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9auditoriaTokenDePrueba72';
const LINE = '109000000000072';
const WABA = '102290129340072';
let lineApp: LineApp;
let t: TestApp;
let line: CloudLine;
let admin: Signed;
let home: string;
let peru: string;
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
async function history(entity: string, entityId: string, headers = as(admin, home)): Promise<Entry[]> {
  const res = await call('GET', `/audit-log?entity=${entity}&entityId=${entityId}&limit=200`, undefined, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().payload as Entry[];
}
const auditCount = async () => (await t.sql<{ n: number }>('select count(*)::int as n from audit_log'))[0].n;

let keySeq = 0;
const place = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/orders/place', headers: { 'idempotency-key': `audit-key-${Date.now()}-${keySeq++}` }, payload, remoteAddress: '203.0.113.9' });

beforeAll(async () => {
  lineApp = await startLineApp({ token: TOKEN, phoneNumberId: LINE, waba: WABA });
  ({ t, line, admin, peru } = lineApp);
  home = admin.company('Demo Chile');
  const make = async (path: string, body: object) => {
    const res = await call('POST', path, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  ids.mug = await make('/products', { name: 'Taza auditada', sku: 'AUD-01', price: 5000, stock: 4 });
  ids.catalog = await make('/catalogs', { name: 'Catálogo auditado', productIds: [ids.mug] });
}, 120_000);
afterAll(() => lineApp?.close());

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

describe('messages and sends', () => {
  const waitSend = (id: string, done: (s: SendOut) => boolean) =>
    until(
      async () => (await call('GET', `/sends/${id}`, undefined, as(admin, peru))).json() as SendOut,
      done,
      30_000,
      'el envío',
    );
  const finished = (s: SendOut) => ['sent', 'error', 'sent_with_some_errors', 'stopped'].includes(s.status);

  it('a campaign chunk made, stopped, resumed and its failed retried; a message deleted; a mass send created: each with who and from → to', async () => {
    const headers = as(admin, peru);
    await t.sql(
      `insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, body, body_examples, variable_fields)
       values ($1, $2, '7200001', 'promo_auditada', 'es_PE', 'MARKETING', 'APPROVED', 'Hola {{1}}, tenemos ofertas.', '["María"]', '["nombre"]')`,
      [peru, WABA],
    );
    const tag = await createLabel((method, url, payload) => call(method, url, payload, headers), 'Auditoría de envíos');
    const people = await whatsappPeople(t, peru, '51977720', 2, tag, { inWindow: 2 });
    const seg = await call('POST', '/marketing-segments', { name: 'Segmento auditado', filters: { mostradorLabelIds: [tag] } }, headers);
    expect(seg.statusCode, seg.body).toBe(201);
    const made = await call('POST', '/marketing-campaigns', { name: 'Campaña auditada', segmentId: seg.json()._id, channel: 'whatsapp', templateName: 'promo_auditada', chunkSize: 5, status: 'pending' }, headers);
    expect(made.statusCode, made.body).toBe(201);
    const campaignId = made.json()._id as string;
    const ref = { campaignId, chunkPage: 0 };

    // programmed for tomorrow, stopped, resumed: the second number cannot be delivered to
    const scheduledAt = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const sent = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 5, segment: seg.json()._id, campaign: campaignId, scheduledAt }, headers);
    expect(sent.statusCode, sent.body).toBe(202);
    const chunkId = sent.json().chunk._id as string;
    expect((await call('POST', '/marketing-campaigns/stop_scheduled_chunk', ref, headers)).statusCode).toBe(200);
    line.failFor.set(people[1].phone, { code: 131026, message: 'Message undeliverable' });
    expect((await call('POST', '/marketing-campaigns/resume_chunk', ref, headers)).statusCode).toBe(200);
    expect((await waitSend(chunkId, finished)).status).toBe('sent_with_some_errors');
    line.failFor.delete(people[1].phone);
    const retried = await call('POST', '/marketing-campaigns/retry_failed_chunk', ref, headers);
    expect(retried.statusCode, retried.body).toBe(200);

    const chunk = await history('sends', chunkId, headers);
    expect(chunk.map((e) => e.action)).toEqual(['retry', 'resume', 'stop', 'create']);
    for (const e of chunk) expect(e.actor).toMatchObject({ type: 'user', id: admin.user._id });
    const [retry, resume, stop, create] = chunk;
    expect(create.changes).toMatchObject({ kind: { from: null, to: 'campaign' }, status: { from: null, to: 'scheduled' }, campaignId: { from: null, to: campaignId }, chunkPage: { from: null, to: 0 } });
    expect(stop.changes).toEqual({ status: { from: 'scheduled', to: 'stopped' } });
    expect(resume.changes).toEqual({ status: { from: 'stopped', to: 'pending' } });
    expect(retry.changes).toEqual({ status: { from: 'sent_with_some_errors', to: 'pending' }, retried: { from: null, to: 1 } });
    // two more chunks of one person each, programmed: one stopped by hand, the other with every scheduled one
    const small = await call('POST', '/marketing-campaigns', { name: 'Campaña auditada por uno', segmentId: seg.json()._id, channel: 'whatsapp', templateName: 'promo_auditada', chunkSize: 1, status: 'pending' }, headers);
    const smallId = small.json()._id as string;
    const chunkIds: string[] = [];
    for (const chunkPage of [0, 1]) {
      const res = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage, chunkSize: 1, segment: seg.json()._id, campaign: smallId, scheduledAt }, headers);
      expect(res.statusCode, res.body).toBe(202);
      chunkIds.push(res.json().chunk._id);
    }
    expect((await call('POST', '/marketing-campaigns/stop_manually_chunk', { campaignId: smallId, chunkPage: 0 }, headers)).statusCode).toBe(200);
    expect((await call('POST', '/marketing-campaigns/stop_all_scheduled_chunks_for_campaign', { campaignId: smallId }, headers)).json()).toMatchObject({ stopped: 1 });
    for (const id of chunkIds) {
      const [stopped] = await history('sends', id, headers);
      expect(stopped).toMatchObject({ action: 'stop', actor: { type: 'user', id: admin.user._id }, changes: { status: { from: 'scheduled', to: 'stopped' } } });
    }

    // a chunk that already exists: refused, nothing recorded
    const before = await auditCount();
    expect((await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 5, segment: seg.json()._id, campaign: campaignId }, headers)).statusCode).toBe(409);
    expect(await auditCount()).toBe(before);

    // a message of the chunk deleted in its chat, once
    const [message] = await t.sql<{ id: string; chat_id: string }>('select m.id, m.chat_id from chat_messages m join send_recipients r on r.id = m.id where r.send_id = $1 limit 1', [chunkId]);
    for (let i = 0; i < 2; i++) expect((await call('DELETE', `/chats/${message.chat_id}/messages/${message.id}`, undefined, headers)).statusCode).toBe(200);
    const deleted = await history('chat_messages', message.id, headers);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ action: 'delete', actor: { type: 'user', id: admin.user._id }, changes: { isActive: { from: true, to: false } } });

    // a mass send to the label's people
    const mass = await call('POST', '/sends', { name: 'Aviso auditado', audience: { mostradorLabelIds: [tag] }, message: { text: 'Hola, abrimos el domingo' } }, headers);
    expect(mass.statusCode, mass.body).toBe(202);
    const [massCreated] = await history('sends', mass.json().send._id, headers);
    expect(massCreated).toMatchObject({
      action: 'create',
      actor: { type: 'user', id: admin.user._id },
      changes: { kind: { from: null, to: 'massive' }, name: { from: null, to: 'Aviso auditado' }, total: { from: null, to: 2 }, message: { from: null, to: 'Hola, abrimos el domingo' } },
    });

    // and one from the inbox, to chosen chats
    const inbox = await call('POST', '/chats/send_massive_message', { chatIds: [people[0].chatId], text: 'Hola desde el inbox' }, headers);
    expect(inbox.statusCode, inbox.body).toBeLessThan(300);
    const [fromInbox] = await t.sql<{ id: string }>(`select id from sends where company_id = $1 and kind = 'massive' order by created_at desc limit 1`, [peru]);
    expect((await history('sends', fromInbox.id, headers))[0]).toMatchObject({
      action: 'create',
      actor: { type: 'user', id: admin.user._id },
      changes: { total: { from: null, to: 1 }, message: { from: null, to: 'Hola desde el inbox' } },
    });
  });
});

describe('integration settings', () => {
  it('a channel, the AI engine, the Telegram bot and Genial saved and removed: who, what changed, and their tokens masked — never in clear anywhere in the log', async () => {
    const headers = as(admin, peru);
    const secrets = {
      whatsapp: 'EAAGm0PX4ZCpsBAJ9otroTokenDeAuditoria0072',
      llm: 'sk-auditoria-clave-secreta-0072',
      telegram: 'sandbox-bot-auditoria-0072',
      genial: 'gnl_live_auditoria_0072_secreto',
    };
    // a new token for the line, with its display number
    const [channel] = await t.sql<{ id: string }>(`select id from channels where company_id = $1 and kind = 'whatsapp'`, [peru]);
    const saved = await call('PUT', '/channels/whatsapp', { phoneNumberId: LINE, businessAccountId: WABA, accessToken: secrets.whatsapp, displayPhoneNumber: '5117000072' }, headers);
    expect(saved.statusCode, saved.body).toBe(200);
    // the same settings without a token: the stored one stays, nothing changed, nothing recorded
    const count = await auditCount();
    expect((await call('PUT', '/channels/whatsapp', { phoneNumberId: LINE, businessAccountId: WABA, displayPhoneNumber: '5117000072' }, headers)).statusCode).toBe(200);
    expect(await auditCount()).toBe(count);
    // the demo's line (no token) pointed at the fixture's, then the new token
    const [update, pointed] = await history('channels', channel.id, headers);
    expect(pointed).toMatchObject({ action: 'update', actor: { type: 'user', id: admin.user._id }, changes: { providerId: { to: LINE }, accessToken: { from: null, to: '••••' } } });
    expect(update).toMatchObject({ action: 'update', changes: { accessToken: { from: '••••', to: '••••' }, displayPhoneNumber: { from: null, to: '5117000072' } } });
    expect(Object.keys(update.changes).sort()).toEqual(['accessToken', 'displayPhoneNumber']);

    const llm = (body: object) => call('PUT', '/llm/settings', { enabled: true, baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', monthlyBudgetUsd: 5, ...body }, headers);
    expect((await llm({ apiKey: secrets.llm })).statusCode).toBe(200);
    expect((await llm({ monthlyBudgetUsd: 8 })).statusCode).toBe(200);
    const [budget, engine] = await history('llm_settings', peru, headers);
    expect(engine.changes.apiKey).toEqual({ from: engine.action === 'create' ? null : '••••', to: '••••' });
    expect(budget.changes).toEqual({ monthlyBudgetUsd: { from: 5, to: 8 } });

    const bot = await call('PUT', '/telegram/settings', { token: secrets.telegram }, headers);
    expect(bot.statusCode, bot.body).toBe(200);
    expect((await call('DELETE', '/telegram/settings', undefined, headers)).statusCode).toBe(200);
    const [removed, botSaved] = await history('telegram_settings', peru, headers);
    expect(botSaved.changes.token).toEqual({ from: botSaved.action === 'create' ? null : '••••', to: '••••' });
    expect(removed).toMatchObject({ action: 'delete', changes: { token: { from: '••••', to: null } } });

    const genial = await call(
      'PUT',
      '/genial/settings/PE',
      { apiUrl: 'https://genial.example', token: secrets.genial, issuerTaxId: '20601234565', issuerName: 'Demo Perú Auditada S.A.C.', seriesFactura: 'F001', seriesBoleta: 'B001' },
      headers,
    );
    expect(genial.statusCode, genial.body).toBe(200);
    const [invoicing] = await history('genial_settings', 'PE', headers);
    expect(invoicing).toMatchObject({ actor: { type: 'user', id: admin.user._id }, changes: { token: { to: '••••' }, issuerName: { to: 'Demo Perú Auditada S.A.C.' } } });

    // not one token, nor the fixture's, in clear in any row of the log (nor any sealed value)
    const [log] = await t.sql<{ text: string }>(`select coalesce(string_agg(changes::text, ' '), '') as text from audit_log`);
    for (const secret of [...Object.values(secrets), TOKEN]) expect(log.text).not.toContain(secret);
    const sealed = await t.sql<{ v: string }>(`select access_token as v from channels where company_id = $1 union all select api_key from llm_settings where company_id = $1`, [peru]);
    for (const { v } of sealed.filter((r) => r.v)) expect(log.text).not.toContain(v);
  });
});

describe('syncs', () => {
  it('a WooCommerce, a Mailchimp and a Meta Ads sync started by hand name who started it, on the integration’s record', async () => {
    const mine = [peru, home];
    const [store] = await t.sql<{ id: string; company_id: string }>('select id, company_id from woocommerces where company_id = any($1::uuid[]) order by created_at limit 1', [mine]);
    const [list] = await t.sql<{ id: string; company_id: string }>('select id, company_id from mailchimps where company_id = any($1::uuid[]) order by created_at limit 1', [mine]);
    const [ads] = await t.sql<{ company_id: string }>('select company_id from meta_ad_accounts where company_id = any($1::uuid[]) limit 1', [mine]);
    expect(store && list && ads, 'the demo seeds a sandbox store, a Mailchimp list and an ad account').toBeTruthy();

    const woo = await call('POST', '/ecommerces/sync-all', { storeId: store.id }, as(admin, store.company_id));
    expect(woo.statusCode, woo.body).toBe(202);
    const [started] = await history('woocommerces', store.id, as(admin, store.company_id));
    expect(started).toMatchObject({ action: 'sync', actor: { type: 'user', id: admin.user._id }, changes: { run: { from: null, to: woo.json().runs[0]._id }, kind: { from: null, to: 'all' } } });

    const pull = await call('POST', `/mailchimps/${list.id}/pull`, undefined, as(admin, list.company_id));
    expect(pull.statusCode, pull.body).toBe(202);
    const [pulled] = await history('mailchimps', list.id, as(admin, list.company_id));
    expect(pulled).toMatchObject({ action: 'sync', actor: { type: 'user', id: admin.user._id }, changes: { sync: { from: null, to: pull.json().sync._id }, kind: { to: 'pull' } } });

    const spend = await call('POST', '/meta-ads/sync', undefined, as(admin, ads.company_id));
    expect(spend.statusCode, spend.body).toBe(202);
    const [asked] = await history('meta_ad_accounts', ads.company_id, as(admin, ads.company_id));
    expect(asked).toMatchObject({ action: 'sync', actor: { type: 'user', id: admin.user._id } });
  });
});
