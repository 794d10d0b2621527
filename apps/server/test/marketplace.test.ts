import type { MarketplaceSyncRunOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketplaceError } from '../src/integrations/marketplace.js';
import { createSellerCenterAdapter } from '../src/integrations/seller-center/adapter.js';
import { createSellerCenterClient } from '../src/integrations/seller-center/client.js';
import { signatureOf } from '../src/integrations/seller-center/signature.js';
import { marketplaceDefaults } from '../src/modules/marketplace/sources.js';
import { createMarketplaceSync } from '../src/modules/marketplace/sync.js';
import { fillAccount, type FakeSellerCenterServer, startFakeSellerCenter } from './fakes/seller-center.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let acme: Signed;
let fake: FakeSellerCenterServer;
let chile: Record<string, string>;
let peru: Record<string, string>;
let sourceId: string;
const USER = 'integraciones@tienda.pe';
const KEY = 'b1bdb357ced10fe4e9a69840cdd4f0e9c03d77fe';

type Rec = Record<string, unknown>;
const get = async (url: string, headers = chile) => (await t.app.inject({ method: 'GET', url, headers })).json();

async function waitForRun(id: string, headers = chile): Promise<MarketplaceSyncRunOut> {
  for (let i = 0; i < 600; i++) {
    const run = (await t.app.inject({ method: 'GET', url: `/api/marketplace-sync-runs/${id}`, headers })).json() as MarketplaceSyncRunOut;
    if (run.status === 'done' || run.status === 'failed') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('la sincronización no terminó');
}

async function syncSource(id = sourceId, headers = chile) {
  const res = await t.app.inject({ method: 'POST', url: `/api/marketplace-sources/${id}/sync`, headers });
  expect(res.statusCode, res.body).toBe(202);
  return waitForRun(res.json().run._id, headers);
}

const variationOf = async (sku: string, headers = chile) =>
  (await get(`/api/marketplace-products/variations?filter=${encodeURIComponent(sku)}&limit=50`, headers)).payload.find((v: Rec) => v.sellerSku === sku) as Rec;

beforeAll(async () => {
  Object.assign(marketplaceDefaults, { backoffMs: 2, maxBackoffMs: 20, feedPollMs: 2, pageSize: 100, ordersPageSize: 2 });
  // the store's fake listens on 127.0.0.1: this suite is a self-hosted setup (decision 0060; test/outbound.test.ts runs with it off)
  t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' });
  admin = await login(t, demo.admin);
  acme = await login(t, demo.acme);
  chile = as(admin, admin.company('Demo Chile'));
  peru = as(admin, admin.company('Demo Perú'));
  fake = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'PE' });
  fillAccount(fake.account, 120, 2);
  const day = 86_400_000;
  fake.account.admin.order({ firstName: 'María', lastName: 'Fernández', email: 'maria@correo.pe', city: 'Lima', createdAt: Date.now() - 5 * day, items: [{ sku: 'MP1-1', status: 'delivered' }] });
  fake.account.admin.order({ firstName: 'Luis', lastName: 'Paredes', createdAt: Date.now() - 2 * day, items: [{ sku: 'MP2-1', status: 'shipped' }, { sku: 'MP2-2', status: 'shipped' }] });
  fake.account.admin.order({ firstName: 'Rosa', lastName: 'Quispe', email: 'no-es-un-correo', createdAt: Date.now() - day, items: [{ sku: 'MP3-1' }, { sku: 'MP3-2' }] });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/marketplace-sources',
    headers: chile,
    payload: { name: 'Falabella pruebas', platform: 'falabella', country: 'PE', sellerId: 'SC123', apiUser: USER, apiKey: KEY, apiUrl: fake.url },
  });
  expect(created.statusCode, created.body).toBe(201);
  sourceId = created.json()._id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('Seller Center client', () => {
  const client = (over: Partial<Parameters<typeof createSellerCenterClient>[0]> = {}) =>
    createSellerCenterClient({ url: fake.url, userId: USER, apiKey: KEY, country: 'PE', backoffMs: 1, ...over });

  it('signs as the documentation shows: sorted, RFC 3986 encoded, hex HMAC-SHA256 with the API key', async () => {
    // the documented example (Seller Center's "Signing requests")
    const documented = { UserID: 'look@me.com', Version: '1.0', Action: 'FeedList', Format: 'XML', Timestamp: '2015-07-01T11:11:11+00:00' };
    expect(signatureOf(documented, 'b1bdb357ced10fe4e9a69840cdd4f0e9c03d77fe')).toBe('3ceb8ed91049dfc718b0d2d176fb2ed0e5fd74f76c5971f34cdab48412476041');
    // a value with characters that must be encoded signs as it is sent
    const before = fake.log.length;
    await client().getProducts(0, 5, { Search: "Polo (piqué) d'algodón" });
    const sent = fake.log.at(-1);
    expect(fake.log.length).toBe(before + 1);
    expect(sent?.status).toBe(200);
    expect(sent?.query).toMatch(/^\?Action=GetProducts&Filter=all&Format=JSON&Limit=5&Offset=0&Search=Polo%20%28piqu%C3%A9%29%20d%27algod%C3%B3n&Timestamp=\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d%2B00%3A00&UserID=integraciones%40tienda\.pe&Version=1\.0&Signature=[0-9a-f]{64}$/);
    expect(sent?.userAgent).toMatch(/^MOSTRADOR\/Node\/[\d.]+\/MOSTRADOR\/FAPE$/);
  });

  it('is refused by the fake with a wrong key, another user or an old Timestamp, and says why in Spanish', async () => {
    const failures = fake.account.stats.signatureFailures;
    await expect(client({ apiKey: 'otra-clave' }).getProducts(0, 1)).rejects.toMatchObject({ kind: 'auth', msg: expect.stringContaining('La API key no corresponde al usuario') });
    await expect(client({ userId: 'otro@tienda.pe' }).getProducts(0, 1)).rejects.toMatchObject({ kind: 'auth' });
    expect(fake.account.stats.signatureFailures).toBe(failures + 2);
    await expect(client({ now: () => Date.now() - 3_600_000 }).getProducts(0, 1)).rejects.toMatchObject({ kind: 'config', msg: expect.stringContaining('Timestamp vencido') });
    // a tampered request (a parameter changed after signing) is refused too
    const url = new URL(`${fake.url}/`);
    const params = { Action: 'GetProducts', Format: 'JSON', Limit: '5', Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'), UserID: USER, Version: '1.0' };
    for (const [k, v] of Object.entries({ ...params, Signature: signatureOf(params, KEY), Limit: '500' })) url.searchParams.set(k, v);
    const tampered = await fetch(url);
    expect(tampered.status).toBe(401);
    expect((await tampered.json()).ErrorResponse.Head.ErrorCode).toBe('7');
  });

  it('pages GetProducts by Offset and Limit, reads Seller Center JSON quirks, and refuses a bad Limit in Spanish', async () => {
    const adapter = createSellerCenterAdapter({ url: fake.url, userId: USER, apiKey: KEY, country: 'PE', pageSize: 100 });
    const offsets: number[] = [];
    let count = 0;
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      offsets.push(offset);
      const page = await adapter.listings(offset);
      count += page.items.length;
      offset = page.next;
    }
    expect(offsets).toEqual([0, 100, 200]);
    expect(count).toBe(240);
    const one = await adapter.listings(239);
    expect(one.items).toHaveLength(1);
    expect(one.items[0]).toMatchObject({ sku: 'MP120-2', parentSku: 'MP120', variation: 'M', price: 60, stock: 2, status: 'active' });
    expect((await adapter.listings(5000)).items).toEqual([]);
    await expect(client().getProducts(0, 99_999)).rejects.toMatchObject({ kind: 'invalid', msg: expect.stringContaining('página') });
  });

  it('retries 429 and 5xx with backoff, and says in Spanish what is wrong', async () => {
    fake.account.failNext(2, 503);
    const c = client();
    expect((await c.getProducts(0, 1)).products).toHaveLength(1);
    expect(c.stats.retries).toBe(2);
    fake.account.failNext(6, 429);
    await expect(client({ retries: 3 }).getProducts(0, 1)).rejects.toMatchObject({ kind: 'rate-limited', msg: expect.stringContaining('limitó las solicitudes') });
    fake.account.failNext(0);
    await expect(client({ url: 'http://127.0.0.1:9', retries: 2 }).getProducts(0, 1)).rejects.toMatchObject({ kind: 'network', msg: expect.stringContaining('No se pudo conectar con Seller Center') });
    await expect(client({ url: `${fake.url}/otra-cosa` }).getProducts(0, 1)).rejects.toMatchObject({ kind: 'not-marketplace', msg: expect.stringContaining('no responde como la API de Seller Center') });
    const e = await client().call('GetSomething').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MarketplaceError);
    expect((e as MarketplaceError).msg).toContain('no aceptó la solicitud');
  });

  it('sends prices and stock as ProductUpdate feeds followed with FeedStatus; per-SKU refusals; the feed limit', async () => {
    const limited = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'CL', feedBurst: 2, feedIntervalMs: 120_000, feedPolls: 2 });
    fillAccount(limited.account, 3, 1);
    limited.account.admin.refuse('MP2', "Field Price with value '5.00' has a problem: Price too low");
    const adapter = createSellerCenterAdapter({ url: limited.url, userId: USER, apiKey: KEY, country: 'CL', feedPollMs: 1, backoffMs: 1, maxBackoffMs: 5, retries: 2 });
    const results = await adapter.pushOffers([
      { sku: 'MP1', price: 15990, stock: 4 },
      { sku: 'MP2', price: 5 },
    ]);
    expect(results).toEqual([
      { sku: 'MP1', status: 'taken' },
      { sku: 'MP2', status: 'refused', reason: expect.stringContaining('Price too low') },
    ]);
    expect(limited.account.products.get('MP1')).toMatchObject({ Price: 15990, Quantity: 4 });
    // Falabella's business unit of the country carries the values
    const body = limited.log.filter((l) => l.action === 'FeedStatus');
    expect(body.length).toBe(3);
    await adapter.pushOffers([{ sku: 'MP3', stock: 1 }]);
    await expect(adapter.pushOffers([{ sku: 'MP3', stock: 2 }])).rejects.toMatchObject({ kind: 'rate-limited', msg: expect.stringContaining('50 seguidos y luego uno cada 2 minutos') });
    expect(limited.account.stats.feedLimited).toBeGreaterThan(0);
    await limited.close();
  });
});

