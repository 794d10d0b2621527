import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_SECRET, deliver, wamid, whatsappEnvelope } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';
import { createWebhookProcessor } from '../src/modules/webhooks/process.js';

/**
 * Sales that would have been lost (issue 30, decision 0089), on the four fixtures of the issue:
 * intent without an order → one follow-up with that cart; an order placed meanwhile → nothing;
 * «pésimo servicio, quiero mi plata» → nothing, and the chat to an agent; opted out → nothing.
 * Plus: never twice, the window closed without a template, «Ventas recuperadas».
 */
let t: TestApp;
let admin: Signed;
let chile: string;
const ids: Record<string, string> = {};
const LINE = '109000000000779';

type Rec = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url: `/api${url}`, headers: as(admin, chile), payload });

/** A WhatsApp conversation: the person's words, an agent's answer after them, both `hoursAgo`; its analysis. */
async function conversation(
  phone: string,
  name: string,
  words: string,
  analysis: { sentiment: string; motive: string },
  hoursAgo = 5,
  at: { company: string; line: string } = { company: chile, line: LINE },
): Promise<{ chatId: string; leadId: string }> {
  const payload = whatsappEnvelope(at.line, phone, name, [{ from: phone, id: wamid(), timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: words } }]);
  expect((await deliver(t, '/api/webhooks/whatsapp', payload, { secret: DEMO_APP_SECRET })).statusCode).toBe(200);
  const processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
  for (const id of await processor.pendingIds()) await processor.process(id);
  const [chat] = await t.sql<{ id: string; lead_id: string }>(
    "select c.id, c.lead_id from chats c join lead_identities i on i.chat_id = c.id where c.company_id = $1 and i.platform = 'whatsapp' and i.platform_user_id = $2",
    [at.company, phone],
  );
  await t.sql("update chat_messages set sent_at = now() - make_interval(hours => $2::int) where chat_id = $1 and direction = 'in'", [chat.id, hoursAgo]);
  await t.sql(
    "insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_by, sent_at) values ($1, $2, 'out', 'text', 'Sí, tenemos. ¿Te lo separo?', 'read', $4, now() - make_interval(hours => $3::int) + interval '5 minutes')",
    [at.company, chat.id, hoursAgo, admin.user._id],
  );
  await t.sql(
    `insert into chat_analyses (chat_id, company_id, sentiment, motive, quality, category, engine, messages, last_message_at, analyzed_at)
     values ($1, $2, $3, $4, 3, 'venta', 'embedded', 2, now() - make_interval(hours => $5::int), now())
     on conflict (chat_id) do update set sentiment = excluded.sentiment, motive = excluded.motive, last_message_at = excluded.last_message_at`,
    [chat.id, at.company, analysis.sentiment, analysis.motive, hoursAgo],
  );
  return { chatId: chat.id, leadId: chat.lead_id };
}
const followupsOf = (chatId: string) => t.sql<Rec>('select * from sales_followups where chat_id = $1', [chatId]);
const sentTo = (chatId: string) => t.sql<{ text: string; status: string }>("select text, status from chat_messages where chat_id = $1 and direction = 'out' and sent_by is null order by created_at", [chatId]);

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  chile = admin.company('Demo Chile');
  const make = async (path: string, body: object) => {
    const res = await call('POST', path, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  ids.polo = await make('/products', {
    name: 'Polo pima',
    sku: 'PPR-01',
    price: 15990,
    stock: 0,
    variants: [
      { sku: 'PPR-01-M', size: 'M', stock: 6 },
      { sku: 'PPR-01-L', size: 'L', stock: 2 },
    ],
  });
  ids.taza = await make('/products', { name: 'Taza enlozada', sku: 'TEZ-01', price: 6990, stock: 20 });
  ids.catalog = await make('/catalogs', { name: 'Catálogo de seguimientos', productIds: [ids.polo, ids.taza], isDefault: true });
  expect((await call('PUT', '/channels/whatsapp', { phoneNumberId: LINE })).statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the sales follow-up', () => {
  it('is off until the company turns it on, and checks what it is given', async () => {
    expect((await call('GET', '/recovery/settings')).json()).toMatchObject({ enabled: false, afterHours: 4, templateId: null, catalogId: ids.catalog });
    const bad = await call('PUT', '/recovery/settings', { enabled: true, afterHours: 0, text: 'Hola', templateId: null, templateValues: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.details.map((d: Rec) => d.msg)).toEqual(['Escribe un número de horas entre 1 y 72', 'El mensaje debe incluir {enlace}: es el carrito que recibe la persona']);
    const saved = await call('PUT', '/recovery/settings', {
      enabled: true,
      afterHours: 3,
      text: '¡Hola {nombre}! Te dejamos {productos} en tu carrito: {enlace}',
      templateId: null,
      templateValues: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ enabled: true, afterHours: 3 });
  });

  it('the four fixtures: one follow-up with that cart, and nothing where nothing is due', async () => {
    const wanted = await conversation('56922220001', 'Camila Rojas', 'Hola, quiero 2 polos pima talla M, ¿tienen?', { sentiment: 'neutral', motive: 'compra' });
    const ordered = await conversation('56922220002', 'Pedro Soto', 'Me interesa la taza enlozada', { sentiment: 'positive', motive: 'precio' });
    const angry = await conversation('56922220003', 'Rosa Díaz', 'pésimo servicio, quiero mi plata', { sentiment: 'negative', motive: 'compra' });
    const optedOut = await conversation('56922220004', 'Luis Mora', 'quiero una taza enlozada', { sentiment: 'neutral', motive: 'compra' });
    const recent = await conversation('56922220005', 'Ana Vera', 'quiero 1 taza enlozada', { sentiment: 'neutral', motive: 'compra' }, 1);
    // Pedro ordered meanwhile; Luis asked not to be written to
    const order = await call('POST', `/chats/${ordered.chatId}/orders`, { customer: { name: 'Pedro Soto', telefono: '56922220002' }, items: [{ productId: ids.taza, quantity: 1 }] });
    expect(order.statusCode, order.body).toBe(201);
    const [person] = await t.sql<{ id: string }>('update clean_leads set opt_out = true where id = (select clean_lead_id from leads where id = $1) returning id', [optedOut.leadId]);
    expect(person).toBeTruthy();

    const run = await call('POST', '/recovery/run');
    expect(run.statusCode, run.body).toBe(200);

    const [followup] = await followupsOf(wanted.chatId);
    expect(followup).toMatchObject({ status: 'sent', kind: 'text' });
    expect(followup.products).toMatchObject([{ sku: 'PPR-01-M', quantity: 2, productId: ids.polo }]);
    expect(followup.cart_url).toMatch(new RegExp(`/catalogo-digital/${ids.catalog}\\?carrito=PPR-01-M:2$`));
    const [sent] = await sentTo(wanted.chatId);
    expect(sent.text).toBe(`¡Hola Camila! Te dejamos Polo pima en tu carrito: ${followup.cart_url}`);

    expect(await followupsOf(ordered.chatId)).toEqual([]);
    expect(await sentTo(ordered.chatId)).toEqual([]);
    expect(await followupsOf(optedOut.chatId)).toEqual([]);
    expect(await followupsOf(recent.chatId)).toEqual([]);
    const [negative] = await followupsOf(angry.chatId);
    expect(negative).toMatchObject({ status: 'skipped', reason: 'La conversación es negativa: pasó a un agente en vez de recibir un seguimiento' });
    expect(await sentTo(angry.chatId)).toEqual([]);

    // never twice: the next sweep finds the decisions
    await call('POST', '/recovery/run');
    expect(await followupsOf(wanted.chatId)).toHaveLength(1);
    expect(await sentTo(wanted.chatId)).toHaveLength(1);
  });

  it('outside the 24-hour window without a template: no message, and the reason recorded', async () => {
    const late = await conversation('56922220006', 'Marta Gil', 'quiero 1 taza enlozada', { sentiment: 'neutral', motive: 'stock' }, 30);
    await call('POST', '/recovery/run');
    const [skipped] = await followupsOf(late.chatId);
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'La ventana de 24 horas está cerrada y no hay plantilla elegida' });
    expect(await sentTo(late.chatId)).toEqual([]);
  });

  it('outside the window with a template chosen: the approved template, its values filled, its cost shown first', async () => {
    // Demo Perú: its line has the approved templates; the cart is built from its default catalogue
    const peru = admin.company('Demo Perú');
    const asPeru = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url: `/api${url}`, headers: as(admin, peru), payload });
    const [template] = await t.sql<{ id: string }>("select id from whatsapp_templates where company_id = $1 and name = 'seguimiento_cotizacion'", [peru]);
    const [product] = await t.sql<{ name: string; sku: string }>(
      `select p.name, p.sku from catalogs k cross join lateral jsonb_array_elements_text(k.product_ids) e(id) join products p on p.id = e.id::uuid
        where k.company_id = $1 and k.is_default and p.stock > 5 and (p.variants is null or jsonb_array_length(p.variants) = 0) and p.name ilike 'Mochila%' limit 1`,
      [peru],
    );
    const saved = await asPeru('PUT', '/recovery/settings', {
      enabled: true,
      afterHours: 2,
      text: 'Hola {nombre}: {enlace}',
      templateId: template.id,
      templateValues: ['{nombre}', '{productos}'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().templateCost).toMatchObject({ category: 'UTILITY', usd: expect.any(Number) });
    expect(saved.json().templateCost.usd).toBeGreaterThan(0);
    const late = await conversation('51944440001', 'Julia Paredes', `quiero una ${product.name.toLowerCase()}`, { sentiment: 'neutral', motive: 'compra' }, 30, {
      company: peru,
      line: '100000000000001',
    });
    expect((await asPeru('POST', '/recovery/run')).statusCode).toBe(200);
    const [followup] = await followupsOf(late.chatId);
    expect(followup).toMatchObject({ status: 'sent', kind: 'template' });
    const [message] = await t.sql<{ text: string; content: { template?: { name: string } } }>(
      "select text, content from chat_messages where chat_id = $1 and direction = 'out' and sent_by is null",
      [late.chatId],
    );
    expect(message.content.template?.name).toBe('seguimiento_cotizacion');
    expect(message.text).toContain(`Hola Julia, te escribimos de ${product.name}`);
    await asPeru('PUT', '/recovery/settings', { enabled: false, afterHours: 2, text: 'Hola {nombre}: {enlace}', templateId: null, templateValues: [] });
  });

  it('«Ventas recuperadas»: the follow-ups, the orders within 72 h of one, beside the chats with intent that got none', async () => {
    const [wanted] = await t.sql<{ chat_id: string }>("select chat_id from sales_followups where company_id = $1 and status = 'sent' limit 1", [chile]);
    const order = await call('POST', `/chats/${wanted.chat_id}/orders`, {
      customer: { name: 'Camila Rojas', telefono: '56922220001' },
      items: [{ productId: ids.polo, variantSku: 'PPR-01-M', quantity: 2 }],
    });
    expect(order.statusCode, order.body).toBe(201);
    const list = (await call('GET', '/recovery/followups')).json().payload as Rec[];
    expect(list.find((f) => f.chatId === wanted.chat_id)).toMatchObject({ status: 'sent', order: { code: order.json().code, total: 31980, currency: 'CLP' } });
    const metric = await call('POST', '/metrics/recovered_sales', { days: 7 });
    expect(metric.statusCode, metric.body).toBe(200);
    const m = metric.json();
    expect(m).toMatchObject({ followups: 1, orders: 1, revenue: [{ currency: 'CLP', amount: 31980 }], conversion: 1 });
    // with intent and no follow-up: Pedro (ordered), Rosa (negative), Luis (opted out), Ana (too recent), Marta (window closed)
    expect(m.withoutFollowup).toMatchObject({ chats: 5, orders: 1 });
    expect(m.weeks.reduce((n: number, w: Rec) => n + Number(w.followups), 0)).toBe(1);
  });

  it('is the company’s own: another company’s settings and follow-ups are not seen', async () => {
    const acme = await login(t, demo.acme);
    const theirs = await t.app.inject({ method: 'GET', url: '/api/recovery/followups', headers: as(acme, acme.company('Acme')) });
    expect(theirs.json().payload).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/recovery/settings', headers: as(acme, acme.company('Acme')) })).json().enabled).toBe(false);
  });
});
