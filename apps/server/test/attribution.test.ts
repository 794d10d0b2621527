import { type AttributionChatsOut, type AttributionOut, type AttributionSettingsOut, type DomainEvent, usdTo } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributeFromEvents } from '../src/modules/attribution/listener.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Attribution (issue 31, decisions 0096 and 0097) on a real database, through the spine: orders
 * attributed by the listener to the ad or send before them (last or first touch) or «Orgánico»,
 * the window's edges, a replayed event, the funnel's figures on a known dataset, its CSV and the
 * conversations behind a row, and nothing of another company.
 */
let t: TestApp;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;

type Method = 'GET' | 'POST' | 'PUT';
const call = (s: Signed, method: Method, url: string, company: string, payload?: object) => t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });
async function ok<T = Record<string, unknown> & { _id: string }>(s: Signed, method: Method, url: string, company: string, payload?: object): Promise<T> {
  const res = await call(s, method, url, company, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as T;
}

const DAY = 86_400_000;
const NOW = Date.now();
/** An instant `days` (and `minutes`) before now. */
const ago = (days: number, minutes = 0) => new Date(NOW - days * DAY - minutes * 60_000).toISOString();
const localDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Lima', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

const one = async <T>(text: string, values: unknown[]) => (await t.sql<T & Record<string, unknown>>(text, values))[0];
async function person(co: string, name: string) {
  const clean = await one<{ id: string }>(`insert into clean_leads (company_id, name, status) values ($1, $2, 'sin-asignar') returning id::text`, [co, name]);
  const lead = await one<{ id: string }>(`insert into leads (company_id, name, platform, status, clean_lead_id) values ($1, $2, 'whatsapp', 'sin-asignar', $3) returning id::text`, [co, name, clean.id]);
  const chat = await one<{ id: string }>(`insert into chats (company_id, contact_name, platform, lead_id, status) values ($1, $2, 'whatsapp', $3, 'open') returning id::text`, [co, name, lead.id]);
  return { cleanLeadId: clean.id, leadId: lead.id, chatId: chat.id };
}
const message = (co: string, chatId: string, direction: 'in' | 'out', at: string, sentBy: string | null = null) =>
  one<{ id: string }>(`insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at, created_at, sent_by) values ($1, $2, $3, 'text', 'hola', 'delivered', $4, $4, $5) returning id::text`, [
    co,
    chatId,
    direction,
    at,
    sentBy,
  ]);
const referral = (co: string, leadId: string, adId: string, at: string, ctwaClid: string, messageId: string | null = null) =>
  t.sql(`insert into lead_referrals (company_id, lead_id, platform, message_id, referral, created_at) values ($1, $2, 'whatsapp', $3, jsonb_build_object('sourceType', 'ad', 'sourceId', $4::text, 'ctwaClid', $5::text), $6)`, [
    co,
    leadId,
    messageId,
    adId,
    ctwaClid,
    at,
  ]);
async function send(co: string, name: string, cleanLeadId: string, chatId: string, at: string) {
  const s = await one<{ id: string }>(`insert into sends (company_id, kind, name, status, content) values ($1, 'massive', $2, 'finished', '{}'::jsonb) returning id::text`, [co, name]);
  await t.sql(
    `insert into send_recipients (company_id, send_id, dedupe_key, position, clean_lead_id, chat_id, name, status, settled_at) values ($1, $2, $2, 1, $3, $4, 'x', 'sent', $5)`,
    [co, s.id, cleanLeadId, chatId, at],
  );
  return s.id;
}
const order = (co: string, p: { leadId: string | null; chatId: string | null }, at: string, status: string, total: number, code: string) =>
  one<{ id: string }>(
    `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id, chat_id, created_at, updated_at)
     values ($1, $2, $3, 'chat', 'Cliente', '', '{}'::jsonb, '[]'::jsonb, $4, $4, 'PEN', $5, $6, $7, $7) returning id::text`,
    [co, code, status, total, p.leadId, p.chatId, at],
  );
const attribution = (orderId: string) =>
  one<{ touch: string; ad_id: string | null; ctwa_clid: string | null; send_id: string | null; chat_id: string | null; model: string; paid: boolean; event_id: string | null }>(
    'select touch, ad_id, ctwa_clid, send_id::text, chat_id::text, model, paid, event_id::text from order_attributions where order_id = $1',
    [orderId],
  );
/** The listener has attributed the order (the spine delivers its event after the insert commits). */
const attributed = async (orderId: string, check: (a: Awaited<ReturnType<typeof attribution>>) => boolean = () => true) => {
  return until(
    () => attribution(orderId),
    (a) => a !== undefined && check(a),
    15_000,
    `la atribución de la orden ${orderId}`,
  );
};
const newCompany = async (name: string) => (await ok(admin, 'POST', '/companies', peru, { name, country: 'PE' }))._id;

beforeAll(async () => {
  t = await startTestApp();
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
});
afterAll(async () => {
  await t?.close();
});

describe('attribution of an order', () => {
  it('goes to the last touch by default (a send after an ad), and to the first one when the company chooses it', async () => {
    const co = await newCompany('Atribución Toques SAC');
    const p = await person(co, 'Ana Torres');
    const inbound = await message(co, p.chatId, 'in', ago(5));
    await referral(co, p.leadId, '9100', ago(5), 'clid-ana', inbound.id);
    const sendId = await send(co, 'Promo de verano', p.cleanLeadId, p.chatId, ago(3));
    const o = await order(co, p, ago(1), 'paid', 120, 'T-1');
    const last = await attributed(o.id);
    expect(last).toMatchObject({ touch: 'send', send_id: sendId, ad_id: null, chat_id: p.chatId, model: 'last', paid: true });

    const settings = await ok<AttributionSettingsOut>(admin, 'PUT', '/metrics/attribution/settings', co, { windowDays: 7, model: 'first' });
    expect(settings).toMatchObject({ windowDays: 7, model: 'first' });
    const first = await attributed(o.id, (a) => a.model === 'first');
    expect(first).toMatchObject({ touch: 'ad', ad_id: '9100', ctwa_clid: 'clid-ana', send_id: null, chat_id: p.chatId });
    await until(() => ok<AttributionSettingsOut>(admin, 'GET', '/metrics/attribution/settings', co), (x) => !x.reattributing && x.reattributedAt !== null, 15_000);
  });

  it('is «Orgánico» when the touch is outside the window; the window includes its edge', async () => {
    const co = await newCompany('Atribución Ventana SAC');
    const late = await person(co, 'Beto Ramos');
    await referral(co, late.leadId, '9200', ago(9), 'clid-beto');
    const o1 = await order(co, late, ago(1), 'created', 50, 'V-1');
    expect(await attributed(o1.id)).toMatchObject({ touch: 'organic', ad_id: null, send_id: null });

    // exactly 7 days before the order: inside
    const edge = await person(co, 'Carla Díaz');
    const at = ago(2);
    await referral(co, edge.leadId, '9201', new Date(Date.parse(at) - 7 * DAY).toISOString(), 'clid-carla');
    const o2 = await order(co, edge, at, 'created', 50, 'V-2');
    expect(await attributed(o2.id)).toMatchObject({ touch: 'ad', ad_id: '9201' });

    // after the order: not a touch of it
    const after = await person(co, 'Diego Paz');
    await referral(co, after.leadId, '9202', ago(0, 30), 'clid-diego');
    const o3 = await order(co, after, ago(0, 60), 'created', 50, 'V-3');
    expect(await attributed(o3.id)).toMatchObject({ touch: 'organic' });

    // an order without a chat or a lead: organic, no conversation
    const o4 = await order(co, { leadId: null, chatId: null }, ago(1), 'paid', 30, 'V-4');
    expect(await attributed(o4.id)).toMatchObject({ touch: 'organic', chat_id: null });

    // a wider window takes the late ad in
    await ok(admin, 'PUT', '/metrics/attribution/settings', co, { windowDays: 10, model: 'last' });
    expect(await attributed(o1.id, (a) => a.touch === 'ad')).toMatchObject({ touch: 'ad', ad_id: '9200', ctwa_clid: 'clid-beto' });
  });

  it('writes one row per order however many times its event is applied', async () => {
    const co = await newCompany('Atribución Repetida SAC');
    const p = await person(co, 'Elsa Vega');
    await referral(co, p.leadId, '9300', ago(2), 'clid-elsa');
    const o = await order(co, p, ago(1), 'created', 75, 'R-1');
    await attributed(o.id);
    const [row] = await t.sql<{ id: string; position: string; type: string; aggregate_type: string; aggregate_id: string; actor: object; payload: object; version: number }>(
      `select id::text, position::text, type, aggregate_type, aggregate_id, actor, payload, version from domain_events where company_id = $1 and type = 'order.created' and aggregate_id = $2`,
      [co, o.id],
    );
    const event = {
      position: Number(row.position),
      id: row.id,
      type: row.type,
      version: row.version,
      companyId: co,
      aggregate: { type: row.aggregate_type, id: row.aggregate_id },
      actor: row.actor,
      payload: row.payload,
    } as unknown as DomainEvent;
    await attributeFromEvents(t.database.db, [event]);
    await attributeFromEvents(t.database.db, [event, event]);
    const rows = await t.sql('select * from order_attributions where company_id = $1', [co]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ touch: 'ad', ad_id: '9300', event_id: row.id });
  });
});