describe('/marketplaces/fuentes', () => {
  it('keeps the API key sealed and never shows it; the connection test says in Spanish what is wrong', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/marketplace-sources', headers: chile });
    expect(list.body).not.toContain(KEY);
    expect(list.json().payload.find((s: Rec) => s._id === sourceId)).toMatchObject({ apiKeySet: true, apiUser: USER });
    const [row] = await t.sql<{ api_key: string }>('select api_key from marketplace_sources where id = $1', [sourceId]);
    expect(row.api_key).toMatch(/^v1\./);
    expect((await t.app.inject({ method: 'GET', url: `/api/marketplace-sources?fields=apiKey`, headers: chile })).statusCode).toBe(400);

    const ok = await t.app.inject({ method: 'POST', url: `/api/marketplace-sources/${sourceId}/test`, headers: chile });
    expect(ok.json()).toMatchObject({ ok: true, msg: expect.stringContaining('Conexión correcta con Falabella pruebas'), orders: 3 });

    const make = async (payload: Rec) => {
      const r = await t.app.inject({ method: 'POST', url: '/api/marketplace-sources', headers: chile, payload });
      expect(r.statusCode, r.body).toBe(201);
      return r.json()._id as string;
    };
    const test = async (id: string) => (await t.app.inject({ method: 'POST', url: `/api/marketplace-sources/${id}/test`, headers: chile })).json();
    const wrong = await make({ name: 'Clave mala', platform: 'falabella', country: 'PE', apiUser: USER, apiKey: 'no-es-la-clave', apiUrl: fake.url });
    expect(await test(wrong)).toMatchObject({ ok: false, msg: expect.stringContaining('La API key no corresponde al usuario integraciones@tienda.pe') });
    const noUser = await make({ name: 'Sin usuario', platform: 'linio', country: 'CL', apiKey: KEY, apiUrl: fake.url });
    expect(await test(noUser)).toMatchObject({ ok: false, msg: expect.stringContaining('Falta el usuario de la API') });
    const meli = await make({ name: 'Meli', platform: 'mercadolibre', country: 'CL' });
    expect(await test(meli)).toMatchObject({ ok: false, msg: expect.stringContaining('Mercado Libre aún no se conecta') });
    // no test reaches the internet: a real address is refused where the connection is made (the outbound client), a 400 on the URL
    const real = await make({ name: 'Real', platform: 'falabella', country: 'CO', apiUser: USER, apiKey: KEY });
    expect(await test(real)).toMatchObject({ errors: { msg: expect.stringContaining('solo se conecta con el sandbox'), details: [{ path: 'apiUrl' }] } });
    const meliSync = await t.app.inject({ method: 'POST', url: `/api/marketplace-sources/${meli}/sync`, headers: chile });
    expect(meliSync.statusCode).toBe(409);
    expect(meliSync.json().errors.msg).toContain('aún no se conecta');
    for (const id of [wrong, noUser, meli, real]) await t.app.inject({ method: 'DELETE', url: `/api/marketplace-sources/${id}`, headers: chile });
  });

  it('shows the demo its sandbox accounts, synced at seed time, with a working connection test', async () => {
    const sources = (await get('/api/marketplace-sources', peru)).payload as Rec[];
    const falabella = sources.find((s) => s.name === 'Falabella Perú') as Rec;
    const test = await t.app.inject({ method: 'POST', url: `/api/marketplace-sources/${falabella._id}/test`, headers: peru });
    expect(test.json()).toMatchObject({ ok: true, msg: expect.stringContaining('Falabella Perú (sandbox)') });
    const products = await get(`/api/marketplace-products?sourceId=${falabella._id}`, peru);
    expect(products.totalDocs).toBe(5);
    const orders = await get(`/api/marketplace-orders?sourceId=${falabella._id}`, peru);
    expect(orders.payload.map((o: Rec) => o.status).sort()).toEqual(['canceled', 'delivered', 'pending', 'ready_to_ship', 'returned', 'shipped']);
    expect((await get('/api/marketplace-orders?status=shipped', peru)).payload.map((o: Rec) => o.customerName)).toEqual(expect.arrayContaining(['Rosa Quispe', 'Diego Muñoz']));
    // the first sync of the demo changes nothing: the seed left everything linked
    const run = await syncSource(falabella._id as string, peru);
    expect(run).toMatchObject({ status: 'done', created: 0, updated: 0, failedItems: 0 });
  });
});

