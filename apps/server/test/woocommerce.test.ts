import type { SyncRunOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWooClient, WooError } from '../src/integrations/woocommerce/client.js';
import { wooDefaults } from '../src/modules/ecommerce/store.js';
import { createSyncEngine } from '../src/modules/ecommerce/sync.js';
import { fillCatalogue, type FakeWooServer, startFakeWoo, wooDelivery, wooWebhooks } from './fakes/woocommerce.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let acme: Signed;
let woo: FakeWooServer;
let chile: Record<string, string>;
let storeId: string;
/** The store's webhooks to Mostrador, by topic (their ids come as X-WC-Webhook-ID). */
let hook: Record<string, number>;
const WEBHOOK_SECRET = 'secreto-del-webhook';

async function waitForRun(headers: Record<string, string>, id: string): Promise<SyncRunOut> {
  for (let i = 0; i < 600; i++) {
    const res = await t.app.inject({ method: 'GET', url: `/api/ecommerces/sync-runs/${id}`, headers });
    const run = res.json() as SyncRunOut;
    if (run.status === 'done' || run.status === 'failed') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('la sincronización no terminó');
}

async function syncAll(headers = chile, id = storeId) {
  const res = await t.app.inject({ method: 'POST', url: '/api/ecommerces/sync-all', headers, payload: { storeId: id } });
  expect(res.statusCode).toBe(202);
  return waitForRun(headers, res.json().runs[0]._id);
}

beforeAll(async () => {
  wooDefaults.backoffMs = 5;
  wooDefaults.maxBackoffMs = 50;
  // the store's fake listens on 127.0.0.1: this suite is a self-hosted setup (decision 0060; test/outbound.test.ts runs with it off)
  t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' });
  admin = await login(t, demo.admin);
  acme = await login(t, demo.acme);
  chile = as(admin, admin.company('Demo Chile'));
  woo = await startFakeWoo();
  fillCatalogue(woo.store, 250, 2);
  woo.store.admin.order({
    number: '9001',
    status: 'completed',
    currency: 'CLP',
    total: '25980',
    billing: { first_name: 'Camila', last_name: 'Soto', email: 'camila.soto@gmail.com', phone: '912345678' },
    line_items: [{ name: 'Producto de prueba 1', product_id: [...woo.store.products.keys()][0], variation_id: 0, quantity: 2, sku: 'P1', price: 12990 }],
  });
  woo.store.admin.customer({ email: 'camila.soto@gmail.com', first_name: 'Camila', last_name: 'Soto', billing: { phone: '912345678' } });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/woocommerces',
    headers: chile,
    payload: { name: 'Tienda Chile', url: woo.url, country: 'CL', consumerKey: 'ck_test123', consumerSecret: 'cs_test456', webhookSecret: WEBHOOK_SECRET },
  });
  expect(created.statusCode).toBe(201);
  storeId = created.json()._id;
  hook = wooWebhooks(woo.store, storeId, WEBHOOK_SECRET, ['product.updated', 'product.deleted', 'order.created']);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await woo?.close();
});

describe('WooCommerce client', () => {
  const client = (over: Partial<Parameters<typeof createWooClient>[0]> = {}) =>
    createWooClient({ url: woo.url, consumerKey: 'ck_test123', consumerSecret: 'cs_test456', backoffMs: 1, ...over });

  it('pages with per_page ≤ 100 and X-WP-TotalPages, and batches in chunks of 100', async () => {
    const c = client();
    const first = await c.page('/products', 1);
    expect(first.items).toHaveLength(100);
    expect(first.total).toBe(250);
    expect(first.totalPages).toBe(3);
    expect((await c.all('/products')).length).toBe(250);
    const before = woo.log.length;
    const updates = [...woo.store.products.values()].slice(0, 150).map((p) => ({ id: p.id, stock_quantity: p.stock_quantity }));
    const result = await c.batch('/products', { update: updates });
    expect(result.update).toHaveLength(150);
    const batches = woo.log.slice(before).filter((l) => l.path.startsWith('/wp-json/wc/v3/products/batch'));
    expect(batches).toHaveLength(2);
    // the store refuses more than 100 items in one request (the client never sends that)
    const tooMany = await fetch(`${woo.url}/wp-json/wc/v3/products/batch`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('ck_test123:cs_test456').toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ update: updates.slice(0, 101) }),
    });
    expect(tooMany.status).toBe(413);
  });

  it('retries 429 and 5xx with backoff, and says in Spanish what is wrong', async () => {
    woo.store.failNext(2, 503);
    const c = client();
    expect((await c.page('/products/tags', 1)).total).toBe(2);
    expect(c.stats.retries).toBe(2);

    const limited = await startFakeWoo({ rateLimitPerSecond: 5 });
    fillCatalogue(limited.store, 30, 0);
    const slow = createWooClient({ url: limited.url, consumerKey: 'ck_test123', consumerSecret: 'cs_test456', backoffMs: 1 });
    const lists = await Promise.all(Array.from({ length: 12 }, () => slow.page('/products', 1, {}, 10)));
    expect(lists.every((l) => l.total === 30)).toBe(true);
    expect(limited.store.stats.rateLimited).toBeGreaterThan(0);
    await limited.close();

    await expect(client({ consumerSecret: 'cs_mal' }).page('/products', 1)).rejects.toMatchObject({ kind: 'auth', msg: expect.stringMatching(/clave.*secreto.*no son válidos/) });
    await expect(client({ url: `${woo.url}/otra` }).page('/products', 1)).rejects.toMatchObject({ kind: 'not-woocommerce' });
    await expect(client({ url: 'http://127.0.0.1:9', retries: 2 }).page('/products', 1)).rejects.toMatchObject({ kind: 'network', msg: expect.stringContaining('revisa la URL') });
    woo.store.failNext(10, 500);
    const err = await client({ retries: 3 }).page('/products', 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WooError);
    expect((err as WooError).kind).toBe('server');
    woo.store.failNext(0);
    // clear what is left of the injected failures
    while (woo.store.stats.failed < 2 + 10) await client({ retries: 1 }).page('/products', 1).catch(() => {});
  });
});

