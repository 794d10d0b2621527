import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_SECRET, deliver, wamid, whatsappEnvelope } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';
import { createWebhookProcessor } from '../src/modules/webhooks/process.js';

/**
 * Orders from the chat (issue 30, decision 0088): a WhatsApp cart is a draft in the thread (no
 * order, no stock taken) that «Crear pedido» confirms once; an agent builds an order for the
 * person of a chat at the server's prices and stock, under the same locks as a public placement
 * (the last unit goes to one of many at once); Spanish 4xx with nothing written; row scope.
 */
let t: TestApp;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let chile: string;
const ids: Record<string, string> = {};
let chatId = '';
let cartMessageId = '';

type Rec = Record<string, unknown>;
const call = (s: Signed, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, company = chile, key?: string) =>
  t.app.inject({ method, url: `/api${url}`, headers: { ...as(s, company), ...(key ? { 'idempotency-key': key } : {}) }, payload });
const stockOf = async (id: string) => (await t.sql<{ stock: number; variants: Array<{ sku: string; stock: number }> | null }>('select stock, variants from products where id = $1', [id]))[0];
const ordersOfChat = async (id: string) => t.sql<Rec>('select * from orders where chat_id = $1 order by created_at', [id]);
const customer = { name: 'Pedro Soto', telefono: '+56 9 1111 2222' };

