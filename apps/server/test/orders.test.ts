import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The company's own catalogue and orders (issue 12): default catalogue, the public digital
 * catalogue, order placement (idempotency, stock, Spanish 400s with nothing written, rate
 * limit), statuses and the chat note, tenant isolation. WhatsApp carts and orders built in the
 * chat: chat-orders.test.ts.
 */
let t: TestApp;
let admin: Signed;
let acme: Signed;
let chile: string;
let acmeCo: string;
const ids: Record<string, string> = {};
let catalogId = '';
let otherCatalogId = '';

type Rec = Record<string, unknown>;
const call = (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, company = chile) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });
let keySeq = 0;
const newKey = () => `test-key-${Date.now()}-${keySeq++}`;
const place = (payload: object, key: string | null = newKey(), remoteAddress = '203.0.113.7') =>
  t.app.inject({
    method: 'POST',
    url: '/api/orders/place',
    headers: key ? { 'idempotency-key': key } : {},
    payload,
    remoteAddress,
  });
const stockOf = async (id: string) => (await t.sql<{ stock: number; variants: Array<{ sku: string; stock: number }> | null }>('select stock, variants from products where id = $1', [id]))[0];
const orderCount = async () => Number((await t.sql<{ n: number }>('select count(*)::int as n from orders where company_id = $1', [chile]))[0].n);

const customer = { name: 'Camila Rojas', telefono: '+56 9 8765 4321', email: 'camila@example.cl' };
const delivery = { method: 'delivery', address: 'Av. Providencia 1234, depto 56', city: 'Santiago' };

beforeAll(async () => {
  t = await startTestApp();
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  chile = admin.company('Demo Chile');
  acmeCo = acme.company('Acme');
  const make = async (path: string, body: object) => {
    const res = await call(admin, 'POST', path, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  ids.brand = await make('/brands', { name: 'Andina' });
  ids.category = await make('/categories', { name: 'Poleras' });
  ids.red = await make('/colors', { name: 'Rojo', hex: '#CC0000' });
  ids.mug = await make('/products', { name: 'Taza cerámica', sku: 'TZ-01', price: 4990, stock: 10, brandId: ids.brand, categoryId: ids.category });
  ids.shirt = await make('/products', {
    name: 'Polera algodón',
    sku: 'PL-01',
    price: 12990,
    stock: 0,
    categoryId: ids.category,
    variants: [
      { sku: 'PL-01-S', size: 'S', colorId: ids.red, stock: 3 },
      { sku: 'PL-01-M', size: 'M', colorId: ids.red, stock: 5, price: 13990 },
    ],
  });
  ids.hidden = await make('/products', { name: 'Producto fuera del catálogo', sku: 'OUT-01', price: 100, stock: 50 });
  catalogId = await make('/catalogs', { name: 'Tienda online', productIds: [ids.mug, ids.shirt] });
  otherCatalogId = await make('/catalogs', { name: 'Mayorista Chile', productIds: [ids.mug], isDefault: true });
});
afterAll(async () => {
  await t?.close();
});

describe('default catalogue', () => {
  it('moves atomically: exactly one default per company, GET /catalogs/default answers it', async () => {
    expect((await call(admin, 'GET', '/catalogs/default')).json()._id).toBe(otherCatalogId);
    const moved = await call(admin, 'POST', `/catalogs/${catalogId}/default`);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ _id: catalogId, isDefault: true });
    expect((await call(admin, 'GET', '/catalogs/default')).json()._id).toBe(catalogId);
    expect((await call(admin, 'GET', `/catalogs/${otherCatalogId}`)).json().isDefault).toBe(false);
    const defaults = await t.sql<{ n: number }>('select count(*)::int as n from catalogs where company_id = $1 and is_default', [chile]);
    expect(Number(defaults[0].n)).toBe(1);
    // the partial unique index itself refuses a second default
    await expect(t.sql('update catalogs set is_default = true where id = $1', [otherCatalogId])).rejects.toThrow();
    // another company's default is untouched: Demo Perú keeps its own
    const peru = admin.company('Demo Perú');
    expect((await call(admin, 'GET', '/catalogs/default', undefined, peru)).statusCode).toBe(200);
  });

  it('is scoped to the caller company', async () => {
    expect((await call(acme, 'GET', '/catalogs/default', undefined, acmeCo)).statusCode).toBe(404);
    const stolen = await call(acme, 'POST', `/catalogs/${catalogId}/default`, undefined, acmeCo);
    expect(stolen.statusCode).toBe(404);
    expect((await call(admin, 'GET', '/catalogs/default')).json()._id).toBe(catalogId);
  });
});

