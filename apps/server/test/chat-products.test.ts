import type { ChatMessage, ChatThread, MetaCatalogOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookProcessor, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import { type FakeMetaCatalog, fakeMetaCatalog } from './fakes/meta-catalog.js';
import { deliver, type FakeGraph, metaMessage, startFakeGraph, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Products in the conversation (issue 30, decisions 0085 and 0086): the line's Meta catalogue
 * synced (only what changed, Meta's per-item errors in Spanish), products sent from the chat as
 * WhatsApp product / product_list messages and Messenger carousels that pass Meta's rules in the
 * fake Graph API, and every refusal (limits, window, catalogue, another company's product)
 * before anything is stored.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9productosTokenDePrueba7Q2x';
const PERU_LINE = '109000000000031';
const ACME_PAGE = '201000000000031';
const ACME_IG = '178400000000031';
const CATALOG = '880000000000031';

let t: TestApp;
let fake: FakeGraph;
let meta: FakeMetaCatalog;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let processor: WebhookProcessor;
const ours: Array<{ id: string; sku: string; name: string }> = [];
let acmeProduct: string;
let noImage: string;

const call = (s: Signed, company: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });
const count = async (text: string, values: unknown[] = []) => Number((await t.sql<{ n: number }>(text, values))[0].n);
const messagesOf = (chatId: string) => count('select count(*) as n from chat_messages where chat_id = $1', [chatId]);

async function settle() {
  for (const id of await processor.pendingIds()) await processor.process(id);
}
async function chatOf(platformUserId: string): Promise<string> {
  const [row] = await t.sql<{ chat_id: string }>('select chat_id from lead_identities where platform_user_id = $1', [platformUserId]);
  return row.chat_id;
}
async function waInbound(from: string, text: string) {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: PERU_LINE, from, text }))).statusCode).toBe(200);
  await settle();
  return chatOf(from);
}
const closeWindow = (chatId: string) => t.sql(`update chat_windows set last_inbound_at = now() - interval '25 hours' where chat_id = $1`, [chatId]);

