import type { GenialInvoiceOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGenialClient, type GenialDocumentIn, GenialError } from '../src/integrations/genial/client.js';
import { customerDocOf, nitValid, rucValid, rutValid } from '../src/integrations/genial/tax-ids.js';
import { MAX_PENDING_POLLS, sweepInvoices } from '../src/modules/genial/arrivals.js';
import { genialDefaults } from '../src/modules/genial/invoices.js';
import { fillAccount, startFakeSellerCenter } from './fakes/seller-center.js';
import { startFakeWoo, wooDelivery, wooWebhooks } from './fakes/woocommerce.js';
import { type FakeGenialServer, startFakeGenial } from './fakes/genial.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

const TOKEN = 'gnl_live_7f3a9c';
let t: TestApp;
let admin: Signed;
let peru: Record<string, string>;
let chile: Record<string, string>;
let fake: FakeGenialServer;

type Rec = Record<string, unknown>;
const inject = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers = peru, payload?: unknown) => t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as Rec } : {}) });

const doc = (over: Partial<GenialDocumentIn> = {}): GenialDocumentIn => ({
  country: 'PE',
  issuer: { taxId: '20601234565', name: 'Demo Perú S.A.C.' },
  documentType: 'boleta',
  series: 'B001',
  currency: 'PEN',
  issueDate: '2026-11-25',
  customer: { docType: 'DNI', docId: '45871236', name: 'María Fernández' },
  items: [{ sku: 'IK-1500', description: 'Inca Kola 1.5 L', quantity: 2, unitPrice: 6.3559, taxRate: 0.18, taxAmount: 2.29, total: 15 }],
  totals: { taxable: 12.71, tax: 2.29, total: 15 },
  reference: { kind: 'ecommerce', orderNumber: 'WC-1' },
  ...over,
});