describe('public digital catalogue', () => {
  it('shows the catalogue without signing in: its products, filters and variants', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/catalogo-digital/${catalogId}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Tienda online',
      company: { name: 'Demo Chile', currency: 'CLP' },
      productCount: 2,
      brands: [{ _id: ids.brand, name: 'Andina' }],
      categories: [{ _id: ids.category, name: 'Poleras' }],
    });
    const page = (await t.app.inject({ method: 'GET', url: `/api/catalogo-digital/${catalogId}/products` })).json();
    expect(page.totalDocs).toBe(2);
    expect(page.payload.map((p: Rec) => p.name)).toEqual(['Polera algodón', 'Taza cerámica']);
    expect(page.payload[0]).toMatchObject({
      available: 8,
      variants: [
        { sku: 'PL-01-S', size: 'S', color: { name: 'Rojo', hex: '#CC0000' }, price: 12990, available: 3 },
        { sku: 'PL-01-M', size: 'M', price: 13990, available: 5 },
      ],
    });
    const searched = (await t.app.inject({ method: 'GET', url: `/api/catalogo-digital/${catalogId}/products?filter=taza` })).json();
    expect(searched.payload.map((p: Rec) => p.sku)).toEqual(['TZ-01']);
    // a variant's SKU finds its product (a cart link names variants, decision 0089)
    const byVariant = (await t.app.inject({ method: 'GET', url: `/api/catalogo-digital/${catalogId}/products?filter=PL-01-M` })).json();
    expect(byVariant.payload.map((p: Rec) => p.sku)).toEqual(['PL-01']);
    const byBrand = (await t.app.inject({ method: 'GET', url: `/api/catalogo-digital/${catalogId}/products?brandId=${ids.brand}` })).json();
    expect(byBrand.payload.map((p: Rec) => p.sku)).toEqual(['TZ-01']);
    // the company's default catalogue, by the company's id
    const byCompany = await t.app.inject({ method: 'GET', url: `/api/catalogo-digital?company=${chile}` });
    expect(byCompany.json()._id).toBe(catalogId);
  });

  it('answers a Spanish 404 for an unknown catalogue and a 400 for a bad filter', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/catalogo-digital/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors.msg).toMatch(/catálogo no existe/);
    const bad = await t.app.inject({ method: 'GET', url: `/api/catalogo-digital/${catalogId}/products?brandId=nope` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toMatch(/marca no es válida/);
  });

  it('serves the demo product pictures itself', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/product-images/botella-e30613.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(res.body).toContain('#e30613');
  });
});