describe('the funnel', () => {
  let co: string;
  let chats: string[];
  beforeAll(async () => {
    co = await newCompany('Atribución Embudo SAC');
    const agent = await ok(admin, 'POST', '/agentes', co, { name: 'Rosa Huamán', email: 'rosa.huaman.embudo@gmail.com' });
    await t.sql(`insert into meta_ads (company_id, ad_id, campaign_id, campaign_name) values ($1, '7001', 'c-1', 'Verano 2x1'), ($1, '7002', 'c-1', 'Verano 2x1')`, [co]);
    await t.sql(
      `insert into ad_spend_daily (company_id, day, campaign_id, campaign_name, currency, spend, impressions, clicks) values ($1, $2, 'c-1', 'Verano 2x1', 'PEN', 60, 1000, 50), ($1, $3, 'c-1', 'Verano 2x1', 'PEN', 40, 800, 30)`,
      [co, localDay(ago(4)), localDay(ago(3))],
    );
    await t.sql(`insert into ad_spend_ads_daily (company_id, day, ad_id, campaign_id, currency, spend) values ($1, $2, '7001', 'c-1', 'PEN', 70), ($1, $3, '7002', 'c-1', 'PEN', 30)`, [
      co,
      localDay(ago(4)),
      localDay(ago(3)),
    ]);
    // two people from the campaign's ads: one answered by a person in 2 minutes and bought (paid 250, 2 h after
    // the first message); the other answered after 10 minutes, ordered 80 and has not paid; negative sentiment
    const a = await person(co, 'Fabiola Ríos');
    const b = await person(co, 'Gustavo León');
    const c = await person(co, 'Hilda Soto');
    await t.sql(`update chats set agente_id = $1 where id = $2`, [agent._id, a.chatId]);
    const ma = await message(co, a.chatId, 'in', ago(4, 0));
    await referral(co, a.leadId, '7001', ago(4, 0), 'clid-f', ma.id);
    await message(co, a.chatId, 'out', ago(4, -2), admin.user._id);
    const mb = await message(co, b.chatId, 'in', ago(3, 0));
    await referral(co, b.leadId, '7002', ago(3, 0), 'clid-g', mb.id);
    await message(co, b.chatId, 'out', ago(3, -10), admin.user._id);
    await t.sql(`update leads set status = 'informado-al-agente' where id = $1`, [a.leadId]);
    await t.sql(
      `insert into chat_analyses (chat_id, company_id, sentiment, motive, quality, category, engine, messages) values ($1, $3, 'positive', 'compra', 4, 'venta', 'test', 2), ($2, $3, 'negative', 'compra', 2, 'venta', 'test', 2)`,
      [a.chatId, b.chatId, co],
    );
    // an organic conversation (no ad), no order
    await message(co, c.chatId, 'in', ago(2));
    await until(
      async () => Number((await one<{ n: string }>('select count(*) as n from conversation_attributions where company_id = $1 and answered_at is not null', [co])).n),
      (n) => n === 2,
      15_000,
    );
    const o1 = await order(co, a, ago(4, -120), 'paid', 250, 'F-1');
    const o2 = await order(co, b, ago(2), 'created', 80, 'F-2');
    await attributed(o1.id);
    await attributed(o2.id);
    chats = [a.chatId, b.chatId, c.chatId];
    // another company with the same ad id and a big order: never in this one's funnel
    const x = await person(acmeCo, 'Acme Cliente');
    const mx = await message(acmeCo, x.chatId, 'in', ago(3));
    await referral(acmeCo, x.leadId, '7001', ago(3), 'clid-acme', mx.id);
    const ox = await order(acmeCo, x, ago(2), 'paid', 9999, 'X-1');
    await attributed(ox.id);
  });

  const window = () => `from=${localDay(ago(10))}&to=${localDay(ago(0))}`;

  it('by ad campaign: spend, conversations, answers within 5 minutes, qualified, sales, ROAS, cost per sale, median time to sale, negative share', async () => {
    const f = await ok<AttributionOut>(admin, 'GET', `/metrics/attribution?by=ad_campaign&${window()}`, co);
    expect(f).toMatchObject({ currency: 'PEN', timezone: 'America/Lima', model: 'last', windowDays: 7 });
    const c1 = f.rows.find((r) => r.key === 'c-1');
    expect(c1).toEqual({
      key: 'c-1',
      label: 'Verano 2x1',
      campaign: null,
      spend: 100,
      conversations: 2,
      answeredIn5: 1,
      qualified: 1,
      orders: 2,
      paidOrders: 1,
      revenue: 250,
      costPerConversation: 50,
      costPerSale: 100,
      roas: 2.5,
      medianMinutesToSale: expect.any(Number),
      negativeShare: 0.5,
    });
    // F-1 2 h after its conversation began, F-2 a day after its own: the median of 120 and 1440 minutes
    expect(c1?.medianMinutesToSale).toBe(780);
    const organic = f.rows.find((r) => r.key === 'organico');
    expect(organic).toMatchObject({ label: 'Orgánico', conversations: 1, orders: 0, spend: null });
    expect(f.total).toMatchObject({ conversations: 3, orders: 2, revenue: 250, spend: 100, roas: 2.5 });
  });

  it('by ad, by agent and by send', async () => {
    const byAd = await ok<AttributionOut>(admin, 'GET', `/metrics/attribution?by=ad&${window()}`, co);
    expect(byAd.rows.find((r) => r.key === '7001')).toMatchObject({ campaign: 'Verano 2x1', spend: 70, conversations: 1, paidOrders: 1, revenue: 250, roas: 3.57, costPerSale: 70 });
    expect(byAd.rows.find((r) => r.key === '7002')).toMatchObject({ spend: 30, conversations: 1, paidOrders: 0, costPerSale: null, roas: 0 });
    const byAgent = await ok<AttributionOut>(admin, 'GET', `/metrics/attribution?by=agent&${window()}`, co);
    expect(byAgent.rows.find((r) => r.label === 'Rosa Huamán')).toMatchObject({ conversations: 1, orders: 1, revenue: 250, spend: null, roas: null });
    expect(byAgent.rows.find((r) => r.key === 'sin-agente')).toMatchObject({ label: 'Sin agente', conversations: 2, orders: 1 });
    const bySend = await ok<AttributionOut>(admin, 'GET', `/metrics/attribution?by=send&${window()}`, co);
    expect(bySend.rows.map((r) => r.key)).toEqual(['organico']);
  });

  it('never shows another company’s orders, ads or chats', async () => {
    const f = await ok<AttributionOut>(admin, 'GET', `/metrics/attribution?by=ad&${window()}`, co);
    expect(f.total.revenue).toBe(250);
    const theirs = await ok<AttributionOut>(acme, 'GET', `/metrics/attribution?by=ad&${window()}`, acmeCo);
    // Acme counts in its own currency: the order's PEN converted
    expect(theirs.currency).not.toBe('PEN');
    expect(theirs.rows.find((r) => r.key === '7001')).toMatchObject({ revenue: Math.round((9999 / usdTo.PEN) * usdTo[theirs.currency] * 100) / 100, conversations: 1, spend: 0 });
    const drill = await ok<AttributionChatsOut>(acme, 'GET', `/metrics/attribution/chats?by=ad&key=7001&${window()}`, acmeCo);
    expect(drill.payload.map((c) => c.contactName)).toEqual(['Acme Cliente']);
    // another company's id as this one's header: refused
    const cross = await call(acme, 'GET', `/metrics/attribution?by=ad&${window()}`, co);
    expect(cross.json().errors.code).toBe('COMPANY_FORBIDDEN');
  });

  it('exports the same table as CSV', async () => {
    const res = await call(admin, 'GET', `/metrics/attribution/export?by=ad_campaign&${window()}`, co);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe(
      'Grupo,Campaña,Inversión,Conversaciones,Respondidas en 5 min,Calificadas,Órdenes,Órdenes pagadas,Ingresos pagados,Costo por conversación,Costo por venta,ROAS,Mediana hasta la venta (min),Sentimiento negativo',
    );
    expect(lines).toContain('Verano 2x1,,100.00,2,1,1,2,1,250.00,50.00,100.00,2.50,780,0.5000');
    expect(lines).toContain('Orgánico,,,1,0,0,0,0,0.00,,,,,');
    expect(lines.at(-1)).toMatch(/^Total,,100\.00,3,/);
  });

  it('lists the conversations behind a row, paged, newest first', async () => {
    const d = await ok<AttributionChatsOut>(admin, 'GET', `/metrics/attribution/chats?by=ad_campaign&key=c-1&${window()}`, co);
    expect(d.total).toBe(2);
    expect(d.payload.map((c) => c.chatId)).toEqual([chats[1], chats[0]]);
    expect(d.payload[1]).toMatchObject({ contactName: 'Fabiola Ríos', answeredIn5: true, orders: 1, revenue: 250 });
    const page2 = await ok<AttributionChatsOut>(admin, 'GET', `/metrics/attribution/chats?by=ad_campaign&key=c-1&limit=1&page=2&${window()}`, co);
    expect(page2).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(page2.payload.map((c) => c.chatId)).toEqual([chats[0]]);
    const organic = await ok<AttributionChatsOut>(admin, 'GET', `/metrics/attribution/chats?by=ad_campaign&key=organico&${window()}`, co);
    expect(organic.payload.map((c) => c.chatId)).toEqual([chats[2]]);
  });

  it('refuses a bad grouping or window in Spanish, and a role without the permission', async () => {
    const res = await call(admin, 'GET', '/metrics/attribution?by=pais', co);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toContain('Agrupa por');
    const bad = await call(admin, 'PUT', '/metrics/attribution/settings', co, { windowDays: 0, model: 'last' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toContain('al menos 1 día');
    // an agent has neither the metrics nor the settings
    const agent = await login(t, demo.agent);
    const denied = await call(agent, 'GET', `/metrics/attribution?by=ad&${window()}`, peru);
    expect(denied.json().errors.msg).toBe('No tienes permiso para ver las métricas (Métricas · Ver)');
    expect((await call(agent, 'PUT', '/metrics/attribution/settings', peru, { windowDays: 3, model: 'first' })).json().errors.code).toBe('FORBIDDEN');
  });
});

describe('the demo', () => {
  it('has attributed orders to show', async () => {
    const f = await ok<AttributionOut>(admin, 'GET', `/metrics/attribution?by=ad_campaign&from=${localDay(ago(180))}&to=${localDay(ago(0))}`, peru);
    expect(f.rows.filter((r) => r.key !== 'organico' && r.orders > 0).length).toBeGreaterThan(0);
    const bySend = await ok<AttributionOut>(admin, 'GET', `/metrics/attribution?by=send&from=${localDay(ago(180))}&to=${localDay(ago(0))}`, peru);
    expect(bySend.rows.filter((r) => r.key !== 'organico' && r.orders > 0).length).toBeGreaterThan(0);
  });
});