beforeAll(async () => {
  t = await startTestApp({ ORDER_RATE_LIMIT: '100000' });
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  chile = admin.company('Demo Chile');
  const make = async (path: string, body: object) => {
    const res = await call(admin, 'POST', path, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  ids.red = await make('/colors', { name: 'Rojo carmesí', hex: '#AA0000' });
  ids.mug = await make('/products', { name: 'Taza de greda', sku: 'TG-01', price: 4990, stock: 10 });
  ids.shirt = await make('/products', {
    name: 'Polera de lino',
    sku: 'PLN-01',
    price: 12990,
    stock: 0,
    variants: [
      { sku: 'PLN-01-S', size: 'S', colorId: ids.red, stock: 3 },
      { sku: 'PLN-01-M', size: 'M', colorId: ids.red, stock: 5, price: 13990 },
    ],
  });
  ids.last = await make('/products', { name: 'Chal de alpaca (último)', sku: 'CHAL-1', price: 39990, stock: 1 });

  // a WhatsApp cart arrives on the company's line: the chat and its person are made from it
  const LINE = '109000000000778';
  expect((await call(admin, 'PUT', '/channels/whatsapp', { phoneNumberId: LINE })).statusCode).toBe(200);
  const from = '56911112222';
  const payload = whatsappEnvelope(LINE, from, 'Pedro Soto', [
    {
      from,
      id: wamid(),
      timestamp: String(Math.floor(Date.now() / 1000)),
      type: 'order',
      order: {
        catalog_id: '1588461368287262',
        text: 'Lo quiero para el sábado',
        product_items: [
          { product_retailer_id: 'tg-01', quantity: 2, item_price: 1, currency: 'CLP' },
          { product_retailer_id: 'PLN-01-S', quantity: 4, item_price: 12990, currency: 'CLP' },
          { product_retailer_id: 'NO-EXISTE', quantity: 1, item_price: 500, currency: 'CLP' },
        ],
      },
    },
  ]);
  expect((await deliver(t, '/api/webhooks/whatsapp', payload, { secret: DEMO_APP_SECRET })).statusCode).toBe(200);
  const processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
  for (const id of await processor.pendingIds()) await processor.process(id);
  const [cart] = await t.sql<{ id: string; chat_id: string }>("select id, chat_id from chat_messages where company_id = $1 and kind = 'order' order by created_at desc limit 1", [chile]);
  chatId = cart.chat_id;
  cartMessageId = cart.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('a WhatsApp cart', () => {
  it('is a draft in the thread: no order and no stock taken until the agent confirms it', async () => {
    expect(await ordersOfChat(chatId)).toEqual([]);
    expect((await stockOf(ids.mug)).stock).toBe(10);
    const notes = await t.sql<{ text: string }>("select text from chat_messages where chat_id = $1 and kind = 'system'", [chatId]);
    expect(notes).toHaveLength(1);
    expect(notes[0].text).toMatch(/Carrito desde el catálogo de WhatsApp/);
    expect(notes[0].text).toMatch(/2 × Taza de greda/);
    expect(notes[0].text).toMatch(/NO-EXISTE no está en los productos/);
    expect(notes[0].text).toMatch(/Polera de lino: hay 3 en stock de 4 pedidas/);
    expect(notes[0].text).toMatch(/«Crear pedido»/);
  });

  it('prefills «Crear pedido»: the person, and the cart matched to products at the company price', async () => {
    const res = await call(admin, 'GET', `/chats/${chatId}/order-draft`);
    expect(res.statusCode, res.body).toBe(200);
    const draft = res.json();
    expect(draft.customer).toMatchObject({ name: 'Pedro Soto', telefono: '56911112222' });
    expect(draft.currency).toBe('CLP');
    expect(draft.cart.messageId).toBe(cartMessageId);
    expect(draft.cart.lines).toEqual([
      { sku: 'TG-01', quantity: 2, productId: ids.mug, name: 'Taza de greda', unitPrice: 4990, stock: 10 },
      { sku: 'PLN-01-S', quantity: 4, productId: ids.shirt, variantSku: 'PLN-01-S', name: 'Polera de lino', unitPrice: 12990, stock: 3 },
      { sku: 'NO-EXISTE', quantity: 1 },
    ]);
  });

  it('asking for more than is left is refused with the line, and nothing is written', async () => {
    const res = await call(admin, 'POST', `/chats/${chatId}/orders`, {
      customer,
      cartMessageId,
      items: [
        { productId: ids.mug, quantity: 2 },
        { productId: ids.shirt, variantSku: 'PLN-01-S', quantity: 4 },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.details).toEqual([{ path: 'items.1.quantity', msg: 'Solo quedan 3 unidades de Polera de lino' }]);
    expect(await ordersOfChat(chatId)).toEqual([]);
    expect((await stockOf(ids.mug)).stock).toBe(10);
  });

  it('confirmed once: the order is the chat’s and the person’s, its stock taken; a second confirmation is refused', async () => {
    const body = {
      customer,
      cartMessageId,
      shippment: { method: 'delivery', address: 'Av. Providencia 1234', city: 'Santiago' },
      items: [
        { productId: ids.mug, quantity: 2 },
        { productId: ids.shirt, variantSku: 'pln-01-s', quantity: 3 },
      ],
    };
    const res = await call(admin, 'POST', `/chats/${chatId}/orders`, body, chile, randomUUID());
    expect(res.statusCode, res.body).toBe(201);
    const out = res.json();
    expect(out).toMatchObject({ status: 'created', total: 2 * 4990 + 3 * 12990, currency: 'CLP' });
    const [order] = await ordersOfChat(chatId);
    expect(order).toMatchObject({ id: out._id, code: out.code, source: 'chat', telefono: '56911112222', cart_message_id: cartMessageId, created_by: admin.user._id });
    expect(order.lead_id).toBeTruthy();
    expect(order.items).toMatchObject([
      { productId: ids.mug, sku: 'TG-01', quantity: 2, unitPrice: 4990 },
      { productId: ids.shirt, sku: 'PLN-01-S', size: 'S', color: 'Rojo carmesí', quantity: 3 },
    ]);
    expect((await stockOf(ids.mug)).stock).toBe(8);
    expect((await stockOf(ids.shirt)).variants?.find((v) => v.sku === 'PLN-01-S')?.stock).toBe(0);
    const notes = await t.sql<{ text: string }>("select text from chat_messages where chat_id = $1 and kind = 'system' order by created_at", [chatId]);
    expect(notes.at(-1)?.text).toMatch(new RegExp(`Pedido ${out.code} creado en el chat`));
    const [event] = await t.sql<{ payload: Rec }>("select payload from domain_events where type = 'order.created' and aggregate_id = $1", [out._id]);
    expect(event.payload).toMatchObject({ orderId: out._id, source: 'chat', chatId });
    // the draft no longer offers the cart; confirming it again is refused
    expect((await call(admin, 'GET', `/chats/${chatId}/order-draft`)).json().cart).toBeUndefined();
    expect((await call(admin, 'GET', `/chats/${chatId}/order-draft`)).json().shippment).toMatchObject({ method: 'delivery', city: 'Santiago' });
    const again = await call(admin, 'POST', `/chats/${chatId}/orders`, { ...body, items: [{ productId: ids.mug, quantity: 1 }] });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.msg).toBe(`Este carrito ya es el pedido ${out.code}`);
    expect(await ordersOfChat(chatId)).toHaveLength(1);
  });
});

describe('an order built in the chat', () => {
  it('one Idempotency-Key is one order: a double click answers the same order', async () => {
    const key = randomUUID();
    const body = { customer, items: [{ productId: ids.shirt, variantSku: 'PLN-01-M', quantity: 1 }] };
    const [a, b] = await Promise.all([call(admin, 'POST', `/chats/${chatId}/orders`, body, chile, key), call(admin, 'POST', `/chats/${chatId}/orders`, body, chile, key)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json()._id).toBe(b.json()._id);
    expect(a.json().total).toBe(13990);
    expect((await stockOf(ids.shirt)).variants?.find((v) => v.sku === 'PLN-01-M')?.stock).toBe(4);
    const other = await call(admin, 'POST', `/chats/${chatId}/orders`, { ...body, items: [{ productId: ids.mug, quantity: 1 }] }, chile, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().errors.msg).toBe('Esta clave de idempotencia ya se usó con otro pedido');
  });

  it('refuses what is not the company’s or not right, in Spanish, writing nothing', async () => {
    const before = (await ordersOfChat(chatId)).length;
    const acmeProduct = await t.app.inject({ method: 'POST', url: '/api/products', headers: as(acme, acme.company('Acme')), payload: { name: 'Ajeno', sku: 'AJ-1', price: 1, stock: 5 } });
    const cases: Array<[object, number, string]> = [
      [{ customer, items: [{ productId: acmeProduct.json()._id, quantity: 1 }] }, 400, 'Este producto ya no existe'],
      [{ customer, items: [{ productId: ids.shirt, quantity: 1 }] }, 400, 'Elige una talla o color'],
      [{ customer, items: [{ productId: ids.mug, variantSku: 'X', quantity: 1 }] }, 400, 'Este producto no tiene tallas ni colores'],
      [{ customer, items: [] }, 400, 'El carrito está vacío'],
      [{ customer: { ...customer, telefono: '12' }, items: [{ productId: ids.mug, quantity: 1 }] }, 400, 'Teléfono: escribe un teléfono válido'],
      [{ customer, items: [{ productId: ids.mug, quantity: 1 }], cartMessageId: randomUUID() }, 400, 'Ese carrito no es de este chat'],
      [{ customer, items: [{ productId: ids.mug, quantity: 1 }], shippment: { method: 'delivery' } }, 400, ''],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(admin, 'POST', `/chats/${chatId}/orders`, body);
      expect(res.statusCode, res.body).toBe(status);
      if (message) expect(res.json().errors.msg).toContain(message);
    }
    expect(await ordersOfChat(chatId)).toHaveLength(before);
    // another company's chat is not found; the agent who does not see the chat gets a 404 too
    expect((await call(acme, 'POST', `/chats/${chatId}/orders`, { customer, items: [{ productId: ids.mug, quantity: 1 }] }, acme.company('Acme'))).statusCode).toBe(404);
    expect((await call(acme, 'GET', `/chats/${chatId}/order-draft`, undefined, acme.company('Acme'))).statusCode).toBe(404);
  });

  it('an agent builds orders in the chats they see, not in another agent’s', async () => {
    const peru = admin.company('Demo Perú');
    const me = (await call(agent, 'GET', '/assignment/me', undefined, peru)).json().agente._id as string;
    const [others] = await t.sql<{ id: string }>(
      'select c.id from chats c join leads l on l.id = c.lead_id where c.company_id = $1 and l.agente_id is not null and l.agente_id <> $2 limit 1',
      [peru, me],
    );
    const [mine] = await t.sql<{ id: string }>('select c.id from chats c join leads l on l.id = c.lead_id where c.company_id = $1 and l.agente_id = $2 limit 1', [peru, me]);
    const [product] = await t.sql<{ id: string }>('select id from products where company_id = $1 and stock > 5 and (variants is null or jsonb_array_length(variants) = 0) limit 1', [peru]);
    const body = { customer: { name: 'Cliente de Carlos', telefono: '987 654 321' }, items: [{ productId: product.id, quantity: 1 }] };
    expect((await call(agent, 'POST', `/chats/${others.id}/orders`, body, peru)).statusCode).toBe(404);
    const made = await call(agent, 'POST', `/chats/${mine.id}/orders`, body, peru);
    expect(made.statusCode, made.body).toBe(201);
    const [order] = await t.sql<{ created_by: string; telefono: string }>('select created_by, telefono from orders where id = $1', [made.json()._id]);
    expect(order).toEqual({ created_by: agent.user._id, telefono: '51987654321' });
  });

  it('the last unit, ordered from many chats at once, goes to exactly one', async () => {
    const n = t.kind === 'postgres' ? 50 : 8;
    const results = await Promise.all(
      Array.from({ length: n }, () => call(admin, 'POST', `/chats/${chatId}/orders`, { customer, items: [{ productId: ids.last, quantity: 1 }] }, chile, randomUUID())),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(n - 1);
    expect(results.find((r) => r.statusCode === 409)?.json().errors.msg).toBe('Chal de alpaca (último) está agotado');
    expect((await stockOf(ids.last)).stock).toBe(0);
  });
});