describe('the demo\'s sandbox stores', () => {
  it('start synced: a sync of Lima principal changes nothing, sends nothing and reports no error', async () => {
    const peru = as(admin, admin.company('Demo Perú'));
    const stores = (await t.app.inject({ method: 'GET', url: '/api/woocommerces', headers: peru })).json().payload as Array<{ _id: string; name: string }>;
    const lima = stores.find((s) => s.name === 'Lima principal');
    expect(lima).toBeTruthy();
    const run = await syncAll(peru, lima?._id);
    expect(run).toMatchObject({ status: 'done', created: 0, updated: 0, storeWrites: 0, failedItems: 0, errors: [] });
    expect(run.done).toBeGreaterThan(10);
    // each example variation hangs under the product its SKU belongs to
    const polo = (await t.app.inject({ method: 'GET', url: '/api/ecommerces?filter=POLO-PIMA&country=PE', headers: peru })).json().payload.find((p: { sku: string }) => p.sku === 'POLO-PIMA');
    const vars = (await t.app.inject({ method: 'GET', url: `/api/ecommerces-variations?ecommerceId=${polo._id}`, headers: peru })).json().payload;
    expect(vars.every((v: { sku: string }) => v.sku.startsWith('POLO-PIMA-'))).toBe(true);
  });
});

describe('/woocommerce stores', () => {
  it('keeps the keys sealed and tests the connection, saying in Spanish what is wrong', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/woocommerces', headers: chile });
    expect(list.body).not.toContain('cs_test456');
    expect(list.json().payload[0]).toMatchObject({ consumerKeySet: true, consumerSecretSet: true, webhookSecretSet: true });
    const [row] = await t.sql<{ consumer_secret: string }>('select consumer_secret from woocommerces where id = $1', [storeId]);
    expect(row.consumer_secret).toMatch(/^v1\./);

    const ok = await t.app.inject({ method: 'POST', url: `/api/woocommerces/${storeId}/test`, headers: chile });
    expect(ok.json()).toMatchObject({ ok: true, products: 250, canWrite: true });
    expect(ok.json()).not.toHaveProperty('problem');

    const make = async (name: string, url: string, key: string, secret: string, country = 'ES') => {
      const r = await t.app.inject({ method: 'POST', url: '/api/woocommerces', headers: chile, payload: { name, url, country, consumerKey: key, consumerSecret: secret } });
      expect(r.statusCode).toBe(201);
      return r.json()._id as string;
    };
    const test = async (id: string) => (await t.app.inject({ method: 'POST', url: `/api/woocommerces/${id}/test`, headers: chile })).json();
    const badKeys = await make('Claves malas', woo.url, 'ck_otra', 'cs_otra');
    expect(await test(badKeys)).toMatchObject({ ok: false, problem: 'keys', msg: expect.stringContaining('no son válidos') });
    await t.app.inject({ method: 'DELETE', url: `/api/woocommerces/${badKeys}`, headers: chile });

    const readOnly = await startFakeWoo({ permission: 'read' });
    const ro = await make('Solo lectura', readOnly.url, 'ck_test123', 'cs_test456');
    expect(await test(ro)).toMatchObject({ ok: false, canWrite: false, problem: 'permissions', msg: expect.stringContaining('solo tienen permiso de lectura') });
    await t.app.inject({ method: 'DELETE', url: `/api/woocommerces/${ro}`, headers: chile });
    await readOnly.close();

    const wrongUrl = await make('URL mala', `${woo.url}/tienda-equivocada`, 'ck_test123', 'cs_test456');
    expect(await test(wrongUrl)).toMatchObject({ ok: false, problem: 'url', msg: expect.stringContaining('no responde como una tienda WooCommerce') });
    await t.app.inject({ method: 'DELETE', url: `/api/woocommerces/${wrongUrl}`, headers: chile });

    // one store per country
    const twice = await t.app.inject({ method: 'POST', url: '/api/woocommerces', headers: chile, payload: { name: 'Otra Chile', url: woo.url, country: 'CL', consumerKey: 'ck_a', consumerSecret: 'cs_a' } });
    expect(twice.statusCode).toBe(409);
  });
});