describe('POST /orders/place', () => {
  const good = () => ({
    catalog: catalogId,
    items: [
      { productId: ids.mug, quantity: 2, price: 1 },
      { productId: ids.shirt, variantSku: 'PL-01-M', quantity: 1 },
    ],
    customer,
    shippment: delivery,
  });

  it('refuses bad input with Spanish messages per field and writes nothing', async () => {
    const before = { orders: await orderCount(), mug: await stockOf(ids.mug), leads: await t.sql('select id from leads where company_id = $1', [chile]) };
    const cases: Array<[object, string, RegExp]> = [
      [{ ...good(), customer: { ...customer, name: '' } }, 'customer.name', /requerido/],
      [{ ...good(), shippment: { method: 'delivery', city: 'Santiago' } }, 'shippment.address', /requerido/],
      [{ ...good(), items: [] }, 'items', /carrito está vacío/],
      [{ ...good(), items: [{ productId: ids.mug, quantity: 0 }] }, 'items.0.quantity', /al menos 1/],
      [{ ...good(), customer: { ...customer, email: 'no-es-correo' } }, 'customer.email', /email válido/],
      [{ ...good(), customer: { ...customer, telefono: '12' } }, 'customer.telefono', /teléfono válido/],
      [{ ...good(), items: [{ productId: ids.hidden, quantity: 1 }] }, 'items.0.productId', /ya no está en el catálogo/],
      [{ ...good(), items: [{ productId: ids.shirt, quantity: 1 }] }, 'items.0.variantSku', /Elige una talla o color/],
      [{ ...good(), items: [{ productId: ids.shirt, variantSku: 'PL-01-XL', quantity: 1 }] }, 'items.0.variantSku', /ya no existe/],
    ];
    for (const [payload, path, message] of cases) {
      const res = await place(payload);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
      const detail = (res.json().errors.details as Array<{ path: string; msg: string }>).find((d) => d.path === path);
      expect(detail?.msg, `${path}: ${res.body}`).toMatch(message);
    }
    const noKey = await place(good(), null);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().errors.msg).toMatch(/Idempotency-Key/);
    expect(await orderCount()).toBe(before.orders);
    expect(await stockOf(ids.mug)).toEqual(before.mug);
    expect(await t.sql('select id from leads where company_id = $1', [chile])).toHaveLength(before.leads.length);
  });

  it('places an order at the server prices, takes the stock, opens the lead and chat with a summary', async () => {
    const key = newKey();
    const res = await place(good(), key);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    // the browser's price (1) is ignored: the product's price and the variant's own price
    expect(body.order).toMatchObject({
      status: 'created',
      statusLabel: 'Creada',
      company: 'Demo Chile',
      currency: 'CLP',
      customerName: 'Camila Rojas',
      items: [
        { sku: 'TZ-01', quantity: 2, unitPrice: 4990, total: 9980 },
        { sku: 'PL-01-M', size: 'M', color: 'Rojo', quantity: 1, unitPrice: 13990, total: 13990 },
      ],
      total: 23970,
    });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await stockOf(ids.mug)).stock).toBe(8);
    expect((await stockOf(ids.shirt)).variants?.find((v) => v.sku === 'PL-01-M')?.stock).toBe(4);

    // the signed-in list shows it first (updatedAt desc), with the normalised phone
    const list = (await call(admin, 'GET', '/orders')).json();
    expect(list.payload[0]).toMatchObject({ _id: body._id, status: 'created', telefono: '56987654321', source: 'catalogo', catalogId });
    // the customer's lead and WhatsApp chat, with the order's summary in the thread
    const [order] = await t.sql<{ lead_id: string; chat_id: string }>('select lead_id, chat_id from orders where id = $1', [body._id]);
    expect(order.lead_id).toBeTruthy();
    const [lead] = await t.sql<{ telefono: string; platform: string; clean_lead_id: string }>('select telefono, platform, clean_lead_id from leads where id = $1', [order.lead_id]);
    expect(lead).toMatchObject({ telefono: '56987654321', platform: 'whatsapp' });
    expect(lead.clean_lead_id).toBeTruthy();
    const messages = await t.sql<{ kind: string; text: string; content: Rec }>('select kind, text, content from chat_messages where chat_id = $1', [order.chat_id]);
    expect(messages).toHaveLength(1);
    expect(messages[0].kind).toBe('system');
    // anyone may type any phone on the public catalogue: the note says it is not the customer speaking (decision 0061)
    expect(messages[0].content.system).toMatchObject({ type: 'order', unverified: true });
    expect(messages[0].text).toContain(`Nuevo pedido ${body.order.code}`);
    expect(messages[0].text).toContain('2 × Taza cerámica');
    expect(messages[0].text).toMatch(/Total: \$\s?23\.970/);
    // Mostrador's note does not open WhatsApp's 24-hour window
    expect(await t.sql('select * from chat_windows where chat_id = $1', [order.chat_id])).toHaveLength(0);

    // the customer's page, by its token only
    const mine = await t.app.inject({ method: 'GET', url: `/api/orders/public/${body.token}` });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ code: body.order.code, total: 23970, statusLabel: 'Creada' });
    const guessed = await t.app.inject({ method: 'GET', url: `/api/orders/public/${'A'.repeat(32)}` });
    expect(guessed.statusCode).toBe(404);
    expect(guessed.json().errors.msg).toMatch(/No encontramos ese pedido/);
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/public/${body._id}` })).statusCode).toBe(404);

    // a replay answers the first answer and takes nothing more
    const replay = await place(good(), key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(body);
    expect((await stockOf(ids.mug)).stock).toBe(8);
    // the same key with another payload is a conflict
    const other = await place({ ...good(), items: [{ productId: ids.mug, quantity: 1 }] }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().errors.msg).toMatch(/clave de idempotencia/);
    expect((await stockOf(ids.mug)).stock).toBe(8);
  });

  it('re-checks the stock on the server: more than is left is a 409 and takes nothing', async () => {
    const before = await orderCount();
    const res = await place({ ...good(), items: [{ productId: ids.shirt, variantSku: 'PL-01-S', quantity: 4 }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.details[0]).toEqual({ path: 'items.0.quantity', msg: 'Solo quedan 3 unidades de Polera algodón' });
    expect((await stockOf(ids.shirt)).variants?.find((v) => v.sku === 'PL-01-S')?.stock).toBe(3);
    expect(await orderCount()).toBe(before);
  });

  it('rate-limits placements per client address', async () => {
    const limit = t.app.settings.orderRateLimit;
    const bad = { ...good(), items: [{ productId: ids.hidden, quantity: 1 }] };
    for (let i = 0; i < limit; i++) expect((await place(bad, newKey(), '198.51.100.9')).statusCode).toBe(400);
    const limited = await place(good(), newKey(), '198.51.100.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errors.msg).toMatch(/Demasiados pedidos/);
    // another address is not affected
    expect((await place({ ...good(), items: [{ productId: ids.mug, quantity: 1 }] }, newKey(), '198.51.100.10')).statusCode).toBe(201);
  });

  it('50 orders at once from one address with ORDER_RATE_LIMIT=30: exactly 30 are placed, the other 20 told to wait (429 + Retry-After)', async () => {
    const limit = t.app.settings.orderRateLimit;
    expect(limit).toBe(30);
    const made = await call(admin, 'POST', '/products', { name: 'Café en grano 1 kg', sku: 'CAFE-1K', price: 15990, stock: 100 });
    const coffee = made.json()._id as string;
    const shop = (await call(admin, 'POST', '/catalogs', { name: 'Catálogo de café', productIds: [coffee] })).json()._id as string;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        place({ catalog: shop, items: [{ productId: coffee, quantity: 1 }], customer: { name: `Cliente ${i}`, telefono: `+56 9 7${String(1_000_000 + i).slice(-7)}` }, shippment: { method: 'pickup' } }, newKey(), '198.51.100.60'),
      ),
    );
    const placed = answers.filter((a) => a.statusCode === 201);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(placed).toHaveLength(limit);
    expect(refused).toHaveLength(50 - limit);
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThan(0);
    expect(refused[0].json().errors.msg).toMatch(/^Demasiados pedidos desde esta conexión: espera \d+ minutos? e inténtalo de nuevo$/);
    expect((await stockOf(coffee)).stock).toBe(100 - limit);
  });
});

describe('statuses', () => {
  let orderId = '';
  beforeAll(async () => {
    const res = await place({ catalog: catalogId, items: [{ productId: ids.mug, quantity: 3 }], customer, shippment: { method: 'pickup' } });
    expect(res.statusCode, res.body).toBe(201);
    orderId = res.json()._id;
  });
  const move = (id: string, status: string, who = admin, company = chile) => call(who, 'POST', `/orders/${id}/status`, { status }, company);

  it('moves forward as decision 0032 says, and refuses other moves in Spanish', async () => {
    const skip = await move(orderId, 'done');
    expect(skip.statusCode).toBe(400);
    expect(skip.json().errors.msg).toBe('Una orden creada no puede pasar a completada');
    expect((await move(orderId, 'paid')).json().status).toBe('paid');
    expect((await move(orderId, 'shipped')).json().status).toBe('shipped');
    expect((await move(orderId, 'cancelled')).statusCode).toBe(400);
    expect((await move(orderId, 'done')).json().status).toBe('done');
    expect((await move(orderId, 'bogus')).statusCode).toBe(400);
  });

  it('cancelling gives the stock back', async () => {
    const stock = (await stockOf(ids.mug)).stock;
    const res = await place({ catalog: catalogId, items: [{ productId: ids.mug, quantity: 2 }, { productId: ids.shirt, variantSku: 'PL-01-S', quantity: 1 }], customer, shippment: { method: 'pickup' } });
    const id = res.json()._id;
    expect((await stockOf(ids.mug)).stock).toBe(stock - 2);
    const cancelled = await move(id, 'cancelled');
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect((await stockOf(ids.mug)).stock).toBe(stock);
    expect((await stockOf(ids.shirt)).variants?.find((v) => v.sku === 'PL-01-S')?.stock).toBe(3);
    expect((await move(id, 'created')).statusCode).toBe(400);
    // the list filters by status and by date; /orders/all answers every match
    const filtered = (await call(admin, 'GET', '/orders?status=cancelled')).json();
    expect(filtered.payload.map((o: Rec) => o._id)).toEqual([id]);
    const future = (await call(admin, 'GET', `/orders?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).json();
    expect(future.totalDocs).toBe(0);
    const all = (await call(admin, 'GET', '/orders/all')).json();
    expect(all.payload.length).toBe(await orderCount());
    expect((await call(admin, 'GET', '/orders?status=nope')).statusCode).toBe(400);
  });

  it('tells the company\'s open screens once committed: a placement, each move and a deletion publish order.updated', async () => {
    const heard: Array<{ event: Rec; stored?: Rec }> = [];
    const stop = t.app.realtime.subscribe(chile, (event) => {
      if (event.type !== 'order.updated') return;
      // read as soon as it is heard: the order is already there (published after the commit)
      void t.sql<Rec>('select status, code from orders where id = $1', [event.orderId]).then(([stored]) => heard.push({ event, stored }));
    });
    const others: Rec[] = [];
    const stopOthers = t.app.realtime.subscribe(acmeCo, (event) => others.push(event));
    try {
      const res = await place({ catalog: catalogId, items: [{ productId: ids.mug, quantity: 1 }], customer, shippment: { method: 'pickup' } });
      expect(res.statusCode, res.body).toBe(201);
      const { _id: id, order } = res.json();
      // an earlier test's order may still be on its way to the screens: this test counts its own
      const mine = () => heard.filter((h) => h.event.orderId === id);
      await expect.poll(() => mine().length).toBe(1);
      expect(mine()[0]).toEqual({ event: { type: 'order.updated', orderId: id, code: order.code, status: 'created', created: true }, stored: { status: 'created', code: order.code } });
      expect((await move(id, 'paid')).statusCode).toBe(200);
      await expect.poll(() => mine().length).toBe(2);
      expect(mine()[1]).toEqual({ event: { type: 'order.updated', orderId: id, code: order.code, status: 'paid', created: false }, stored: { status: 'paid', code: order.code } });
      // a refused move tells nobody; another company hears nothing
      expect((await move(id, 'done')).statusCode).toBe(400);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(mine()).toHaveLength(2);
      // a deletion tells them too, so another tab's list drops the order
      expect((await call(admin, 'DELETE', `/orders/${id}`)).statusCode).toBe(200);
      await expect.poll(() => mine().length).toBe(3);
      expect(mine()[2]).toEqual({ event: { type: 'order.updated', orderId: id, code: order.code, status: 'deleted', created: false } });
      expect(others).toEqual([]);
    } finally {
      stop();
      stopOthers();
    }
  });

  it('keeps orders to their company', async () => {
    expect((await move(orderId, 'cancelled', acme, acmeCo)).statusCode).toBe(404);
    expect((await call(acme, 'GET', `/orders/${orderId}`, undefined, acmeCo)).statusCode).toBe(404);
    expect((await call(acme, 'GET', '/orders', undefined, acmeCo)).json().totalDocs).toBe(0);
    expect((await call(acme, 'GET', '/orders/all', undefined, acmeCo)).json().payload).toEqual([]);
    // an agent reads orders but does not move them (module catalog: read)
    const agent = await login(t, demo.agent);
    const peru = admin.company('Demo Perú');
    expect((await call(agent, 'GET', '/orders', undefined, peru)).statusCode).toBe(200);
    const [peruOrder] = await t.sql<{ id: string }>('select id from orders where company_id = $1 limit 1', [peru]);
    if (peruOrder) expect((await move(peruOrder.id, 'paid', agent, peru)).statusCode).toBe(401);
  });
});