async function product(s: Signed, company: string, body: Record<string, unknown>) {
  const res = await call(s, company, 'POST', '/products', { price: 10, stock: 5, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; sku: string; name: string };
}
async function category(name: string) {
  const res = await call(admin, peru, 'POST', '/categories', { name });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

/** Starts «Sincronizar catálogo» and waits for the job to end. */
async function sync(): Promise<MetaCatalogOut> {
  const started = await call(admin, peru, 'POST', '/meta-catalog/sync');
  expect(started.statusCode, started.body).toBe(202);
  let s = started.json() as MetaCatalogOut;
  for (let i = 0; i < 200 && s.sync?.status === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    s = (await call(admin, peru, 'GET', '/meta-catalog')).json() as MetaCatalogOut;
  }
  return s;
}
const sentItems = () => meta.batches.reduce((n, b) => n + b.requests.length, 0);

beforeAll(async () => {
  meta = fakeMetaCatalog(TOKEN, [CATALOG]);
  fake = await startFakeGraph(TOKEN, meta.route);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
  expect((await call(admin, peru, 'PUT', '/channels/whatsapp', { phoneNumberId: PERU_LINE, accessToken: TOKEN })).statusCode).toBe(200);
  expect((await call(acme, acmeCo, 'PUT', '/channels/meta', { pageId: ACME_PAGE, pageName: 'Acme', instagramAccountId: ACME_IG, accessToken: TOKEN })).statusCode).toBe(200);
  // the demo's own products and seeded line catalogue are not this test's: only ours go to the catalogue
  await t.sql('delete from meta_catalogs where company_id = $1', [peru]);
  await t.sql('delete from products where company_id = $1', [peru]);
  const categories = await Promise.all(Array.from({ length: 12 }, (_, i) => category(`Pasillo ${String(i + 1).padStart(2, '0')}`)));
  for (let i = 0; i < 32; i++) {
    const p = await product(admin, peru, {
      name: `Producto de prueba ${String(i + 1).padStart(2, '0')}`,
      sku: `PRU-${i + 1}`,
      imageUrl: `https://cdn.mostrador.app/productos/pru-${i + 1}.png`,
      categoryId: categories[i % 12],
      price: 5 + i,
    });
    ours.push({ id: p._id, sku: p.sku, name: p.name });
  }
  acmeProduct = (await product(acme, acmeCo, { name: 'Producto de Acme', sku: 'ACME-1', imageUrl: 'https://cdn.example.com/acme-1.png' }))._id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the Meta catalogue sync', () => {
  it('refuses a sync before the catalogue id is saved, then sends every product once; a second run sends nothing', async () => {
    const before = await call(admin, peru, 'POST', '/meta-catalog/sync');
    expect(before.statusCode).toBe(409);
    expect(before.json().errors.msg).toContain('id del catálogo');
    expect((await call(admin, peru, 'PUT', '/meta-catalog', { catalogId: 'abc' })).statusCode).toBe(400);
    const saved = await call(admin, peru, 'PUT', '/meta-catalog', { catalogId: CATALOG });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ catalogId: CATALOG, hasLine: true, accepted: 0 });

    const first = await sync();
    expect(first.sync).toMatchObject({ status: 'done', total: 32, processed: 32, sent: 32, failed: 0 });
    expect(first.accepted).toBe(32);
    expect(meta.catalogs.get(CATALOG)?.get('PRU-1')).toMatchObject({ id: 'PRU-1', price: '5.00 PEN', availability: 'in stock', condition: 'new' });

    const calls = meta.batches.length;
    const items = sentItems();
    const second = await sync();
    expect(second.sync).toMatchObject({ status: 'done', sent: 0, failed: 0 });
    expect(second.sync?.message).toContain('ya estaba al día');
    expect(meta.batches.length).toBe(calls);
    expect(sentItems()).toBe(items);
  });

  it('sends only what changed, shows Meta’s per-item errors and the products it cannot take, in Spanish', async () => {
    expect((await call(admin, peru, 'PUT', `/products/${ours[0].id}`, { price: 6.5 })).statusCode).toBe(200);
    const bad = await product(admin, peru, { name: 'Producto prohibido', sku: 'PRU-BAD', imageUrl: 'https://cdn.mostrador.app/productos/bad.png' });
    noImage = (await product(admin, peru, { name: 'Producto sin foto', sku: 'PRU-NOIMG' }))._id;
    const items = sentItems();
    const run = await sync();
    expect(sentItems() - items).toBe(2);
    expect(meta.batches.at(-1)?.requests.map((r) => `${r.method} ${r.data.id}`).sort()).toEqual(['CREATE PRU-BAD', 'UPDATE PRU-1']);
    expect(meta.catalogs.get(CATALOG)?.get('PRU-1')).toMatchObject({ price: '6.50 PEN' });
    expect(run.sync).toMatchObject({ status: 'done', sent: 2, failed: 2 });
    expect(run.sync?.message).toContain('con errores');
    expect(run.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sku: 'PRU-BAD', name: 'Producto prohibido', error: 'Meta rechazó el producto: The item does not comply with our Commerce Policies' }),
        expect.objectContaining({ sku: 'PRU-NOIMG', error: 'Falta la imagen del producto: Meta la exige para publicarlo' }),
      ]),
    );
    // a removed product leaves the catalogue
    expect((await call(admin, peru, 'DELETE', `/products/${bad._id}`)).statusCode).toBeLessThan(300);
    await sync();
    expect(meta.catalogs.get(CATALOG)?.has('PRU-BAD')).toBe(false);
  });

  it('another company sees none of it', async () => {
    const other = (await call(acme, acmeCo, 'GET', '/meta-catalog')).json() as MetaCatalogOut;
    expect(other).toMatchObject({ hasLine: false, accepted: 0, errors: [] });
    expect(other.catalogId).toBeUndefined();
  });
});