describe('store sync', () => {
  let firstRun: SyncRunOut;
  it('pulls the store page by page with live progress, then a second sync changes nothing and sends no writes', async () => {
    const events: SyncRunOut[] = [];
    const stop = t.app.realtime.subscribe(admin.company('Demo Chile'), (e) => {
      if (e.type === 'sync.progress') events.push(e.run);
    });
    firstRun = await syncAll();
    // the last event follows the commit (through NOTIFY on PostgreSQL)
    await expect.poll(() => events.at(-1)?.status, { timeout: 5000, interval: 20 }).toBe('done');
    stop();
    expect(firstRun).toMatchObject({ status: 'done', failedItems: 0, storeWrites: 0 });
    expect(firstRun.done).toBe(firstRun.total);
    expect(firstRun.created).toBe(250 + 500 + 3 + 2 + 1 + 1 + 1);
    expect(events.length).toBeGreaterThan(3);
    expect(events.at(-1)?.status).toBe('done');
    expect(events.some((e) => e.done > 0 && e.done < e.total)).toBe(true);

    const products = await t.app.inject({ method: 'GET', url: '/api/ecommerces?country=CL&limit=50&filter=P17', headers: chile });
    const polo = products.json().payload.find((p: { sku: string }) => p.sku === 'P17');
    expect(polo).toMatchObject({ country: 'CL', price: 27, stock: 17, status: 'publish', sizes: ['S', 'M'] });
    const vars = await t.app.inject({ method: 'GET', url: `/api/ecommerces-variations?ecommerceId=${polo._id}`, headers: chile });
    expect(vars.json().payload.map((v: { sku: string }) => v.sku)).toEqual(['P17-V1', 'P17-V2']);
    const orders = await t.app.inject({ method: 'GET', url: '/api/ecommerces-orders', headers: chile });
    expect(orders.json().payload[0]).toMatchObject({ number: 'CL-9001', status: 'done', customerPhone: '56912345678', currency: 'CLP' });
    expect(orders.json().payload[0].items[0].ecommerceId).toBeTruthy();

    const writesBefore = woo.store.stats.writes;
    const second = await syncAll();
    expect(second).toMatchObject({ status: 'done', created: 0, updated: 0, storeWrites: 0, failedItems: 0 });
    expect(woo.store.stats.writes).toBe(writesBefore);
  });

  it('takes a store change, keeps a local edit and pushes it; reports items the store refuses', async () => {
    const [p5] = [...woo.store.products.values()].filter((p) => p.sku === 'P5');
    woo.store.admin.product({ name: 'Producto 5 renovado', stock_quantity: 99 }, p5.id);
    const local = (await t.app.inject({ method: 'GET', url: '/api/ecommerces?country=CL&filter=P6&limit=50', headers: chile })).json().payload.find((p: { sku: string }) => p.sku === 'P6');
    const put = await t.app.inject({ method: 'PUT', url: `/api/ecommerces/${local._id}`, headers: chile, payload: { stock: 1234, name: 'Producto 6 editado aquí' } });
    expect(put.statusCode).toBe(200);
    const run = await syncAll();
    expect(run).toMatchObject({ status: 'done', updated: 2, storeWrites: 1 });
    const p6 = [...woo.store.products.values()].find((p) => p.sku === 'P6');
    expect(p6).toMatchObject({ name: 'Producto 6 editado aquí', stock_quantity: 1234 });
    const mine = (await t.app.inject({ method: 'GET', url: '/api/ecommerces?country=CL&filter=P5&limit=50', headers: chile })).json().payload.find((p: { sku: string }) => p.sku === 'P5');
    expect(mine).toMatchObject({ name: 'Producto 5 renovado', stock: 99 });

    // a product the store refuses (a SKU it already has) is reported, the rest goes on
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/ecommerces',
      headers: chile,
      payload: { name: 'Copia', sku: 'P7-V1', price: 10, stock: 1, status: 'draft', country: 'CL' },
    });
    expect(dup.statusCode).toBe(201);
    const withError = await syncAll();
    expect(withError.status).toBe('done');
    expect(withError.failedItems).toBe(1);
    expect(withError.errors[0]).toMatchObject({ item: expect.stringContaining('P7-V1'), msg: expect.stringContaining('rechazó') });
    await t.app.inject({ method: 'DELETE', url: `/api/ecommerces/${dup.json()._id}`, headers: chile });
  });

  it('resumes after a crash at the page it had reached, without redoing finished pages', async () => {
    const fresh = await startFakeWoo();
    fillCatalogue(fresh.store, 230, 1);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/woocommerces',
      headers: chile,
      payload: { name: 'Tienda España', url: fresh.url, country: 'ES', consumerKey: 'ck_test123', consumerSecret: 'cs_test456' },
    });
    const store = await t.sql<{ id: string }>('select id from woocommerces where id = $1', [created.json()._id]);
    const [run] = await t.sql<{ id: string }>(
      `insert into ecommerce_sync_runs (company_id, store_id, kind) values ($1, $2, 'all') returning id`,
      [admin.company('Demo Chile'), store[0].id],
    );
    // the process "dies" on the request for the products' second page
    const { clientFor } = await import('../src/modules/ecommerce/store.js');
    const crashing = createSyncEngine({
      db: t.database.db,
      secrets: t.app.secrets,
      client: (s) => {
        const c = clientFor(s);
        const page = c.page.bind(c);
        c.page = (async (path: string, n: number, q?: Record<string, string | number | undefined>, per?: number) => {
          if (path === '/products' && n === 2) throw new Error('proceso terminado');
          return page(path, n, q, per);
        }) as typeof c.page;
        return c;
      },
    });
    await expect(crashing.run(run.id)).rejects.toThrow('proceso terminado');
    const [mid] = await t.sql<{ status: string; cursor: { phase: string; page: number }; created: number }>('select status, cursor, created from ecommerce_sync_runs where id = $1', [run.id]);
    expect(mid.status).toBe('running');
    expect(mid.cursor).toMatchObject({ phase: 'products', page: 2 });
    const before = fresh.log.length;
    await createSyncEngine({ db: t.database.db, secrets: t.app.secrets }).run(run.id);
    const after = fresh.log.slice(before).map((l) => l.path);
    expect(after.some((p) => p.startsWith('/wp-json/wc/v3/products?') && p.includes('page=1&'))).toBe(false);
    expect(after.some((p) => p.startsWith('/wp-json/wc/v3/products/categories'))).toBe(false);
    const [end] = await t.sql<{ status: string; created: number; done: number; total: number }>('select status, created, done, total from ecommerce_sync_runs where id = $1', [run.id]);
    expect(end.status).toBe('done');
    const [{ n }] = await t.sql<{ n: number }>(`select count(*)::int as n from ecommerces where company_id = $1 and country = 'ES'`, [admin.company('Demo Chile')]);
    expect(n).toBe(230);
    await fresh.close();
  });
});