async function invoicesOf(kind: 'marketplace' | 'ecommerce', headers = peru): Promise<GenialInvoiceOut[]> {
  const path = kind === 'marketplace' ? 'marketplace-orders' : 'ecommerces-orders';
  const orders = (await inject('GET', `/api/${path}?limit=100`, headers)).json().payload as Rec[];
  const ids = orders.map((o) => String(o._id));
  const res = await inject('GET', `/api/genial/invoices/${kind}?orderIds=${ids.join(',')}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  const found = new Map((res.json().payload as GenialInvoiceOut[]).map((i) => [i.orderId, i]));
  return ids.map((id) => found.get(id) ?? ({ kind, orderId: id, status: 'none', attempts: 0 } as GenialInvoiceOut));
}

async function waitSettled(path: string, id: string, headers = peru): Promise<GenialInvoiceOut> {
  for (let i = 0; i < 300; i++) {
    const inv = (await inject('GET', `/api/${path}/${id}/invoice`, headers)).json() as GenialInvoiceOut;
    // «none» until the order's event reached Genial's listener (spine/listeners.ts)
    if (inv.status !== 'pending' && inv.status !== 'none') return inv;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('la factura no salió de pendiente');
}

beforeAll(async () => {
  Object.assign(genialDefaults, { backoffMs: 2, maxBackoffMs: 20 });
  // the store's fake listens on 127.0.0.1: this suite is a self-hosted setup (decision 0060; test/outbound.test.ts runs with it off)
  t = await startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' });
  admin = await login(t, demo.admin);
  peru = as(admin, admin.company('Demo Perú'));
  chile = as(admin, admin.company('Demo Chile'));
  fake = await startFakeGenial(TOKEN);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('tax ids', () => {
  it('checks RUC, RUT and NIT check digits and picks factura or boleta', () => {
    expect(rucValid('20100070970')).toBe(true);
    expect(rucValid('20100070972')).toBe(false);
    expect(rutValid('760864285')).toBe(true);
    expect(rutValid('760864283')).toBe(false);
    expect(nitValid('9001234568')).toBe(true);
    expect(customerDocOf('PE', '20100070970')).toMatchObject({ docType: 'RUC', business: true });
    expect(customerDocOf('PE', '45871236')).toMatchObject({ docType: 'DNI', business: false });
    expect(customerDocOf('PE', '')).toMatchObject({ docType: '-', business: false });
    expect(customerDocOf('CL', '76.086.428-5')).toMatchObject({ docType: 'RUT', docId: '76086428-5', business: true });
    expect(customerDocOf('PE', '20100070972')).toEqual({ error: expect.stringContaining('no es válido (dígito verificador)') });
  });
});

describe('Genial client against the fake', () => {
  const client = (token = TOKEN) => createGenialClient({ url: fake.url, token, backoffMs: 1, maxBackoffMs: 5 });

  it('issues with Bearer and Idempotency-Key; the same key answers the first document again', async () => {
    const first = await client().issue(doc(), 'ecommerce:test-1');
    expect(first).toMatchObject({ status: 'accepted', series: 'B001' });
    expect(first.pdfUrl).toMatch(/\.pdf$/);
    const again = await client().issue(doc(), 'ecommerce:test-1');
    expect(again.id).toBe(first.id);
    expect(again.number).toBe(first.number);
    const last = fake.log.at(-1);
    expect(last).toMatchObject({ replayed: true, key: 'ecommerce:test-1', auth: `Bearer ${TOKEN}` });
    expect([...fake.account.documents.values()].filter((d) => d.key === 'ecommerce:test-1')).toHaveLength(1);
  });

  it('a wrong token is a Spanish reason, not retried', async () => {
    const before = fake.log.length;
    await expect(client('otro').issue(doc(), 'k-401')).rejects.toMatchObject({ kind: 'auth', msg: expect.stringContaining('Genial rechazó el token') });
    expect(fake.log.length - before).toBe(1);
  });

  it('missing fields and a bad customer tax id are refused with their reasons', async () => {
    await expect(client().issue({ ...doc(), series: '' }, 'k-422')).rejects.toMatchObject({ kind: 'rejected', msg: expect.stringContaining('Falta el campo series') });
    const bad = doc({ documentType: 'factura', series: 'F001', customer: { docType: 'RUC', docId: '20100070972', name: 'Gloria' } });
    const error = await client().issue(bad, 'k-ruc').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenialError);
    expect((error as GenialError).msg).toContain('El RUC 20100070972 no es válido');
  });

  it('a 429 waits its Retry-After and a 5xx is retried', async () => {
    fake.account.admin.throttle(1, '0.01');
    const before = fake.log.length;
    expect((await client().issue(doc(), 'k-429')).status).toBe('accepted');
    expect(fake.log.slice(before).map((l) => l.status)).toEqual([429, 201]);
    fake.account.admin.fail(1);
    expect((await client().issue(doc(), 'k-503')).status).toBe('accepted');
    fake.account.admin.fail(5);
    await expect(client().issue(doc(), 'k-503b')).rejects.toMatchObject({ kind: 'server', msg: expect.stringContaining('Genial no respondió') });
    fake.account.admin.fail(0);
  });
});

describe('settings', () => {
  it('lists the demo sandbox settings without the token and saves a country keeping the token sealed', async () => {
    const list = (await inject('GET', '/api/genial/settings')).json().payload as Rec[];
    expect(list.map((s) => s.country)).toEqual(['CL', 'PE']);
    expect(list[1]).toMatchObject({ tokenSet: true, sandbox: true, seriesFactura: 'F001' });
    expect(JSON.stringify(list)).not.toContain('sandbox-genial-pe');
    const saved = await inject('PUT', '/api/genial/settings/PE', peru, { apiUrl: fake.url, token: TOKEN, issuerTaxId: '20601234565', issuerName: 'Demo Perú S.A.C.', seriesFactura: 'F001', seriesBoleta: 'B001' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ tokenSet: true, sandbox: false });
    expect(saved.body).not.toContain(TOKEN);
    const [row] = await t.sql<{ token: string }>(`select token from genial_settings where country = 'PE' and company_id = $1`, [admin.company('Demo Perú')]);
    expect(row.token.startsWith('v1.')).toBe(true);
    // the token is kept when left out
    const again = await inject('PUT', '/api/genial/settings/PE', peru, { apiUrl: fake.url, issuerTaxId: '20601234565', issuerName: 'Demo Perú S.A.C.', seriesFactura: 'F001', seriesBoleta: 'B001' });
    expect(again.statusCode, again.body).toBe(200);
    const noToken = await inject('PUT', '/api/genial/settings/CO', peru, { apiUrl: fake.url, issuerTaxId: '900123456-8', issuerName: 'Demo', seriesFactura: 'SETP', seriesBoleta: 'SETT' });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().errors.msg).toContain('token');
  });
});

describe('genial-retry', () => {
  it('the demo has invoices in every state', async () => {
    for (const kind of ['marketplace', 'ecommerce'] as const) {
      const states = new Set((await invoicesOf(kind)).map((i) => i.status));
      expect([...states].sort(), kind).toEqual(['failed', 'issued', 'none', 'pending']);
    }
    const failed = (await invoicesOf('marketplace')).find((i) => i.status === 'failed');
    expect(failed?.error).toMatch(/no es válido \(dígito verificador\)/);
    const issued = (await invoicesOf('marketplace')).find((i) => i.status === 'issued');
    expect(issued).toMatchObject({ series: expect.any(String), number: expect.any(String), pdfUrl: expect.any(String) });
  });

  it('an issued invoice is 409; its PDF is served', async () => {
    const issued = (await invoicesOf('marketplace')).find((i) => i.status === 'issued') as GenialInvoiceOut;
    const res = await inject('POST', `/api/marketplace-orders/${issued.orderId}/genial-retry`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toContain('ya tiene su factura emitida');
    const pdf = await inject('GET', `/api/marketplace-orders/${issued.orderId}/invoice/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.body.startsWith('%PDF-1.4')).toBe(true);
  });

  it('a failed marketplace invoice is retried as a job: the same reason until corrected, then issued once', async () => {
    const failed = (await invoicesOf('marketplace')).find((i) => i.status === 'failed') as GenialInvoiceOut;
    const first = await inject('POST', `/api/marketplace-orders/${failed.orderId}/genial-retry`);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().invoice.status).toBe('pending');
    const still = await waitSettled('marketplace-orders', failed.orderId);
    expect(still).toMatchObject({ status: 'failed', attempts: failed.attempts + 1, error: expect.stringContaining('RUC') });
    const before = fake.log.length;
    const fixed = await inject('POST', `/api/marketplace-orders/${failed.orderId}/genial-retry`, peru, { customerTaxId: '20100070970' });
    expect(fixed.statusCode, fixed.body).toBe(202);
    const done = await waitSettled('marketplace-orders', failed.orderId);
    expect(done).toMatchObject({ status: 'issued', documentType: 'factura', series: 'F001', customerTaxId: '20100070970' });
    const sent = fake.log.slice(before).filter((l) => l.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ status: 201, key: `marketplace:${failed.orderId}`, auth: `Bearer ${TOKEN}` });
    expect(sent[0].body).toMatchObject({ documentType: 'factura', customer: { docType: 'RUC', docId: '20100070970' }, currency: 'PEN' });
    const again = await inject('POST', `/api/marketplace-orders/${failed.orderId}/genial-retry`);
    expect(again.statusCode).toBe(409);
  });

  it('a never-issued e-commerce order is issued (boleta), and a failed one retried', async () => {
    const all = await invoicesOf('ecommerce');
    const peruOrders = (await inject('GET', '/api/ecommerces-orders?limit=100')).json().payload as Rec[];
    const countryOf = new Map(peruOrders.map((o) => [String(o._id), String(o.country)]));
    const none = all.find((i) => i.status === 'none') as GenialInvoiceOut;
    const res = await inject('POST', `/api/ecommerces-orders/${none.orderId}/genial-retry`);
    expect(res.statusCode, res.body).toBe(202);
    expect(await waitSettled('ecommerces-orders', none.orderId)).toMatchObject({ status: 'issued', documentType: 'boleta', series: countryOf.get(none.orderId) === 'CL' ? 'BE01' : 'B001', attempts: 1 });
    // the demo's failed one is Chilean: its sandbox issues it once the RUT is a valid one (a person's: boleta)
    const failed = all.find((i) => i.status === 'failed') as GenialInvoiceOut;
    const retried = await inject('POST', `/api/ecommerces-orders/${failed.orderId}/genial-retry`, peru, { customerTaxId: countryOf.get(failed.orderId) === 'CL' ? '12.345.678-5' : '45871236' });
    expect(retried.statusCode, retried.body).toBe(202);
    expect(await waitSettled('ecommerces-orders', failed.orderId)).toMatchObject({ status: 'issued', documentType: 'boleta' });
    const bad = await inject('POST', `/api/ecommerces-orders/${failed.orderId}/genial-retry`, peru, { customerTaxId: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toContain('Escribe solo números');
  });

  it("another company's order is 404; a bad id is 400 in Spanish", async () => {
    const order = (await invoicesOf('marketplace'))[0];
    for (const [path, id] of [
      ['marketplace-orders', order.orderId],
      ['ecommerces-orders', (await invoicesOf('ecommerce'))[0].orderId],
    ]) {
      const res = await inject('POST', `/api/${path}/${id}/genial-retry`, chile);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().errors.msg).toBe('La orden no existe');
      expect((await inject('GET', `/api/${path}/${id}/invoice`, chile)).statusCode).toBe(404);
      const bad = await inject('POST', `/api/${path}/no-es-un-id/genial-retry`);
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toMatch(/[áéíóúñ]|id|válid/i);
    }
    // another company's ids in the batch read are left out
    const res = await inject('GET', `/api/genial/invoices/marketplace?orderIds=${order.orderId}`, chile);
    expect(res.json().payload).toEqual([]);
  });

  it('no settings for the order\'s country: 400 in Spanish', async () => {
    const created = await inject('POST', '/api/ecommerces-orders', chile, {
      number: 'WC-GEN-1',
      status: 'created',
      customerName: 'Camila Soto',
      total: 12990,
      currency: 'CLP',
      country: 'CL',
      woocommerceId: 991,
      items: [{ sku: 'ALF-12', name: 'Alfajores', quantity: 1, price: 12990 }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await inject('POST', `/api/ecommerces-orders/${created.json()._id}/genial-retry`, chile);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toContain('Configura Genial para Chile en /genial');
  });
});

describe('connection test', () => {
  const test = (country: string, headers = peru) => inject('POST', `/api/genial/settings/${country}/test`, headers);

  it('says what is right or what to fix: token, address, issuer; the sandbox says it is one', async () => {
    // PE points at the fake since the settings test; CL is the demo's sandbox
    const ok = await test('PE');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, msg: expect.stringContaining('Conexión correcta con Genial para Perú: emisor 20601234565') });
    const sandbox = (await test('CL')).json();
    expect(sandbox).toMatchObject({ ok: true, msg: expect.stringContaining('(sandbox') });

    const other = await startFakeGenial('gnl_otro', { taxId: '20100070970', name: 'Otra Empresa S.A.' });
    const settings = { apiUrl: other.url, issuerTaxId: '900123456-8', issuerName: 'Demo Colombia S.A.S.', seriesFactura: 'SETP', seriesBoleta: 'SETT' };
    try {
      expect((await inject('PUT', '/api/genial/settings/CO', peru, { ...settings, token: 'gnl_equivocado' })).statusCode).toBe(200);
      expect((await test('CO')).json()).toMatchObject({ ok: false, problem: 'token', msg: expect.stringContaining('Genial rechazó el token') });
      expect((await inject('PUT', '/api/genial/settings/CO', peru, { ...settings, token: 'gnl_otro' })).statusCode).toBe(200);
      expect((await test('CO')).json()).toMatchObject({ ok: false, problem: 'issuer', msg: 'El token es de Otra Empresa S.A. (20100070970), no del emisor 900123456-8: revisa el RUC / RUT / NIT del emisor o el token' });
      expect((await inject('PUT', '/api/genial/settings/CO', peru, { ...settings, apiUrl: 'http://127.0.0.1:1' })).statusCode).toBe(200);
      expect((await test('CO')).json()).toMatchObject({ ok: false, problem: 'url', msg: expect.stringContaining('No se pudo conectar con Genial en http://127.0.0.1:1') });
    } finally {
      await other.close();
      expect((await inject('DELETE', '/api/genial/settings/CO')).statusCode).toBe(200);
    }
    // none saved: 404 in Spanish; another company's settings are not tried
    const none = await test('CO');
    expect(none.statusCode).toBe(404);
    expect(none.json().errors.msg).toContain('No hay configuración de Genial para Colombia');
    expect((await test('PE', chile)).statusCode).toBe(404);
  });
});