describe('products sent from a WhatsApp chat', () => {
  it('one product goes as an interactive product of the line’s catalogue and is kept with its products', async () => {
    const chat = await waInbound('51977300001', '¿Qué tienen?');
    const res = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: [ours[1].id], text: 'Este te puede gustar' });
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json() as ChatMessage;
    expect(message).toMatchObject({ kind: 'interactive', direction: 'out', status: 'sent', text: 'Este te puede gustar' });
    expect(message.content?.products?.items).toEqual([
      expect.objectContaining({ id: ours[1].id, sku: 'PRU-2', name: ours[1].name, price: 6, currency: 'PEN', image: 'https://cdn.mostrador.app/productos/pru-2.png', category: 'Pasillo 02' }),
    ]);
    const sent = meta.sent.at(-1)?.body as { to: string; interactive: object };
    expect(sent.to).toBe('51977300001');
    expect(sent.interactive).toEqual({ type: 'product', body: { text: 'Este te puede gustar' }, action: { catalog_id: CATALOG, product_retailer_id: 'PRU-2' } });
    const thread = (await call(agent, peru, 'GET', `/chats/${chat}/messages`)).json() as ChatThread;
    expect(thread.payload.at(-1)?.content?.products?.items[0].sku).toBe('PRU-2');
  });

  it('a product message Meta refused is stored failed with the reason and sent again as the same products', async () => {
    const chat = await waInbound('51977300005', 'Hola');
    meta.failNext.push({ status: 400, error: { message: '(#131026) Message undeliverable', code: 131026 } });
    const failed = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: [ours[4].id, ours[5].id] });
    expect(failed.statusCode).toBe(502);
    const [stored] = await t.sql<{ id: string; status: string; kind: string }>(`select id, status, kind from chat_messages where chat_id = $1 and direction = 'out'`, [chat]);
    expect(stored).toMatchObject({ status: 'failed', kind: 'interactive' });
    const sends = meta.sent.length;
    const retried = await call(agent, peru, 'POST', `/chats/${chat}/messages/${stored.id}/retry`);
    expect(retried.statusCode, retried.body).toBeLessThan(300);
    expect(retried.json()).toMatchObject({ _id: stored.id, status: 'sent' });
    expect(meta.sent.length).toBe(sends + 1);
    const retriedBody: unknown = meta.sent.at(-1)?.body;
    const again = (retriedBody as { interactive: { type: string; action: { sections: Array<{ product_items: Array<{ product_retailer_id: string }> }> } } }).interactive;
    expect(again.type).toBe('product_list');
    expect(again.action.sections.flatMap((x) => x.product_items.map((p) => p.product_retailer_id)).sort()).toEqual(['PRU-5', 'PRU-6']);
  });

  it('twelve categories fold into Meta’s ten sections; 30 products pass, 31 are refused in Spanish', async () => {
    const chat = await waInbound('51977300002', 'Mándame todo el catálogo');
    const thirty = ours.slice(0, 30).map((p) => p.id);
    const res = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: thirty });
    expect(res.statusCode, res.body).toBe(201);
    const listBody: unknown = meta.sent.at(-1)?.body;
    const interactive = (listBody as { interactive: { type: string; header: { text: string }; body: { text: string }; action: { sections: Array<{ title: string; product_items: unknown[] }> } } }).interactive;
    expect(interactive.type).toBe('product_list');
    expect(interactive.header.text).toBe('Te compartimos 30 productos');
    expect(interactive.body.text.length).toBeGreaterThan(0);
    expect(interactive.action.sections).toHaveLength(10);
    expect(interactive.action.sections.at(-1)?.title).toBe('Otros');
    expect(interactive.action.sections.reduce((n, s) => n + s.product_items.length, 0)).toBe(30);
    const [{ preview }] = await t.sql<{ preview: string }>('select last_message_preview as preview from chats where id = $1', [chat]);
    expect(preview).toMatch(/^🛍️ 30 productos: Producto de prueba 01, /);

    const before = await messagesOf(chat);
    const tooMany = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: ours.slice(0, 31).map((p) => p.id) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain('hasta 30 productos');
    expect((await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: [] })).statusCode).toBe(400);
    expect(await messagesOf(chat)).toBe(before);
  });

  it('refuses outside the 24-hour window (a template is needed), a product Meta did not accept, and another company’s product — storing nothing', async () => {
    const chat = await waInbound('51977300003', 'Hola');
    const sends = meta.sent.length;

    const refused = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: [ours[0].id, noImage] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors.msg).toContain('Producto sin foto (Falta la imagen del producto');

    const foreign = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: [ours[0].id, acmeProduct] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().errors.msg).toBe('Alguno de los productos no existe en tu empresa');

    await closeWindow(chat);
    const closed = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: [ours[0].id] });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().errors.msg).toContain('ventana de 24 horas');
    expect(closed.json().errors.msg).toContain('plantilla');

    expect(meta.sent.length).toBe(sends);
    expect(await count(`select count(*) as n from chat_messages where chat_id = $1 and direction = 'out'`, [chat])).toBe(0);
  });

  it('the picker lists the company’s products with whether Meta has them, by name, SKU or category, in stock only', async () => {
    const chat = await waInbound('51977300004', 'Hola');
    const all = (await call(agent, peru, 'GET', `/chats/${chat}/products?q=pasillo%2003`)).json();
    expect(all.needsCatalog).toBe(true);
    expect(all.max).toBe(30);
    expect(all.payload.map((p: { sku: string }) => p.sku).sort()).toEqual(['PRU-15', 'PRU-27', 'PRU-3']);
    const noImg = (await call(agent, peru, 'GET', `/chats/${chat}/products?q=PRU-NOIMG`)).json();
    expect(noImg.payload).toEqual([expect.objectContaining({ sku: 'PRU-NOIMG', inCatalog: false })]);
    expect((await call(admin, peru, 'PUT', `/products/${noImage}`, { stock: 0 })).statusCode).toBe(200);
    expect((await call(agent, peru, 'GET', `/chats/${chat}/products?q=PRU-NOIMG&inStock=true`)).json().payload).toEqual([]);
    expect((await call(acme, acmeCo, 'GET', `/chats/${chat}/products`)).statusCode).toBe(404);
  });
});