describe('ecommerce product calls (SPEC §7)', () => {
  const firstProduct = async () => (await t.app.inject({ method: 'GET', url: '/api/ecommerces?country=CL&filter=P11&limit=50', headers: chile })).json().payload.find((p: { sku: string }) => p.sku === 'P11');

  it('lists newest first and reads one; sizes, categories (parent 0 = top), attributes with values', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/ecommerces?limit=5', headers: chile });
    const dates = list.json().payload.map((p: { createdAt: string }) => p.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const one = await t.app.inject({ method: 'GET', url: `/api/ecommerces/${list.json().payload[0]._id}`, headers: chile });
    expect(one.statusCode).toBe(200);

    expect((await t.app.inject({ method: 'GET', url: '/api/ecommerces/sizes', headers: chile })).json().payload).toEqual(expect.arrayContaining(['M', 'S']));
    const cats = (await t.app.inject({ method: 'GET', url: '/api/ecommerces/categories', headers: chile })).json().payload;
    const ropa = cats.find((c: { name: string; country?: string }) => c.name === 'Ropa' && c.country === 'CL');
    const polos = cats.find((c: { name: string; country?: string }) => c.name === 'Polos' && c.country === 'CL');
    expect(ropa.parent).toBe(0);
    expect(polos.parent).toBe(ropa.id);
    expect(polos.products).toBeGreaterThan(100);
    expect(polos.foreignLabelId).toBeUndefined();
    // a category linked to a label says which (the tree's edit form shows it)
    const label = await t.app.inject({ method: 'POST', url: '/api/ecommerces-tags', headers: chile, payload: { name: 'Temporada', slug: 'temporada' } });
    expect(label.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'PUT', url: `/api/ecommerces-categories/${polos._id}`, headers: chile, payload: { foreignLabelId: label.json()._id } })).statusCode).toBe(200);
    const linked = (await t.app.inject({ method: 'GET', url: '/api/ecommerces/categories', headers: chile })).json().payload.find((c: { _id: string }) => c._id === polos._id);
    expect(linked.foreignLabelId).toBe(label.json()._id);
    const attrs = (await t.app.inject({ method: 'GET', url: '/api/ecommerces/attributes-with-values', headers: chile })).json().payload;
    expect(attrs.find((a: { country: string }) => a.country === 'CL')).toMatchObject({ nombre: 'Talla', values: ['S', 'M', 'L', 'XL'] });
    const bare = (await t.app.inject({ method: 'GET', url: '/api/ecommerces/attributes', headers: chile })).json().payload;
    expect(bare[0].values).toBeUndefined();
  });

  it('PATCH /ecommerces/v2/{id} saves and pushes; unchanged sends nothing; bad input is a Spanish 400', async () => {
    const p = await firstProduct();
    const res = await t.app.inject({ method: 'PATCH', url: `/api/ecommerces/v2/${p._id}`, headers: chile, payload: { price: 33.5, regularPrice: 40 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().sync.msg).toBe('Guardado y enviado a Tienda Chile');
    expect(res.json()).toMatchObject({ product: { price: 33.5 }, sync: { status: 'synced' } });
    const remote = woo.store.products.get(p.woocommerceId);
    expect(remote).toMatchObject({ regular_price: '40', sale_price: '33.5' });
    const writes = woo.store.stats.writes;
    const again = await t.app.inject({ method: 'PATCH', url: `/api/ecommerces/v2/${p._id}`, headers: chile, payload: { price: 33.5 } });
    expect(again.json().sync.status).toBe('unchanged');
    expect(woo.store.stats.writes).toBe(writes);

    const bad = await t.app.inject({ method: 'PATCH', url: `/api/ecommerces/v2/${p._id}`, headers: chile, payload: { price: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toMatch(/[áéíóúñ]|cero|negativo|número/i);
    const unknown = await t.app.inject({ method: 'PATCH', url: '/api/ecommerces/v2/00000000-0000-4000-8000-000000000000', headers: chile, payload: { price: 1 } });
    expect(unknown.statusCode).toBe(404);
  });

  it('variations: PUT saves, POST syncs one, batch creates/updates/deletes in the store; more than 100 is refused', async () => {
    const p = await firstProduct();
    const vars = (await t.app.inject({ method: 'GET', url: `/api/ecommerces-variations?ecommerceId=${p._id}`, headers: chile })).json().payload;
    const put = await t.app.inject({ method: 'PUT', url: `/api/ecommerces/${p._id}/variations/${vars[0]._id}`, headers: chile, payload: { stock: 77 } });
    expect(put.statusCode).toBe(200);
    expect(put.json().stock).toBe(77);
    const remoteVar = () => woo.store.variations.get(p.woocommerceId)?.get(vars[0].woocommerceId);
    expect(remoteVar()?.stock_quantity).not.toBe(77);
    const sync = await t.app.inject({ method: 'POST', url: `/api/ecommerces/${p._id}/variations/${vars[0]._id}`, headers: chile });
    expect(sync.json().status).toBe('synced');
    expect(remoteVar()?.stock_quantity).toBe(77);

    const batch = await t.app.inject({
      method: 'POST',
      url: `/api/ecommerces/${p._id}/variations/batch`,
      headers: chile,
      payload: { create: [{ sku: 'P11-V9', price: 12, stock: 3, attributes: [{ nombre: 'Talla', value: 'XL' }] }], update: [{ _id: vars[1]._id, price: 15 }], delete: [vars[0]._id] },
    });
    expect(batch.statusCode).toBe(200);
    expect(batch.json().sync.status).toBe('synced');
    const remote = [...(woo.store.variations.get(p.woocommerceId)?.values() ?? [])];
    expect(remote.map((v) => v.sku).sort()).toEqual(['P11-V2', 'P11-V9']);
    expect(remote.find((v) => v.sku === 'P11-V2')?.regular_price).toBe('15');

    const tooMany = await t.app.inject({
      method: 'POST',
      url: `/api/ecommerces/${p._id}/variations/batch`,
      headers: chile,
      payload: { update: Array.from({ length: 101 }, () => ({ _id: vars[1]._id, price: 1 })) },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain('Como máximo 100 variaciones por lote');
    const empty = await t.app.inject({ method: 'POST', url: `/api/ecommerces/${p._id}/variations/batch`, headers: chile, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('El lote está vacío');
    const other = await firstProductOf('P12');
    const notMine = await t.app.inject({ method: 'PUT', url: `/api/ecommerces/${other._id}/variations/${vars[1]._id}`, headers: chile, payload: { stock: 1 } });
    expect(notMine.statusCode).toBe(404);
  });

  const firstProductOf = async (sku: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/ecommerces?country=CL&filter=${sku}&limit=50`, headers: chile })).json().payload.find((p: { sku: string }) => p.sku === sku);

  it('sync-selected pushes only the chosen products; an empty choice is refused in Spanish', async () => {
    const p = await firstProductOf('P20');
    await t.app.inject({ method: 'PUT', url: `/api/ecommerces/${p._id}`, headers: chile, payload: { stock: 5 } });
    const res = await t.app.inject({ method: 'POST', url: '/api/ecommerces/sync-selected', headers: chile, payload: { ids: [p._id] } });
    expect(res.statusCode).toBe(202);
    const run = await waitForRun(chile, res.json().runs[0]._id);
    expect(run).toMatchObject({ status: 'done', kind: 'selected', storeWrites: 1, total: 1, done: 1 });
    expect([...woo.store.products.values()].find((x) => x.sku === 'P20')?.stock_quantity).toBe(5);
    const empty = await t.app.inject({ method: 'POST', url: '/api/ecommerces/sync-selected', headers: chile, payload: { ids: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.msg).toContain('Elige al menos un producto');
  });

  it('deleting a product here removes its variations and moves the store product to the trash; the next sync does not bring it back', async () => {
    const p = await firstProductOf('P40');
    const remote = [...woo.store.products.values()].find((x) => x.sku === 'P40');
    if (!remote) throw new Error('P40');
    const company = admin.company('Demo Chile');
    const variationIds = (await t.sql<{ id: string }>(`select id from ecommerces_variations where company_id = $1 and ecommerce_id = $2`, [company, p._id])).map((r) => r.id);
    expect(variationIds).toHaveLength(2);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/ecommerces/${p._id}`, headers: chile });
    expect(res.statusCode, res.body).toBe(200);
    const [{ n: left }] = await t.sql<{ n: number }>(`select count(*)::int as n from ecommerces_variations where company_id = $1 and id = any($2::uuid[])`, [company, variationIds]);
    expect(left).toBe(0);
    for (let i = 0; i < 100 && woo.store.products.has(remote.id); i++) await new Promise((r) => setTimeout(r, 100));
    expect(woo.store.products.has(remote.id)).toBe(false);
    const run = await syncAll();
    expect(run.status).toBe('done');
    const again = (await t.app.inject({ method: 'GET', url: '/api/ecommerces?country=CL&filter=P40&limit=50', headers: chile })).json().payload as Array<{ sku: string }>;
    expect(again.filter((x) => x.sku === 'P40')).toHaveLength(0);
  });

  it('crossover shows one product beside the other country stores, and copy-multimedia copies pictures and texts', async () => {
    const peru = as(admin, admin.company('Demo Perú'));
    // the demo's sandbox stores (Perú, Chile) were synced at seed time
    const cross = await t.app.inject({ method: 'GET', url: '/api/ecommerces/crossover/country/PE?filter=POLO-PIMA', headers: peru });
    expect(cross.statusCode).toBe(200);
    const row = cross.json().payload.find((r: { sku: string }) => r.sku === 'POLO-PIMA');
    expect(row.product).toMatchObject({ country: 'PE', price: 59.9, regularPrice: 79.9, variations: 4 });
    expect(row.others[0]).toMatchObject({ country: 'CL', price: 24990, variations: 2 });
    expect(row.differences).toEqual(expect.arrayContaining(['price', 'stock', 'variations']));
    expect(row.missingIn).toContain('CO');
    const bad = await t.app.inject({ method: 'GET', url: '/api/ecommerces/crossover/country/XX', headers: peru });
    expect(bad.statusCode).toBe(400);

    const chompaCl = (await t.app.inject({ method: 'GET', url: '/api/ecommerces?filter=CHOMPA-ALP', headers: peru })).json().payload;
    const ref = chompaCl.find((p: { country: string }) => p.country === 'PE');
    await t.app.inject({ method: 'PUT', url: `/api/ecommerces/${ref._id}`, headers: peru, payload: { description: 'Texto nuevo de la chompa', imageUrl: 'https://pe.tienda.sandbox.test/wp-content/uploads/chompa-nueva.svg' } });
    const copy = await t.app.inject({ method: 'POST', url: '/api/ecommerces/copy-multimedia-ref-copys', headers: peru, payload: { referenceId: ref._id } });
    expect(copy.statusCode).toBe(200);
    expect(copy.json().updated).toEqual([expect.objectContaining({ country: 'CL' })]);
    const run = await waitForRun(peru, copy.json().runs[0]._id);
    expect(run).toMatchObject({ status: 'done', storeWrites: 1 });
    const cl = chompaCl.find((p: { country: string }) => p.country === 'CL');
    const after = (await t.app.inject({ method: 'GET', url: `/api/ecommerces/${cl._id}`, headers: peru })).json();
    expect(after).toMatchObject({ description: 'Texto nuevo de la chompa', imageUrl: expect.stringContaining('chompa-nueva.svg'), price: 79990 });
  });
});

describe('WooCommerce webhooks', () => {
  const post = (d: ReturnType<typeof wooDelivery>, id = storeId) => t.app.inject({ method: 'POST', url: `/api/webhooks/woocommerce/${id}`, headers: d.headers, payload: d.body });

  it('refuses unsigned and tampered deliveries, stores each delivery once and processes it in the queue', async () => {
    const remote = [...woo.store.products.values()].find((p) => p.sku === 'P30');
    if (!remote) throw new Error('P30');
    const changed = { ...remote, name: 'Nombre desde el webhook', stock_quantity: 321 };
    const good = wooDelivery('product.updated', changed, WEBHOOK_SECRET, hook['product.updated']);

    const unsigned = await t.app.inject({ method: 'POST', url: `/api/webhooks/woocommerce/${storeId}`, headers: { ...good.headers, 'x-wc-webhook-signature': '' }, payload: good.body });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().errors.msg).toContain('Firma del webhook ausente o no válida');
    const tampered = await t.app.inject({ method: 'POST', url: `/api/webhooks/woocommerce/${storeId}`, headers: good.headers, payload: good.body.replace('321', '999') });
    expect(tampered.statusCode).toBe(401);
    const wrongSecret = await post(wooDelivery('product.updated', changed, 'otro-secreto', hook['product.updated']));
    expect(wrongSecret.statusCode).toBe(401);

    const ok = await post(good);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ stored: 1, duplicate: false });
    const dup = await post(good);
    expect(dup.json()).toMatchObject({ stored: 0, duplicate: true });

    for (let i = 0; i < 100; i++) {
      const [e] = await t.sql<{ status: string }>(`select status from woocommerce_webhook_events where delivery_id = $1`, [good.headers['x-wc-webhook-delivery-id']]);
      if (e?.status === 'processed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const mine = (await t.app.inject({ method: 'GET', url: '/api/ecommerces?country=CL&filter=P30&limit=50', headers: chile })).json().payload.find((p: { sku: string }) => p.sku === 'P30');
    expect(mine).toMatchObject({ name: 'Nombre desde el webhook', stock: 321 });
    const [{ n }] = await t.sql<{ n: number }>('select count(*)::int as n from woocommerce_webhook_events where store_id = $1', [storeId]);
    expect(n).toBe(1);

    // an order webhook creates the order; a product deletion removes the product here
    const order = wooDelivery('order.created', { id: 777, number: '777', status: 'processing', currency: 'CLP', total: '1000', billing: { first_name: 'Ana', last_name: 'Pérez', email: 'ana@correo.cl' }, line_items: [{ name: 'x', product_id: remote.id, variation_id: 0, quantity: 1, sku: 'P30', price: 1000 }] }, WEBHOOK_SECRET, hook['order.created']);
    expect((await post(order)).statusCode).toBe(200);
    woo.store.admin.removeProduct(remote.id);
    const gone = wooDelivery('product.deleted', { id: remote.id }, WEBHOOK_SECRET, hook['product.deleted']);
    expect((await post(gone)).statusCode).toBe(200);
    let found = true;
    for (let i = 0; i < 100 && found; i++) {
      await new Promise((r) => setTimeout(r, 100));
      found = (await t.sql('select 1 from ecommerces where id = $1', [mine._id])).length > 0;
    }
    expect(found).toBe(false);
    let orders: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 100 && !orders.length; i++) {
      orders = (await t.app.inject({ method: 'GET', url: '/api/ecommerces-orders?filter=Ana', headers: chile })).json().payload;
      if (!orders.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(orders[0]).toMatchObject({ number: 'CL-777', status: 'processing' });

    const bogus = await t.app.inject({ method: 'POST', url: '/api/webhooks/woocommerce/00000000-0000-4000-8000-000000000000', headers: good.headers, payload: good.body });
    expect(bogus.statusCode).toBe(404);
  });

  // the signature covers the body only: topic, delivery id and webhook id are headers anyone can change (decision 0061)
  const settled = async (d: ReturnType<typeof wooDelivery>) => {
    for (let i = 0; i < 200; i++) {
      const [e] = await t.sql<{ status: string; last_error: string | null; topic: string }>(
        'select status, last_error, topic from woocommerce_webhook_events where store_id = $1 and delivery_id = $2',
        [storeId, d.headers['x-wc-webhook-delivery-id']],
      );
      if (e && e.status !== 'pending') return e;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('la entrega no se procesó');
  };
  const remoteOf = (sku: string) => {
    const p = [...woo.store.products.values()].find((x) => x.sku === sku);
    if (!p) throw new Error(sku);
    return p;
  };
  const mineOf = async (sku: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/ecommerces?country=CL&filter=${sku}&limit=50`, headers: chile })).json().payload.find((p: { sku: string }) => p.sku === sku) as
      | { _id: string; name: string }
      | undefined;
  const variationsHere = async (id: string) => (await t.sql<{ n: number }>('select count(*)::int as n from ecommerces_variations where ecommerce_id = $1', [id]))[0].n;

  it('processes a captured body replayed under another delivery id once: an old state does not come back', async () => {
    const remote = remoteOf('P31');
    const first = wooDelivery('product.updated', { ...remote, name: 'Polo primera versión' }, WEBHOOK_SECRET, hook['product.updated']);
    expect((await post(first)).json()).toMatchObject({ stored: 1 });
    await settled(first);
    const second = wooDelivery('product.updated', { ...remote, name: 'Polo segunda versión' }, WEBHOOK_SECRET, hook['product.updated']);
    expect((await post(second)).json()).toMatchObject({ stored: 1 });
    await settled(second);

    const replay = { ...first, headers: { ...first.headers, 'x-wc-webhook-delivery-id': crypto.randomUUID() } };
    const res = await post(replay);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ stored: 0, duplicate: true });
    const [{ n }] = await t.sql<{ n: number }>(`select count(*)::int as n from woocommerce_webhook_events where store_id = $1 and payload->>'name' = 'Polo primera versión'`, [storeId]);
    expect(n).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect((await mineOf('P31'))?.name).toBe('Polo segunda versión');
  });

  it('takes the topic from the store: a forged product.deleted deletes nothing while the product is in the store', async () => {
    const remote = remoteOf('P32');
    const mine = await mineOf('P32');
    if (!mine) throw new Error('P32 aquí');
    const variations = await variationsHere(mine._id);
    expect(variations).toBeGreaterThan(0);

    // a captured product.updated body with the topic header changed: still the update its webhook is
    const captured = wooDelivery('product.updated', { ...remote, name: 'Polo capturado' }, WEBHOOK_SECRET, hook['product.updated']);
    const forged = { ...captured, headers: { ...captured.headers, 'x-wc-webhook-topic': 'product.deleted', 'x-wc-webhook-event': 'deleted' } };
    expect((await post(forged)).statusCode).toBe(200);
    expect(await settled(forged)).toMatchObject({ status: 'processed', topic: 'product.updated' });
    expect(await mineOf('P32')).toMatchObject({ _id: mine._id, name: 'Polo capturado' });

    // the same kind of body under the id of the store's product.deleted webhook: the store still has it, so nothing goes
    const otherHook = wooDelivery('product.updated', { ...remote, name: 'Polo con otro webhook' }, WEBHOOK_SECRET, hook['product.deleted']);
    expect((await post(otherHook)).statusCode).toBe(200);
    expect(await settled(otherHook)).toMatchObject({ status: 'failed', last_error: `La tienda todavía tiene el producto ${remote.id}: no se borró nada` });

    // a webhook id the store does not have
    const unknown = wooDelivery('product.deleted', { ...remote, name: 'Polo sin webhook' }, WEBHOOK_SECRET, 999_999);
    expect((await post(unknown)).statusCode).toBe(200);
    expect((await settled(unknown)).last_error).toContain('La tienda no tiene el webhook 999999 activo hacia esta dirección');
    // no webhook id at all
    const { 'x-wc-webhook-id': _id, ...headerless } = captured.headers;
    const bare = await t.app.inject({ method: 'POST', url: `/api/webhooks/woocommerce/${storeId}`, headers: headerless, payload: captured.body });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().errors.msg).toBe('Falta X-WC-Webhook-ID: la entrega no viene de un webhook de WooCommerce');

    expect((await mineOf('P32'))?._id).toBe(mine._id);
    expect(await variationsHere(mine._id)).toBe(variations);
  });

  it('deletes when the store confirms it: the product went to the trash', async () => {
    const remote = remoteOf('P33');
    const mine = await mineOf('P33');
    if (!mine) throw new Error('P33 aquí');
    woo.store.admin.product({ status: 'trash' }, remote.id);
    const gone = wooDelivery('product.deleted', { id: remote.id }, WEBHOOK_SECRET, hook['product.deleted']);
    expect((await post(gone)).statusCode).toBe(200);
    expect(await settled(gone)).toMatchObject({ status: 'processed', topic: 'product.deleted' });
    expect(await mineOf('P33')).toBeUndefined();
    expect(await variationsHere(mine._id)).toBe(0);
  });
});

describe('tenant isolation', () => {
  it("another corporation can neither see nor use this company's stores, runs or products", async () => {
    const other = as(acme);
    expect((await t.app.inject({ method: 'POST', url: `/api/woocommerces/${storeId}/test`, headers: other })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/ecommerces/sync-all', headers: other, payload: { storeId } })).statusCode).toBe(404);
    const runs = await t.app.inject({ method: 'GET', url: '/api/ecommerces/sync-runs', headers: other });
    expect(runs.json().payload).toEqual([]);
    const [run] = await t.sql<{ id: string }>('select id from ecommerce_sync_runs where store_id = $1 limit 1', [storeId]);
    expect((await t.app.inject({ method: 'GET', url: `/api/ecommerces/sync-runs/${run.id}`, headers: other })).statusCode).toBe(404);
    const p = (await t.app.inject({ method: 'GET', url: '/api/ecommerces?limit=1', headers: chile })).json().payload[0];
    expect((await t.app.inject({ method: 'PATCH', url: `/api/ecommerces/v2/${p._id}`, headers: other, payload: { stock: 1 } })).statusCode).toBe(404);
    const sel = await t.app.inject({ method: 'POST', url: '/api/ecommerces/sync-selected', headers: other, payload: { ids: [p._id] } });
    expect(sel.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/ecommerces/copy-multimedia-ref-copys', headers: other, payload: { referenceId: p._id } })).statusCode).toBe(404);
    const cross = await t.app.inject({ method: 'GET', url: '/api/ecommerces/crossover/country/CL', headers: other });
    expect(cross.json().totalDocs).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/ecommerces/sizes', headers: other })).json().payload).toEqual([]);
  });
});