describe('orders arriving from a marketplace or a store', () => {
  const USER = 'ventas@demo.pe';
  const KEY = 'clave-seller-center';
  const WEBHOOK_SECRET = 'secreto-genial';

  async function syncSource(id: string) {
    const res = await inject('POST', `/api/marketplace-sources/${id}/sync`);
    expect(res.statusCode, res.body).toBe(202);
    const runId = res.json().run._id as string;
    for (let i = 0; i < 300; i++) {
      const run = (await inject('GET', `/api/marketplace-sync-runs/${runId}`)).json() as Rec;
      if (run.status === 'done' || run.status === 'failed') return run;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('la sincronización no terminó');
  }

  it('a synced marketplace order is invoiced once, with the document the marketplace gives; a cancelled one is not', async () => {
    const sc = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'PE' });
    try {
      fillAccount(sc.account, 3, 1);
      const skus = [...sc.account.products.keys()];
      sc.account.admin.order({ firstName: 'Grupo', lastName: 'Andino', taxId: '20601234565', items: [{ sku: skus[0] }] });
      sc.account.admin.order({ firstName: 'María', lastName: 'Fernández', taxId: '45871236', items: [{ sku: skus[1] }, { sku: skus[2] }] });
      sc.account.admin.order({ firstName: 'Tomás', lastName: 'Reyes', taxId: '45871236', items: [{ sku: skus[1], status: 'canceled' }] });
      const created = await inject('POST', '/api/marketplace-sources', peru, { name: 'Falabella Genial', platform: 'falabella', country: 'PE', apiUser: USER, apiKey: KEY, apiUrl: sc.url });
      expect(created.statusCode, created.body).toBe(201);
      const before = fake.log.filter((l) => l.method === 'POST').length;
      const startedAt = new Date();
      expect(await syncSource(created.json()._id)).toMatchObject({ status: 'done', failedItems: 0 });

      const orders = (await inject('GET', `/api/marketplace-orders?sourceId=${created.json()._id}&limit=50`)).json().payload as Rec[];
      const byName = new Map(orders.map((o) => [String(o.customerName), String(o._id)]));
      const factura = await waitSettled('marketplace-orders', byName.get('Grupo Andino') as string);
      expect(factura).toMatchObject({ status: 'issued', documentType: 'factura', series: 'F001', customerTaxId: '20601234565' });
      expect(await waitSettled('marketplace-orders', byName.get('María Fernández') as string)).toMatchObject({ status: 'issued', documentType: 'boleta', series: 'B001', customerTaxId: '45871236' });
      expect((await inject('GET', `/api/marketplace-orders/${byName.get('Tomás Reyes')}/invoice`)).json()).toMatchObject({ status: 'none' });
      // one document per order (the demo's own pending invoices of the company are sent by the same sweep)
      const keysSent = fake.log.filter((l) => l.method === 'POST').slice(before).map((p) => p.key);
      for (const name of ['Grupo Andino', 'María Fernández']) expect(keysSent.filter((k) => k === `marketplace:${byName.get(name)}`), name).toHaveLength(1);
      expect(keysSent).not.toContain(`marketplace:${byName.get('Tomás Reyes')}`);
      // (only this source's orders are counted: the minute sweep may send other pending invoices of the demo meanwhile)
      const ours = new Set([...byName.values()].map((id) => `marketplace:${id}`));
      const oursSent = () => fake.log.filter((l) => l.method === 'POST' && ours.has(String(l.key))).length;
      const sentSoFar = oursSent();

      // the next sync (nothing changed at the marketplace) invoices nothing again
      expect(await syncSource(created.json()._id)).toMatchObject({ status: 'done' });
      expect(oursSent()).toBe(sentSoFar);
      // the invoicing follows the orders' events: handed to Genial's listener again (a redelivery), they issue nothing twice
      expect(await t.app.spine.replay('genial.invoices', startedAt)).toBe(3);
      await new Promise((r) => setTimeout(r, 300));
      expect(oursSent()).toBe(sentSoFar);
      expect(await waitSettled('marketplace-orders', byName.get('Grupo Andino') as string)).toMatchObject({ status: 'issued', number: factura.number });
    } finally {
      await sc.close();
    }
  });

  it('a company that does not use Genial gets no invoices from its orders', async () => {
    const sc = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'CL' });
    try {
      fillAccount(sc.account, 1, 1);
      sc.account.admin.order({ firstName: 'Camila', lastName: 'Soto', taxId: '16.512.357-3', items: [{ sku: [...sc.account.products.keys()][0] }] });
      const created = await inject('POST', '/api/marketplace-sources', chile, { name: 'Falabella sin Genial', platform: 'falabella', country: 'CL', apiUser: USER, apiKey: KEY, apiUrl: sc.url });
      expect(created.statusCode, created.body).toBe(201);
      const res = await inject('POST', `/api/marketplace-sources/${created.json()._id}/sync`, chile);
      const runId = res.json().run._id as string;
      for (let i = 0; i < 300; i++) {
        const run = (await inject('GET', `/api/marketplace-sync-runs/${runId}`, chile)).json() as Rec;
        if (run.status === 'done') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await inject('GET', `/api/marketplace-orders?sourceId=${created.json()._id}`, chile)).json().totalDocs).toBe(1);
      const [{ n }] = await t.sql<{ n: number }>(`select count(*)::int as n from genial_invoices where company_id = $1`, [admin.company('Demo Chile')]);
      expect(n).toBe(0);
    } finally {
      await sc.close();
    }
  });

  it('a paid WooCommerce order by webhook: failed with what to configure, then issued with the NIT of its checkout', async () => {
    // the store's keys: the queue asks the store for the webhook's topic (decision 0061)
    const woo = await startFakeWoo({ consumerKey: 'ck_co123', consumerSecret: 'cs_co456' });
    try {
      // the demo's Colombian store, pointed at a local fake store
      const stores = (await inject('GET', '/api/woocommerces?limit=50')).json().payload as Rec[];
      const storeId = String(stores.find((s) => s.country === 'CO')?._id);
      const store = await inject('PUT', `/api/woocommerces/${storeId}`, peru, { name: 'Colombia online', url: woo.url, country: 'CO', consumerKey: 'ck_co123', consumerSecret: 'cs_co456', webhookSecret: WEBHOOK_SECRET });
      expect(store.statusCode, store.body).toBe(200);
      const hook = wooWebhooks(woo.store, storeId, WEBHOOK_SECRET, ['order.updated']);
      const order = (id: number, status: string, meta: Array<{ key: string; value: string }> = []) =>
        wooDelivery(
          'order.updated',
          { id, number: String(id), status, currency: 'COP', total: '119000', billing: { first_name: 'Andrés', last_name: 'Gómez', email: 'andres@correo.co' }, meta_data: meta, line_items: [{ name: 'Chaqueta', product_id: 0, variation_id: 0, quantity: 1, sku: 'CHQ-1', price: 119000 }] },
          WEBHOOK_SECRET,
          hook['order.updated'],
        );
      const deliver = async (d: ReturnType<typeof wooDelivery>) => {
        const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/woocommerce/${storeId}`, headers: d.headers, payload: d.body });
        expect(res.statusCode, res.body).toBe(200);
        for (let i = 0; i < 200; i++) {
          const [e] = await t.sql<{ status: string }>(`select status from woocommerce_webhook_events where delivery_id = $1`, [d.headers['x-wc-webhook-delivery-id']]);
          if (e?.status !== 'pending') return;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const orderId = async (wcId: number) =>
        String(((await inject('GET', `/api/ecommerces-orders?filter=CO-${wcId}`)).json().payload as Rec[]).find((o) => o.woocommerceId === wcId)?._id);

      // no Genial for Colombia yet: the paid order's invoice fails saying so; an unpaid one has none
      await deliver(order(5001, 'processing', [{ key: '_billing_nit', value: '900.123.456-8' }]));
      await deliver(order(5002, 'pending'));
      // the invoice follows the order's event (store_order.arrived, the spine's genial.invoices listener)
      const invoiceOf = async (wcId: number) => (await inject('GET', `/api/ecommerces-orders/${await orderId(wcId)}/invoice`)).json();
      await expect.poll(async () => (await invoiceOf(5001)).status).not.toBe('none');
      const first = await invoiceOf(5001);
      expect(first).toMatchObject({ status: 'failed', customerTaxId: '900.123.456-8', error: expect.stringContaining('Configura Genial para Colombia en /genial') });
      expect((await inject('GET', `/api/ecommerces-orders/${await orderId(5002)}/invoice`)).json()).toMatchObject({ status: 'none' });

      // with settings, the next paid order is issued by itself; the failed one waits for «Reintentar», which keeps its NIT
      const saved = await inject('PUT', '/api/genial/settings/CO', peru, { apiUrl: fake.url, token: TOKEN, issuerTaxId: '900123456-8', issuerName: 'Demo Colombia S.A.S.', seriesFactura: 'SETP', seriesBoleta: 'SETT' });
      expect(saved.statusCode, saved.body).toBe(200);
      await deliver(order(5003, 'completed', [{ key: 'billing_cc', value: '1020304050' }]));
      expect(await waitSettled('ecommerces-orders', await orderId(5003))).toMatchObject({ status: 'issued', documentType: 'boleta', series: 'SETT', customerTaxId: '1020304050' });
      const retry = await inject('POST', `/api/ecommerces-orders/${await orderId(5001)}/genial-retry`);
      expect(retry.statusCode, retry.body).toBe(202);
      expect(await waitSettled('ecommerces-orders', await orderId(5001))).toMatchObject({ status: 'issued', documentType: 'factura', series: 'SETP' });
      // the unpaid one is invoiced when it is paid
      await deliver(order(5002, 'processing'));
      expect(await waitSettled('ecommerces-orders', await orderId(5002))).toMatchObject({ status: 'issued', documentType: 'boleta' });
    } finally {
      await woo.close();
      await inject('DELETE', '/api/genial/settings/CO');
    }
  });
});

describe('the sweep', () => {
  it('asks Genial again while it answers «pending», and gives up with a reason after too many answers', async () => {
    const newOrder = async (n: number) => {
      const res = await inject('POST', '/api/ecommerces-orders', peru, {
        number: `WC-SWEEP-${n}`,
        status: 'processing',
        customerName: 'Rosa Quispe',
        total: 45,
        currency: 'PEN',
        country: 'PE',
        woocommerceId: 880 + n,
        items: [{ sku: 'IK-1500', name: 'Inca Kola 1.5 L', quantity: 6, price: 7.5 }],
      });
      expect(res.statusCode, res.body).toBe(201);
      return { orderId: String(res.json()._id) };
    };
    const target = await newOrder(1);
    fake.account.admin.pending(1);
    expect((await inject('POST', `/api/ecommerces-orders/${target.orderId}/genial-retry`)).statusCode).toBe(202);
    // Genial's «pending» is kept: the invoice stays pending with one attempt
    for (let i = 0; i < 100; i++) {
      const [row] = await t.sql<{ attempts: number }>(`select attempts from genial_invoices where order_id = $1`, [target.orderId]);
      if (row?.attempts === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const held = (await inject('GET', `/api/ecommerces-orders/${target.orderId}/invoice`)).json();
    expect(held).toMatchObject({ status: 'pending', attempts: 1 });
    // not yet stale: the sweep leaves it; once stale, it asks again with the same key and the document is issued
    expect(await sweepInvoices(t.app.database.db, t.app.jobs, { companyId: admin.company('Demo Perú') })).toBe(0);
    await t.sql(`update genial_invoices set updated_at = now() - interval '3 minutes' where order_id = $1`, [target.orderId]);
    expect(await sweepInvoices(t.app.database.db, t.app.jobs, { companyId: admin.company('Demo Perú') })).toBeGreaterThanOrEqual(1);
    expect(await waitSettled('ecommerces-orders', target.orderId)).toMatchObject({ status: 'issued', attempts: 2 });
    const keys = fake.log.filter((l) => l.method === 'POST' && l.key === `ecommerce:${target.orderId}`);
    expect(keys.map((k) => k.status)).toEqual([202, 201]);

    // an invoice Genial kept pending too many times is left failed for a person
    const other = await newOrder(2);
    await t.sql(
      `insert into genial_invoices (company_id, order_kind, order_id, status, attempts, updated_at) values ($1, 'ecommerce', $2, 'pending', $3, now() - interval '3 minutes')`,
      [admin.company('Demo Perú'), other.orderId, MAX_PENDING_POLLS],
    );
    await sweepInvoices(t.app.database.db, t.app.jobs, { companyId: admin.company('Demo Perú') });
    expect((await inject('GET', `/api/ecommerces-orders/${other.orderId}/invoice`)).json()).toMatchObject({
      status: 'failed',
      error: `Genial sigue sin confirmar la factura después de ${MAX_PENDING_POLLS} consultas: revisa su estado en Genial y pulsa «Reintentar»`,
    });
  });
});

describe('the company’s own orders (issue 30)', () => {
  it('an order paid is invoiced once by itself, with the customer’s document; one never paid is not', async () => {
    const peruId = admin.company('Demo Perú');
    const insert = async (code: string, document?: string) =>
      (
        await t.sql<{ id: string }>(
          `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency)
           values ($1, $2, 'created', 'chat', 'Rosa Quispe', '51987654321', $3::jsonb, $4::jsonb, 45, 45, 'PEN') returning id`,
          [
            peruId,
            code,
            JSON.stringify({ name: 'Rosa Quispe', telefono: '51987654321', ...(document ? { document } : {}) }),
            JSON.stringify([{ sku: 'PP-M', name: 'Polo pima', size: 'M', quantity: 1, unitPrice: 45, total: 45 }]),
          ],
        )
      )[0].id;
    const paid = await insert('P-GEN001', '45871236');
    const unpaid = await insert('P-GEN002');
    const moved = await inject('POST', `/api/orders/${paid}/status`, peru, { status: 'paid' });
    expect(moved.statusCode, moved.body).toBe(200);
    const invoice = await waitSettled('orders', paid);
    expect(invoice).toMatchObject({ kind: 'order', status: 'issued', documentType: 'boleta', customerTaxId: '45871236', attempts: 1 });
    // a second «paid» (a replay of the event) changes nothing; the order that was never paid has none
    await t.app.spine.drain();
    expect((await inject('GET', `/api/orders/${paid}/invoice`)).json()).toMatchObject({ status: 'issued', number: invoice.number });
    expect((await inject('GET', `/api/orders/${unpaid}/invoice`)).json()).toMatchObject({ status: 'none' });
    // another company's order is not found
    expect((await inject('GET', `/api/orders/${paid}/invoice`, chile)).statusCode).toBe(404);
  });
});
