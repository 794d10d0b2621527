import type { BulkRunOut } from '@mostrador/contract';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAmount, parseStock } from '../src/modules/marketplace/bulk.js';
import { marketplaceDefaults } from '../src/modules/marketplace/sources.js';
import { fillAccount, type FakeSellerCenterServer, startFakeSellerCenter } from './fakes/seller-center.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The bulk update of marketplace prices and stock (/marketplaces/lote, decision 0035): a preview
 * that says exactly what changes (old → new) and why a row is not valid, and an apply job that
 * sends only the changed rows and reports what the marketplace did with each one.
 */
let t: TestApp;
let admin: Signed;
let chile: Record<string, string>;
let pe: FakeSellerCenterServer;
let cl: FakeSellerCenterServer;
let peSource: string;
let clSource: string;
const USER = 'lote@tienda.pe';
const KEY = 'clave-del-lote';

type Rec = Record<string, unknown>;
const previewOf = (payload: object) => t.app.inject({ method: 'POST', url: '/api/marketplace-products/bulk/preview', headers: chile, payload });
const runsCount = async () => Number((await t.sql<{ n: number }>('select count(*)::int as n from marketplace_bulk_runs'))[0].n);

async function waitForBulk(id: string): Promise<BulkRunOut> {
  for (let i = 0; i < 600; i++) {
    const run = (await t.app.inject({ method: 'GET', url: `/api/marketplace-products/bulk/${id}`, headers: chile })).json() as BulkRunOut;
    if (run.status === 'done' || run.status === 'failed') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('el lote no terminó');
}

async function addSource(name: string, country: string, url: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/marketplace-sources', headers: chile, payload: { name, platform: 'falabella', country, apiUser: USER, apiKey: KEY, apiUrl: url } });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json()._id as string;
  const sync = await t.app.inject({ method: 'POST', url: `/api/marketplace-sources/${id}/sync`, headers: chile });
  for (let i = 0; i < 300; i++) {
    const run = (await t.app.inject({ method: 'GET', url: `/api/marketplace-sync-runs/${sync.json().run._id}`, headers: chile })).json();
    if (run.status === 'done') return id;
    if (run.status === 'failed') throw new Error(run.message);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('sync');
}

beforeAll(async () => {
  Object.assign(marketplaceDefaults, { backoffMs: 2, maxBackoffMs: 20, feedPollMs: 2, feedBatch: 50 });
  // the store's fake listens on 127.0.0.1: this suite is a self-hosted setup (decision 0060; test/outbound.test.ts runs with it off)
  t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' });
  admin = await login(t, demo.admin);
  chile = as(admin, admin.company('Demo Chile'));
  pe = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'PE', feedPolls: 1 });
  cl = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'CL' });
  fillAccount(pe.account, 60, 2);
  fillAccount(cl.account, 5, 1);
  const mp1 = pe.account.products.get('MP1-1');
  if (mp1) mp1.SalePrice = 15;
  peSource = await addSource('Falabella lote Perú', 'PE', pe.url);
  clSource = await addSource('Falabella lote Chile', 'CL', cl.url);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await pe?.close();
  await cl?.close();
});

describe('amounts as people type them', () => {
  it('reads prices and stock in the ways Perú, Chile and Colombia write them', () => {
    expect(parseAmount('59.90', 2)).toBe(59.9);
    expect(parseAmount('59,90', 2)).toBe(59.9);
    expect(parseAmount('S/ 1,234.50', 2)).toBe(1234.5);
    expect(parseAmount('1.234,50', 2)).toBe(1234.5);
    expect(parseAmount('$ 24.990', 0)).toBe(24990);
    expect(parseAmount('24,990', 0)).toBe(24990);
    expect(parseAmount('1.234.567', 0)).toBe(1234567);
    expect(parseAmount('24990 CLP', 0)).toBe(24990);
    expect(parseAmount('-5', 2)).toBe(-5);
    expect(parseAmount('diez', 2)).toBeNaN();
    expect(parseAmount('1.2.3', 2)).toBeNaN();
    expect(parseStock('1.000')).toBe(1000);
    expect(parseStock('12')).toBe(12);
    expect(parseStock('1,5')).toBeNaN();
  });
});

