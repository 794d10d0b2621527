import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Order placement under concurrency (issue 12): many placements with one Idempotency-Key make
 * one order and take the stock once; many orders of the last units sell exactly those units.
 * Full counts on PostgreSQL (TEST_DATABASE_URL); PGlite serialises queries, so smaller ones there.
 */
let t: TestApp;
let admin: Signed;
let chile: string;
let catalogId = '';
let productId = '';
let scarceId = '';

const postgres = () => t.kind === 'postgres';
const place = (payload: object, key: string) =>
  t.app.inject({ method: 'POST', url: '/api/orders/place', headers: { 'idempotency-key': key }, payload, remoteAddress: '203.0.113.50' });
const stockOf = async (id: string) => Number((await t.sql<{ stock: number }>('select stock from products where id = $1', [id]))[0].stock);
const ordersOf = async (id: string) =>
  Number((await t.sql<{ n: number }>("select count(*)::int as n from orders, jsonb_array_elements(items) i where i->>'productId' = $1", [id]))[0].n);

beforeAll(async () => {
  // the rate limit is per client address: these tests place from one address on purpose
  t = await startTestApp({ ORDER_RATE_LIMIT: '100000' });
  admin = await login(t, demo.admin);
  chile = admin.company('Demo Chile');
  const make = async (path: string, body: object) => {
    const res = await t.app.inject({ method: 'POST', url: `/api${path}`, headers: as(admin, chile), payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  productId = await make('/products', { name: 'Café de Chanchamayo 500 g', sku: 'CAFE-500', price: 6500, stock: 100 });
  scarceId = await make('/products', { name: 'Edición limitada', sku: 'LIM-01', price: 19990, stock: 10 });
  catalogId = await make('/catalogs', { name: 'Catálogo concurrente', productIds: [productId, scarceId] });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const customer = (i: number) => ({ name: `Cliente ${i}`, telefono: `9${String(10_000_000 + i).slice(-8)}` });

describe('concurrent placements', () => {
  it('one Idempotency-Key placed many times at once: exactly one order, one stock decrement, one answer', async () => {
    const n = postgres() ? 1000 : 100;
    const payload = { catalog: catalogId, items: [{ productId, quantity: 3 }], customer: customer(1), shippment: { method: 'pickup' } };
    const answers = await Promise.all(Array.from({ length: n }, () => place(payload, 'una-sola-clave-de-prueba')));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(n - 1);
    const ids = new Set(answers.map((a) => a.json()._id));
    expect(ids.size).toBe(1);
    expect(await ordersOf(productId)).toBe(1);
    expect(await stockOf(productId)).toBe(97);
  }, 300_000);

  it('many customers order the last 10 units at once: exactly 10 succeed, the rest are told it sold out', async () => {
    const n = postgres() ? 200 : 50;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        place({ catalog: catalogId, items: [{ productId: scarceId, quantity: 1 }], customer: customer(100 + i), shippment: { method: 'pickup' } }, `ultima-unidad-${i}`),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 201);
    const sold = answers.filter((a) => a.statusCode === 409);
    expect(ok).toHaveLength(10);
    expect(sold).toHaveLength(n - 10);
    expect(sold[0].json().errors.msg).toMatch(/Edición limitada está agotado|Solo quedan/);
    expect(await stockOf(scarceId)).toBe(0);
    expect(await ordersOf(scarceId)).toBe(10);
  }, 300_000);
});