describe('marketplace sync', () => {
  it('reads the account page by page with live progress; a second sync of unchanged data writes nothing', async () => {
    const events: MarketplaceSyncRunOut[] = [];
    const stop = t.app.realtime.subscribe(admin.company('Demo Chile'), (e) => {
      if ((e as { type: string }).type === 'marketplace.sync') events.push((e as unknown as { run: MarketplaceSyncRunOut }).run);
    });
    const first = await syncSource();
    // the run's row is committed before its last event is published (on PostgreSQL the event
    // comes back through NOTIFY): the open screen hears «done» shortly after, never before
    await expect.poll(() => events.at(-1)?.status, { timeout: 5000, interval: 20 }).toBe('done');
    stop();
    expect(first).toMatchObject({ status: 'done', failedItems: 0, created: 120 + 240 + 3 });
    expect(first.done).toBe(first.total);
    expect(events.length).toBeGreaterThan(3);
    expect(events.some((e) => e.done > 0 && e.done < e.total)).toBe(true);

    const products = await get(`/api/marketplace-products?sourceId=${sourceId}&limit=1&filter=MP7`);
    const mp7 = products.payload.find((p: Rec) => p.parentSku === 'MP7');
    expect(mp7).toMatchObject({ name: 'Producto de marketplace 7', variations: 2, stock: 8 + 9, price: 27, country: 'PE', status: 'active', brand: 'Marca Norte' });
    const orders = await get(`/api/marketplace-orders?sourceId=${sourceId}&sort=createdAt&order=0`);
    expect(orders.payload.map((o: Rec) => o.customerName)).toEqual(['Rosa Quispe', 'Luis Paredes', 'María Fernández']);
    expect(orders.payload[1]).toMatchObject({ status: 'shipped', itemsCount: 2, currency: 'PEN' });
    // a customer e-mail the schema refuses is left out, the order is kept
    expect(orders.payload[0].customerEmail).toBeUndefined();

    const stamp = async () =>
      t.sql<{ n: string }>(
        `select (select max(updated_at)::text from marketplace_products where company_id = $1) || (select max(updated_at)::text from marketplace_variations where company_id = $1) || (select max(updated_at)::text from marketplace_orders where company_id = $1) || (select count(*)::text from marketplace_order_items where company_id = $1) || (select max(updated_at)::text from marketplace_links where company_id = $1) as n`,
        [admin.company('Demo Chile')],
      );
    const before = await stamp();
    const log = fake.log.length;
    const second = await syncSource();
    expect(second).toMatchObject({ status: 'done', created: 0, updated: 0, failedItems: 0 });
    expect(await stamp()).toEqual(before);
    const actions = fake.log.slice(log).map((l) => l.action);
    expect(actions.filter((a) => a === 'GetProducts')).toHaveLength(3);
    expect(actions).not.toContain('GetOrderItems');
    expect(actions).not.toContain('ProductUpdate');
  });

  it('takes a change made at the marketplace and a new order, and keeps a price changed here but not sent', async () => {
    const local = await variationOf('MP9-1');
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/marketplace-products/variations/${local._id}`, headers: chile, payload: { price: 77 } });
    expect(patch.json()).toMatchObject({ price: 77, syncStatus: 'pending' });
    const remote9 = fake.account.products.get('MP9-1');
    const remote5 = fake.account.products.get('MP5-1');
    if (!remote9 || !remote5) throw new Error('faltan SKUs');
    remote9.Quantity = 44;
    remote5.Price = 31.5;
    remote5.Quantity = 3;
    fake.account.admin.order({ firstName: 'Camila', lastName: 'Soto', items: [{ sku: 'MP5-1' }] });
    const run = await syncSource();
    expect(run).toMatchObject({ status: 'done', created: 1, failedItems: 0 });
    expect(await variationOf('MP5-1')).toMatchObject({ price: 31.5, stock: 3, syncStatus: 'synced' });
    // ours is kept (pending) until it is sent: the marketplace's stock of that SKU waits too
    expect(await variationOf('MP9-1')).toMatchObject({ price: 77, syncStatus: 'pending' });
    const mp5 = (await get(`/api/marketplace-products?filter=MP5&sourceId=${sourceId}`)).payload.find((p: Rec) => p.parentSku === 'MP5');
    expect(mp5.stock).toBe(3 + 7);
    expect((await get(`/api/marketplace-orders?filter=Camila&sourceId=${sourceId}`)).totalDocs).toBe(1);
  });

  it('resumes after a crash at the page it had reached, without reading finished pages again', async () => {
    const other = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'CL' });
    fillAccount(other.account, 130, 1);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/marketplace-sources',
      headers: chile,
      payload: { name: 'Linio Chile', platform: 'linio', country: 'CL', apiUser: USER, apiKey: KEY, apiUrl: other.url },
    });
    const id = created.json()._id as string;
    const [run] = await t.sql<{ id: string }>(`insert into marketplace_sync_runs (company_id, source_id) values ($1, $2) returning id`, [admin.company('Demo Chile'), id]);
    const { adapterFor } = await import('../src/modules/marketplace/sources.js');
    const crashing = createMarketplaceSync({
      db: t.database.db,
      secrets: t.app.secrets,
      adapter: (s) => {
        const a = adapterFor(s);
        const listings = a.listings.bind(a);
        return {
          ...a,
          stats: a.stats,
          listings: async (offset: number) => {
            if (offset === 100) throw new Error('proceso terminado');
            return listings(offset);
          },
        };
      },
    });
    await expect(crashing.run(run.id)).rejects.toThrow('proceso terminado');
    const [mid] = await t.sql<{ status: string; cursor: { phase: string; offset: number }; created: number }>('select status, cursor, created from marketplace_sync_runs where id = $1', [run.id]);
    expect(mid).toMatchObject({ status: 'running', cursor: { phase: 'products', offset: 100 }, created: 200 });
    const before = other.log.length;
    await createMarketplaceSync({ db: t.database.db, secrets: t.app.secrets }).run(run.id);
    const queries = other.log.slice(before).filter((l) => l.action === 'GetProducts').map((l) => l.query);
    expect(queries.some((q) => q.includes('Offset=0&'))).toBe(false);
    expect(queries.some((q) => q.includes('Offset=100&'))).toBe(true);
    const [end] = await t.sql<{ status: string; created: number }>('select status, created from marketplace_sync_runs where id = $1', [run.id]);
    expect(end).toMatchObject({ status: 'done', created: 260 });
    // a Linio account gets Price and Quantity on the product (the classic ProductUpdate)
    const mp3 = (await get(`/api/marketplace-products/variations?sourceId=${id}&filter=MP3&limit=50`)).payload.find((x: Rec) => x.sellerSku === 'MP3');
    await t.app.inject({ method: 'PATCH', url: `/api/marketplace-products/variations/${mp3._id}`, headers: chile, payload: { stock: 9, price: 19990 } });
    const sent = await t.app.inject({ method: 'POST', url: `/api/marketplace-products/variations/${mp3._id}/sync`, headers: chile });
    expect(sent.json()).toMatchObject({ status: 'synced' });
    expect(other.account.products.get('MP3')).toMatchObject({ Quantity: 9, Price: 19990 });
    const decimals = await t.app.inject({ method: 'PATCH', url: `/api/marketplace-products/variations/${mp3._id}`, headers: chile, payload: { price: 19990.5 } });
    expect(decimals.statusCode).toBe(400);
    expect(decimals.json().errors.msg).toBe('En CLP el precio no lleva decimales');
    await other.close();
    await t.app.inject({ method: 'DELETE', url: `/api/marketplace-sources/${id}`, headers: chile });
  });
});

describe('marketplace product calls (SPEC §7)', () => {
  it('lists variations (all, and of one product), refuses bad queries in Spanish', async () => {
    const all = await get(`/api/marketplace-products/variations?sourceId=${sourceId}&limit=5`);
    expect(all).toMatchObject({ totalDocs: 240, page: 1, limit: 5 });
    const product = (await get(`/api/marketplace-products?sourceId=${sourceId}&filter=MP11&limit=50`)).payload.find((p: Rec) => p.parentSku === 'MP11');
    const mine = await get(`/api/marketplace-products/${product._id}/variations`);
    expect(mine.payload.map((v: Rec) => v.sellerSku)).toEqual(['MP11-1', 'MP11-2']);
    const bad = await t.app.inject({ method: 'GET', url: '/api/marketplace-products/variations?sort=precio', headers: chile });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toContain('No se puede ordenar');
    const unknown = await t.app.inject({ method: 'GET', url: `/api/marketplace-products/${crypto.randomUUID()}/variations`, headers: chile });
    expect(unknown.statusCode).toBe(404);
  });

  it('PATCH saves price and stock here (pending); bad input is a Spanish 400 that writes nothing', async () => {
    const v = await variationOf('MP12-1');
    const url = `/api/marketplace-products/variations/${v._id}`;
    for (const [payload, msg] of [
      [{ price: -1 }, 'mayor que cero'],
      [{ price: 0 }, 'mayor que cero'],
      [{}, 'Indica el precio o el stock'],
      [{ stock: 1.5 }, 'entero'],
      [{ price: 'diez' }, 'número'],
      [{ price: 10.555 }, '2 decimales'],
      [{ stock: 3, sellerSku: 'OTRO' }, 'no permitido'],
      [{ price: 1e13 }, 'demasiado grande'],
    ] as const) {
      const res = await t.app.inject({ method: 'PATCH', url, headers: chile, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors.msg).toContain(msg);
    }
    expect(await variationOf('MP12-1')).toEqual(v);
    const ok = await t.app.inject({ method: 'PATCH', url, headers: chile, payload: { price: 99.5, stock: 40 } });
    expect(ok.json()).toMatchObject({ price: 99.5, stock: 40, syncStatus: 'pending' });
    expect(fake.account.products.get('MP12-1')).toMatchObject({ Price: 32 });
    // back to what the marketplace has: nothing pending
    const back = await t.app.inject({ method: 'PATCH', url, headers: chile, payload: { price: 32, stock: Number(fake.account.products.get('MP12-1')?.Quantity) } });
    expect(back.json().syncStatus).toBe('synced');
    const product = (await get(`/api/marketplace-products?filter=MP12&sourceId=${sourceId}`)).payload.find((p: Rec) => p.parentSku === 'MP12');
    expect(product.price).toBe(32);
  });

  it('POST /variations/{id}/sync sends one variation; unchanged sends nothing; a refusal keeps the reason', async () => {
    const v = await variationOf('MP14-2');
    const url = `/api/marketplace-products/variations/${v._id}`;
    await t.app.inject({ method: 'PATCH', url, headers: chile, payload: { price: 45.9, stock: 12 } });
    const feeds = fake.account.stats.feeds;
    const sent = await t.app.inject({ method: 'POST', url: `${url}/sync`, headers: chile });
    expect(sent.json()).toMatchObject({ status: 'synced', msg: 'Enviado a Falabella pruebas', variation: { syncStatus: 'synced', price: 45.9 } });
    expect(fake.account.products.get('MP14-2')).toMatchObject({ Price: 45.9, Quantity: 12 });
    expect(fake.account.stats.feeds).toBe(feeds + 1);
    const again = await t.app.inject({ method: 'POST', url: `${url}/sync`, headers: chile });
    expect(again.json()).toMatchObject({ status: 'unchanged' });
    expect(fake.account.stats.feeds).toBe(feeds + 1);
    // the next sync sees what it sent: nothing to write
    const run = await syncSource();
    expect(run).toMatchObject({ created: 0, failedItems: 0 });

    fake.account.admin.refuse('MP15-1', "Field Price with value '1.00' has a problem: Price is lower than allowed");
    const r = await variationOf('MP15-1');
    await t.app.inject({ method: 'PATCH', url: `/api/marketplace-products/variations/${r._id}`, headers: chile, payload: { price: 1 } });
    const refused = await t.app.inject({ method: 'POST', url: `/api/marketplace-products/variations/${r._id}/sync`, headers: chile });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'failed', msg: expect.stringContaining('rechazó el cambio: Field Price'), variation: { syncStatus: 'failed', syncMessage: expect.stringContaining('Price is lower') } });
    fake.account.admin.refuse('MP15-1', undefined);
  });

  it('crossover shows one product beside the same parent SKU in the other countries', async () => {
    const cross = await t.app.inject({ method: 'GET', url: '/api/marketplace-products/crossover/country/PE?filter=POLO-PIMA', headers: peru });
    expect(cross.statusCode).toBe(200);
    const row = cross.json().payload.find((r: Rec) => r.parentSku === 'POLO-PIMA');
    expect(row.product).toMatchObject({ country: 'PE', sourceName: 'Falabella Perú', variations: 4, price: 49.9 });
    expect(row.others).toEqual(expect.arrayContaining([expect.objectContaining({ country: 'CL', sourceName: 'Falabella Chile', variations: 2, price: 24990 })]));
    expect(row.differences).toEqual(expect.arrayContaining(['price', 'stock', 'variations']));
    const zap = (await get('/api/marketplace-products/crossover/country/PE?filter=ZAP-URB', peru)).payload[0];
    expect(zap).toMatchObject({ parentSku: 'ZAP-URB', missingIn: ['CL'], differences: ['cuentas'] });
    const different = await get('/api/marketplace-products/crossover/country/PE?onlyDifferent=true', peru);
    expect(different.payload.every((r: Rec) => (r.differences as string[]).length > 0)).toBe(true);
    for (const q of ['/country/XX', '/country/PE?limit=1000', '/country/PE?onlyDifferent=quizas']) {
      const bad = await t.app.inject({ method: 'GET', url: `/api/marketplace-products/crossover${q}`, headers: peru });
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().errors.msg).toMatch(/[a-zá-ú]/);
    }
  });
});

describe('marketplace orders (SPEC §7)', () => {
  const orderOf = async (name: string, headers = peru) => (await get(`/api/marketplace-orders?filter=${encodeURIComponent(name)}`, headers)).payload[0] as Rec;

  it('lists newest first by default (order 0), filters by status, reads one and its items', async () => {
    const list = await get('/api/marketplace-orders?order=0', peru);
    const dates = list.payload.map((o: Rec) => o.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(list.payload[0]).toMatchObject({ customerName: expect.any(String) });
    const byDefault = await get('/api/marketplace-orders', peru);
    expect(byDefault.payload.map((o: Rec) => o._id)).toEqual(list.payload.map((o: Rec) => o._id));
    const maria = await orderOf('María Fernández');
    expect(maria).toMatchObject({ status: 'pending', itemsCount: 2, currency: 'PEN', total: 238.8 });
    const items = await get(`/api/marketplace-orders/${maria._id}/items`, peru);
    expect(items.payload.map((i: Rec) => i.sellerSku)).toEqual(['POLO-PIMA-BLANCO-M', 'CHOMPA-ALP-GRIS-M']);
    expect(items.payload[0]).toMatchObject({ status: 'pending', currency: 'PEN', variationId: expect.any(String), packageId: expect.stringMatching(/^PKG/) });
    const one = await t.app.inject({ method: 'GET', url: `/api/marketplace-orders/${maria._id}`, headers: peru });
    expect(one.json()).toMatchObject({ orderNumber: '3150044101', city: 'Lima' });
  });

  it('streams documents by DocumentType; a label needs the order ready to ship, which this product can mark', async () => {
    const maria = await orderOf('María Fernández');
    const invoice = await t.app.inject({ method: 'GET', url: `/api/marketplace-orders/${maria._id}/documents?DocumentType=invoice`, headers: peru });
    expect(invoice.statusCode).toBe(200);
    expect(invoice.headers['content-type']).toBe('application/pdf');
    expect(invoice.headers['content-disposition']).toBe('attachment; filename="factura-3150044101.pdf"');
    expect(invoice.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const early = await t.app.inject({ method: 'GET', url: `/api/marketplace-orders/${maria._id}/documents?DocumentType=shippingLabel`, headers: peru });
    expect(early.statusCode).toBe(409);
    expect(early.json().errors.msg).toContain('Primero marca la orden como lista para enviar');
    for (const q of ['', '?DocumentType=factura', '?DocumentType=invoice&extra=1']) {
      const bad = await t.app.inject({ method: 'GET', url: `/api/marketplace-orders/${maria._id}/documents${q}`, headers: peru });
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().errors.msg).toMatch(/documento|requerido|permitido/);
    }
    const missing = await t.app.inject({ method: 'GET', url: `/api/marketplace-orders/${maria._id}/documents?DocumentType=serialNumber`, headers: peru });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors.msg).toContain('aún no tiene ese documento');

    const ready = await t.app.inject({ method: 'POST', url: `/api/marketplace-orders/${maria._id}/ready-to-ship`, headers: peru });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toMatchObject({ msg: 'Orden 3150044101 lista para enviar en Falabella Perú', order: { status: 'ready_to_ship' } });
    const label = await t.app.inject({ method: 'GET', url: `/api/marketplace-orders/${maria._id}/documents?DocumentType=shippingLabel`, headers: peru });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-disposition']).toContain('etiqueta-de-envio-3150044101.pdf');
    const twice = await t.app.inject({ method: 'POST', url: `/api/marketplace-orders/${maria._id}/ready-to-ship`, headers: peru });
    expect(twice.statusCode).toBe(409);
    expect((await get(`/api/marketplace-orders/${maria._id}/items`, peru)).payload.every((i: Rec) => i.status === 'ready_to_ship')).toBe(true);
  });
});

describe('tenant isolation', () => {
  it("another corporation can neither see nor use this company's accounts, runs, variations, orders or bulk updates", async () => {
    const other = as(acme);
    const v = await variationOf('MP20-1');
    const product = (await get(`/api/marketplace-products?sourceId=${sourceId}&limit=1`)).payload[0];
    const order = (await get(`/api/marketplace-orders?sourceId=${sourceId}&limit=1`)).payload[0];
    const [run] = await t.sql<{ id: string }>('select id from marketplace_sync_runs where source_id = $1 limit 1', [sourceId]);
    const preview = await t.app.inject({ method: 'POST', url: '/api/marketplace-products/bulk/preview', headers: chile, payload: { sourceId, rows: [{ sku: 'MP20-1', stock: 5 }] } });
    const bulkId = preview.json()._id;
    const calls: Array<[string, string, object?]> = [
      ['POST', `/api/marketplace-sources/${sourceId}/test`],
      ['POST', `/api/marketplace-sources/${sourceId}/sync`],
      ['GET', `/api/marketplace-sync-runs/${run.id}`],
      ['PATCH', `/api/marketplace-products/variations/${v._id}`, { stock: 1 }],
      ['POST', `/api/marketplace-products/variations/${v._id}/sync`],
      ['GET', `/api/marketplace-products/${product._id}/variations`],
      ['GET', `/api/marketplace-orders/${order._id}`],
      ['GET', `/api/marketplace-orders/${order._id}/items`],
      ['GET', `/api/marketplace-orders/${order._id}/documents?DocumentType=invoice`],
      ['POST', `/api/marketplace-orders/${order._id}/ready-to-ship`],
      ['POST', '/api/marketplace-products/bulk/preview', { sourceId, rows: [{ sku: 'MP20-1', stock: 5 }] }],
      ['POST', `/api/marketplace-products/bulk/${bulkId}/apply`],
      ['GET', `/api/marketplace-products/bulk/${bulkId}`],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: other, payload });
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(404);
    }
    expect((await get('/api/marketplace-sync-runs', other)).payload).toEqual([]);
    expect((await get(`/api/marketplace-products/variations?sourceId=${sourceId}`, other)).totalDocs).toBe(0);
    expect((await get('/api/marketplace-products/crossover/country/PE', other)).totalDocs).toBe(0);
    expect(await variationOf('MP20-1')).toEqual(v);
  });
});