describe('products sent on Messenger and Instagram', () => {
  it('go as a generic template carousel with price and a button to the catalogue; more than 10 are refused', async () => {
    expect((await deliver(t, '/api/webhooks/meta', metaMessage({ object: 'page', pageId: ACME_PAGE, sender: '7000000000031', text: 'Hola' }))).statusCode).toBe(200);
    await settle();
    const chat = await chatOf('7000000000031');
    const res = await call(acme, acmeCo, 'POST', `/chats/${chat}/products`, { productIds: [acmeProduct], text: 'Mira' });
    expect(res.statusCode, res.body).toBe(201);
    const body = meta.sent.at(-1)?.body as { message: { attachment: { payload: { template_type: string; elements: Array<Record<string, unknown>> } } } };
    expect(body.message.attachment.payload.template_type).toBe('generic');
    expect(body.message.attachment.payload.elements[0]).toMatchObject({
      title: 'Producto de Acme',
      image_url: 'https://cdn.example.com/acme-1.png',
      buttons: [expect.objectContaining({ type: 'web_url', title: 'Ver producto' })],
    });
    expect(String(body.message.attachment.payload.elements[0].subtitle)).toMatch(/10/);
    // the text follows as its own message
    expect(fake.requests.at(-1)?.body).toMatchObject({ message: { text: 'Mira' } });

    const eleven = await Promise.all(Array.from({ length: 11 }, (_, i) => product(acme, acmeCo, { name: `Acme ${i}`, sku: `ACME-X${i}` })));
    const refused = await call(acme, acmeCo, 'POST', `/chats/${chat}/products`, { productIds: eleven.map((p) => p._id) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.msg).toContain('hasta 10 productos');
  });
});

describe('a variant chosen (decision 0091)', () => {
  let polo: string;
  let acmeVariant: string;
  let rojo: string;

  beforeAll(async () => {
    const color = await call(admin, peru, 'POST', '/colors', { name: 'Rojo prueba', hex: '#cc0000' });
    expect(color.statusCode, color.body).toBe(201);
    rojo = (color.json() as { _id: string })._id;
    polo = (
      await product(admin, peru, {
        name: 'Polo de prueba',
        sku: 'POLO-PRU',
        price: 20,
        description: 'Algodón peruano, corte recto',
        imageUrl: 'https://cdn.mostrador.app/productos/polo.png',
        variants: [
          { sku: 'POLO-PRU-S', size: 'S', colorId: rojo, stock: 4, price: 25 },
          { sku: 'POLO-PRU-M', size: 'M', colorId: rojo, stock: 0 },
          { sku: 'POLO-PRU-L', size: 'L', stock: 2 },
        ],
      })
    )._id;
    acmeVariant = (await product(acme, acmeCo, { name: 'Casaca Acme', sku: 'ACME-CAS', imageUrl: 'https://cdn.example.com/casaca.png', variants: [{ sku: 'ACME-CAS-XL', size: 'XL', stock: 3, price: 99 }] }))._id;
    const run = await sync();
    expect(run.sync?.status).toBe('done');
  });

  it('the picker lists each variant with its size, colour, stock and price', async () => {
    const chat = await waInbound('51977300010', 'Hola');
    const found = (await call(agent, peru, 'GET', `/chats/${chat}/products?q=POLO-PRU`)).json();
    expect(found.payload).toEqual([
      expect.objectContaining({
        id: polo,
        inCatalog: true,
        variants: [
          { sku: 'POLO-PRU-S', size: 'S', color: 'Rojo prueba', stock: 4, price: 25 },
          { sku: 'POLO-PRU-M', size: 'M', color: 'Rojo prueba', stock: 0, price: 20 },
          { sku: 'POLO-PRU-L', size: 'L', stock: 2, price: 20 },
        ],
      }),
    ]);
  });

  it('on WhatsApp goes as its product with the variant in the body, and is kept with its size, colour and price', async () => {
    const chat = await waInbound('51977300011', '¿Tienen el polo en S?');
    const res = await call(agent, peru, 'POST', `/chats/${chat}/products`, { items: [{ productId: polo, variantSku: 'polo-pru-s' }], text: 'Sí, aquí está' });
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json() as ChatMessage;
    expect(message.content?.products?.items).toEqual([
      expect.objectContaining({ id: polo, sku: 'POLO-PRU', variantSku: 'POLO-PRU-S', size: 'S', color: 'Rojo prueba', variant: 'Talla S · Rojo prueba', price: 25, stock: 4 }),
    ]);
    const sent = meta.sent.at(-1)?.body as { interactive: { type: string; body: { text: string }; action: { product_retailer_id: string } } };
    expect(sent.interactive.type).toBe('product');
    expect(sent.interactive.action.product_retailer_id).toBe('POLO-PRU');
    expect(sent.interactive.body.text.replace(/\s/g, ' ')).toBe('Sí, aquí está  Variante elegida: • Polo de prueba: Talla S · Rojo prueba — S/ 25.00');

    // two variants of the polo and another product: the list holds the polo once, the body names both
    const two = await call(agent, peru, 'POST', `/chats/${chat}/products`, {
      items: [{ productId: polo, variantSku: 'POLO-PRU-S' }, { productId: polo, variantSku: 'POLO-PRU-L' }, { productId: ours[2].id }],
    });
    expect(two.statusCode, two.body).toBe(201);
    const listBody: unknown = meta.sent.at(-1)?.body;
    const list = (listBody as { interactive: { type: string; header: { text: string }; body: { text: string }; action: { sections: Array<{ product_items: Array<{ product_retailer_id: string }> }> } } }).interactive;
    expect(list.type).toBe('product_list');
    expect(list.header.text).toBe('Te compartimos 2 productos');
    expect(list.action.sections.flatMap((s) => s.product_items.map((i) => i.product_retailer_id)).sort()).toEqual(['POLO-PRU', 'PRU-3']);
    expect(list.body.text.replace(/\s/g, ' ')).toContain('• Polo de prueba: Talla S · Rojo prueba — S/ 25.00');
    expect(list.body.text.replace(/\s/g, ' ')).toContain('• Polo de prueba: Talla L — S/ 20.00');
    expect((two.json() as ChatMessage).content?.products?.items.map((i) => i.variant)).toEqual(['Talla S · Rojo prueba', 'Talla L', undefined]);
    const [{ preview }] = await t.sql<{ preview: string }>('select last_message_preview as preview from chats where id = $1', [chat]);
    expect(preview).toBe('🛍️ 3 productos: Polo de prueba (Talla S · Rojo prueba), Polo de prueba (Talla L), Producto de prueba 03');
  });

  it('refuses another product’s variant, another company’s, one sold out, and productIds with items — storing nothing', async () => {
    const chat = await waInbound('51977300012', 'Hola');
    const sends = meta.sent.length;
    const wrong = await call(agent, peru, 'POST', `/chats/${chat}/products`, { items: [{ productId: polo, variantSku: 'POLO-PRU-S' }, { productId: ours[0].id, variantSku: 'POLO-PRU-S' }] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.msg).toBe('La variante POLO-PRU-S no es del producto «Producto de prueba 01»: elige una de sus variantes');
    const foreign = await call(agent, peru, 'POST', `/chats/${chat}/products`, { items: [{ productId: polo, variantSku: 'ACME-CAS-XL' }] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.msg).toContain('La variante ACME-CAS-XL no es del producto «Polo de prueba»');
    const foreignProduct = await call(agent, peru, 'POST', `/chats/${chat}/products`, { items: [{ productId: acmeVariant, variantSku: 'ACME-CAS-XL' }] });
    expect(foreignProduct.statusCode).toBe(404);
    const soldOut = await call(agent, peru, 'POST', `/chats/${chat}/products`, { items: [{ productId: polo, variantSku: 'POLO-PRU-M' }] });
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json().errors.msg).toContain('Sin stock: Polo de prueba (Talla M · Rojo prueba)');
    const both = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: [polo], items: [{ productId: polo }] });
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain('productIds o en items');
    expect((await call(agent, peru, 'POST', `/chats/${chat}/products`, { items: [] })).statusCode).toBe(400);
    expect((await call(agent, peru, 'POST', `/chats/${chat}/products`, {})).statusCode).toBe(400);
    expect(meta.sent.length).toBe(sends);
    expect(await count(`select count(*) as n from chat_messages where chat_id = $1 and direction = 'out'`, [chat])).toBe(0);

    // the product without a variant still goes as before (issue 30's productIds)
    const plain = await call(agent, peru, 'POST', `/chats/${chat}/products`, { productIds: [polo] });
    expect(plain.statusCode, plain.body).toBe(201);
    expect((plain.json() as ChatMessage).content?.products?.items[0]).toMatchObject({ sku: 'POLO-PRU', price: 20, variant: '3 variantes' });
    expect((plain.json() as ChatMessage).content?.products?.items[0].variantSku).toBeUndefined();
  });

  it('on Messenger the card’s title names the size and the subtitle the variant’s price', async () => {
    const chat = await chatOf('7000000000031');
    const res = await call(acme, acmeCo, 'POST', `/chats/${chat}/products`, { items: [{ productId: acmeVariant, variantSku: 'ACME-CAS-XL' }] });
    expect(res.statusCode, res.body).toBe(201);
    const body = meta.sent.at(-1)?.body as { message: { attachment: { payload: { elements: Array<{ title: string; subtitle: string }> } } } };
    expect(body.message.attachment.payload.elements[0].title).toBe('Casaca Acme — Talla XL');
    expect(body.message.attachment.payload.elements[0].subtitle).toMatch(/99 · Talla XL$/);
  });
});