describe('bulk preview', () => {
  it('says exactly what changes (old → new) against the marketplace, and why each invalid row is not valid', async () => {
    const res = await previewOf({
      sourceId: peSource,
      rows: [
        { sku: 'MP2-1', price: '25,50', stock: '' },
        { sku: 'MP2-2', stock: 9 },
        { sku: 'MP3-1', price: 23, stock: 4 },
        { sku: 'NO-EXISTE', price: 10 },
        { sku: 'MP2-1', stock: 1 },
        { sku: 'MP4-1', price: 'diez' },
        { sku: 'MP4-2', stock: -3 },
        { sku: '', price: 10 },
        { sku: 'MP5-1' },
        { sku: 'MP5-2', price: 10.999 },
        { sku: 'MP6-1', price: 0, stock: 2.5 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json() as BulkRunOut;
    expect(run).toMatchObject({ status: 'preview', total: 11, changes: 2, unchanged: 1, invalid: 8, sourceName: 'Falabella lote Perú', currency: 'PEN' });
    const rows = Object.fromEntries((run.rows ?? []).map((r) => [r.row, r]));
    expect(rows[1]).toMatchObject({ sku: 'MP2-1', status: 'change', price: { old: 22, new: 25.5 }, name: 'Producto de marketplace 2' });
    expect(rows[1].stock).toBeUndefined();
    expect(rows[2]).toMatchObject({ status: 'change', stock: { old: 4, new: 9 } });
    expect(rows[2].price).toBeUndefined();
    expect(rows[3]).toMatchObject({ status: 'unchanged', reason: 'El marketplace ya tiene estos valores' });
    expect(rows[4]).toMatchObject({ status: 'invalid', reason: 'El SKU NO-EXISTE no existe en Falabella lote Perú' });
    expect(rows[5]).toMatchObject({ status: 'invalid', reason: 'SKU repetido: ya está en la fila 1' });
    expect(rows[6]).toMatchObject({ status: 'invalid', reason: 'El precio no es un número: «diez»' });
    expect(rows[7].reason).toContain('El stock debe ser un número entero de 0 o más');
    expect(rows[8].reason).toBe('Falta el SKU');
    expect(rows[9].reason).toBe('La fila no indica precio ni stock');
    expect(rows[10].reason).toContain('En PEN el precio lleva como máximo 2 decimales');
    expect(rows[11].reason).toBe('El precio debe ser mayor que cero; El stock debe ser un número entero de 0 o más: «2.5»');
    // a preview sends nothing
    expect(pe.account.stats.feeds).toBe(0);
  });

  it('reads a table pasted from a spreadsheet and a CSV file in the encodings spreadsheets write', async () => {
    const pasted = await previewOf({ sourceId: clSource, text: 'SKU\tPrecio\tStock\nMP1\t$ 24.990\t7\n\nMP2\t19.990,5\t\nMP3\t\t3\n' });
    expect(pasted.statusCode, pasted.body).toBe(200);
    const p = pasted.json() as BulkRunOut;
    expect(p.rows?.map((r) => [r.row, r.status, r.reason ?? ''])).toEqual([
      [2, 'change', ''],
      [4, 'invalid', 'En CLP el precio no lleva decimales: «19.990,5»'],
      [5, 'change', ''],
    ]);
    expect(p.rows?.[0]).toMatchObject({ price: { old: 21, new: 24990 }, stock: { old: 2, new: 7 } });

    // Excel's plain CSV on Windows in Spanish: Windows-1252 and ';'
    const csv = iconv.encode('Código;Precio;Existencias\r\nMP4;1.500;9\r\nMP5;;0\r\n', 'windows-1252');
    const upload = await t.app.inject({ method: 'POST', url: `/api/marketplace-products/bulk/csv?sourceId=${clSource}`, headers: { ...chile, 'content-type': 'text/csv' }, payload: csv });
    expect(upload.statusCode, upload.body).toBe(200);
    expect((upload.json() as BulkRunOut).rows?.map((r) => [r.sku, r.status, r.price?.new, r.stock?.new])).toEqual([
      ['MP4', 'change', 1500, 9],
      ['MP5', 'change', undefined, 0],
    ]);
  });

  it('refuses what is not a bulk update with a Spanish 400 and writes nothing', async () => {
    const before = await runsCount();
    const cases: Array<[object | Buffer, string, string?]> = [
      [{ sourceId: peSource, text: 'nombre\tprecio\nPolo\t10' }, 'sku'],
      [{ sourceId: peSource, text: 'sku\tnombre\nMP1-1\tPolo' }, 'precio o la columna stock'],
      [{ sourceId: peSource, text: '' }, 'vacía'],
      [{ sourceId: peSource, rows: [] }, 'No hay filas'],
      [{ sourceId: peSource }, 'una de las dos'],
      [{ sourceId: peSource, rows: [{ sku: 'MP1-1', price: 1 }], text: 'sku,precio' }, 'una de las dos'],
      [{ sourceId: peSource, rows: [{ sku: 'MP1-1', precio: 1 }] }, 'no permitido'],
      [{ sourceId: 'no-es-un-id', rows: [{ sku: 'MP1-1', price: 1 }] }, 'identificador'],
      [{ sourceId: peSource, rows: Array.from({ length: 10_001 }, (_, i) => ({ sku: `S${i}`, stock: 1 })) }, 'Como máximo 10000 filas'],
    ];
    for (const [payload, msg] of cases) {
      const res = await previewOf(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(res.json().errors.msg.toLowerCase()).toContain(msg.toLowerCase());
    }
    const csv = (body: Buffer | string, type = 'text/csv') =>
      t.app.inject({ method: 'POST', url: `/api/marketplace-products/bulk/csv?sourceId=${clSource}`, headers: { ...chile, 'content-type': type }, payload: body });
    const png = await csv(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    expect(png.statusCode).toBe(400);
    expect(png.json().errors.msg).toContain('El archivo no es un CSV de texto (parece una imagen PNG)');
    expect((await csv('')).statusCode).toBe(400);
    expect((await csv('sku;precio\n"MP1;10\n')).json().errors.msg).toContain('abre comillas');
    const json = await t.app.inject({ method: 'POST', url: `/api/marketplace-products/bulk/csv?sourceId=${clSource}`, headers: chile, payload: { sku: 'MP1' } });
    expect(json.statusCode).toBe(415);
    expect(json.json().errors.msg).toContain('Envía el archivo como CSV');
    expect((await t.app.inject({ method: 'POST', url: '/api/marketplace-products/bulk/csv', headers: { ...chile, 'content-type': 'text/csv' }, payload: 'sku,stock\nMP1,1' })).statusCode).toBe(400);
    expect(await runsCount()).toBe(before);
  });
});

describe('bulk apply', () => {
  it('sends only the changed rows as feeds, with live progress and a per-row report (sent, refused with the reason, invalid)', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ sku: `MP${i + 1}-1`, price: 20 + ((i + 1) % 80) + (i % 3 === 0 ? 1 : 0), stock: ((i + 2) % 30) }));
    rows.push({ sku: 'MP1-2', price: 5, stock: 1 }, { sku: 'FALTA', price: 1, stock: 1 });
    pe.account.admin.refuse('MP7-1', "Field Price with value '28.00' has a problem: Price is out of the allowed range");
    const res = await previewOf({ sourceId: peSource, rows });
    const preview = res.json() as BulkRunOut;
    // every third row changes its price; MP1-1 has an offer price of 15, so 22 stays above it
    expect(preview).toMatchObject({ total: 62, changes: 21, unchanged: 40, invalid: 1 });

    const events: BulkRunOut[] = [];
    const stop = t.app.realtime.subscribe(admin.company('Demo Chile'), (e) => {
      if ((e as { type: string }).type === 'marketplace.bulk') events.push((e as unknown as { run: BulkRunOut }).run);
    });
    const feedsBefore = pe.account.stats.feeds;
    const updatedBefore = pe.account.stats.skusUpdated;
    const apply = await t.app.inject({ method: 'POST', url: `/api/marketplace-products/bulk/${preview._id}/apply`, headers: chile });
    expect(apply.statusCode, apply.body).toBe(202);
    expect(apply.json()).toMatchObject({ msg: 'Envío de 21 cambios a Falabella lote Perú iniciado', run: { status: 'queued' } });
    const done = await waitForBulk(preview._id);
    // the last event follows the commit (through NOTIFY on PostgreSQL)
    await expect.poll(() => events.at(-1)?.status, { timeout: 5000, interval: 20 }).toBe('done');
    stop();
    expect(done).toMatchObject({ status: 'done', changes: 21, sent: 20, refused: 1, pending: 0 });
    expect(events.some((e) => e.status === 'running')).toBe(true);
    // only the 21 changed rows travelled, in one feed (≤ 50 SKUs per feed here), followed with FeedStatus
    expect(pe.account.stats.feeds - feedsBefore).toBe(1);
    expect(pe.account.stats.skusUpdated - updatedBefore).toBe(20);
    expect(done.updates).toBe(1);
    expect(done.requests).toBe(3);
    const report = done.rows ?? [];
    expect(report.find((r) => r.sku === 'MP7-1')).toMatchObject({ status: 'refused', reason: expect.stringContaining('Price is out of the allowed range') });
    expect(report.find((r) => r.sku === 'MP4-1')).toMatchObject({ status: 'sent', price: { old: 24, new: 25 } });
    expect(report.find((r) => r.sku === 'MP1-2')).toMatchObject({ status: 'sent', price: { old: 21, new: 5 }, stock: { old: 3, new: 1 } });
    expect(report.find((r) => r.sku === 'FALTA')).toMatchObject({ status: 'invalid' });
    expect(pe.account.products.get('MP4-1')?.Price).toBe(25);
    // the variations say the same
    const v = (await t.app.inject({ method: 'GET', url: `/api/marketplace-products/variations?sourceId=${peSource}&filter=MP7-1`, headers: chile })).json().payload[0];
    expect(v).toMatchObject({ syncStatus: 'failed', syncMessage: expect.stringContaining('Price is out of the allowed range') });
    const refused = (await t.app.inject({ method: 'GET', url: `/api/marketplace-products/bulk/${preview._id}?status=refused`, headers: chile })).json() as BulkRunOut;
    expect(refused.rows?.map((r) => r.sku)).toEqual(['MP7-1']);

    // applied once: a second apply is a 409; a preview that changes nothing is a 400
    const again = await t.app.inject({ method: 'POST', url: `/api/marketplace-products/bulk/${preview._id}/apply`, headers: chile });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.msg).toContain('ya se aplicó');
    const same = (await previewOf({ sourceId: peSource, rows: [{ sku: 'MP4-1', price: 25 }] })).json() as BulkRunOut;
    expect(same).toMatchObject({ changes: 0, unchanged: 1 });
    const nothing = await t.app.inject({ method: 'POST', url: `/api/marketplace-products/bulk/${same._id}/apply`, headers: chile });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().errors.msg).toContain('no cambia nada');
    // and the next sync of the account writes nothing: the links know what was sent
    const sync = await t.app.inject({ method: 'POST', url: `/api/marketplace-sources/${peSource}/sync`, headers: chile });
    let run: Rec = {};
    for (let i = 0; i < 300 && run.status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await t.app.inject({ method: 'GET', url: `/api/marketplace-sync-runs/${sync.json().run._id}`, headers: chile })).json();
    }
    expect(run).toMatchObject({ status: 'done', created: 0, updated: 0 });
    pe.account.admin.refuse('MP7-1', undefined);
  });

  it('meets the feed limit as the marketplace says it, and a retried job sends only what was not settled', async () => {
    // the fake's clock runs ahead when the test says so: "two minutes later"
    let skew = 0;
    const limited = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'PE', feedBurst: 1, feedIntervalMs: 120_000, now: () => Date.now() + skew });
    fillAccount(limited.account, 120, 1);
    const id = await addSource('Falabella limitada', 'PE', limited.url);
    const preview = (await previewOf({ sourceId: id, rows: Array.from({ length: 120 }, (_, i) => ({ sku: `MP${i + 1}`, stock: 99 })) })).json() as BulkRunOut;
    expect(preview.changes).toBe(120);
    const { createBulkEngine } = await import('../src/modules/marketplace/bulk.js');
    const engine = createBulkEngine({ db: t.database.db, secrets: t.app.secrets });
    const company = admin.company('Demo Chile');
    await engine.queue(company, preview._id);
    const report = async () => (await t.app.inject({ method: 'GET', url: `/api/marketplace-products/bulk/${preview._id}`, headers: chile })).json() as BulkRunOut;
    // feeds of 50: the first goes, the second meets the limit and the job stops, to be retried by the queue
    await expect(engine.run(preview._id, company)).rejects.toMatchObject({ kind: 'rate-limited' });
    expect(await report()).toMatchObject({ status: 'running', sent: 50, pending: 70, message: expect.stringContaining('uno cada 2 minutos') });
    skew = 121_000;
    await expect(engine.run(preview._id, company)).rejects.toMatchObject({ kind: 'rate-limited' });
    expect(await report()).toMatchObject({ status: 'running', sent: 100, pending: 20 });
    skew = 242_000;
    await engine.run(preview._id, company);
    expect(await report()).toMatchObject({ status: 'done', sent: 120, refused: 0, pending: 0 });
    // each row travelled once: three feeds of 50, 50 and 20 SKUs
    expect(limited.account.stats.feeds).toBe(3);
    expect(limited.account.stats.skusUpdated).toBe(120);
    expect([...limited.account.feeds.values()].map((f) => f.records.length)).toEqual([50, 50, 20]);
    await limited.close();
  });
});
