import { resources } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeJson } from '../src/lib/third-party-text.js';
import { findInputProblem, MAX_DEPTH, mendInput } from '../src/plugins/input-guard.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let acme: Signed;
beforeAll(async () => {
  t = await startTestApp();
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
});
afterAll(async () => {
  await t?.close();
});

const call = (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: `/api${url}`, headers: { ...as(s), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

const brandCount = async () => Number((await t.sql<{ n: string }>('select count(*) as n from brands'))[0].n);

describe('a NUL character (\\u0000, %00) is refused with a Spanish 400 naming the field, on every kind of input', () => {
  it('in a search, a sort key or a filter of a list', async () => {
    for (const url of ['/brands?filter=a%00b', '/brands?sort=na%00me', '/leads?status=sin%00asignar', '/chats/get_chats?filter=%00']) {
      const res = await call(admin, 'GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors.msg, url).toMatch(/^El campo «(filter|sort|status)» contiene un carácter nulo/);
    }
  });

  it('in a body field, a nested value or a key, and nothing is written', async () => {
    const before = await brandCount();
    const flat = await call(admin, 'POST', '/brands', { name: 'Gloria\u0000', description: 'x' });
    expect(flat.statusCode).toBe(400);
    expect(flat.json().errors).toMatchObject({ code: 'VALIDATION', details: [{ path: 'name' }] });
    expect(flat.json().errors.msg).toBe('El campo «name» contiene un carácter nulo (\\u0000), que no se admite');

    const nested = await call(admin, 'POST', '/ecommerces-orders', {
      ...resources['ecommerces-orders'].examples[0],
      number: 'NUL-1',
      items: [{ sku: 'A-1', name: 'Línea\u0000', quantity: 1, price: 1 }],
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().errors.details[0].path).toBe('items.0.name');

    const key = await call(admin, 'PUT', `/brands/${crypto.randomUUID()}`, { 'na\u0000me': 'x' });
    expect(key.statusCode).toBe(400);
    expect(key.json().errors.msg).toContain('contiene un carácter nulo');
    expect(await brandCount()).toBe(before);
  });

  it('a path with broken percent-encoding answers the Spanish error shape', async () => {
    const res = await call(admin, 'DELETE', '/vendors/%ED%A0%80%ED%A0%80');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: { code: 'BAD_REQUEST', msg: 'La dirección de la solicitud no es válida' } });
  });

  it('in the path and in a header, before the session is even looked up', async () => {
    const path = await call(admin, 'GET', `/brands/${'0'.repeat(8)}%00`);
    expect(path.statusCode).toBe(400);
    const header = await call(admin, 'GET', '/brands', undefined, { 'accept-language': 'es\u0000' });
    expect(header.statusCode).toBe(400);
    expect(header.json().errors.msg).toBe('El encabezado «accept-language» contiene un carácter nulo (\\u0000), que no se admite');
    // the public login too (its e-mail lookup used to reach PostgreSQL with the NUL)
    const loginNul = await t.app.inject({ method: 'POST', url: '/api/login', payload: { ...demo.admin, email: 'admin@demo.com\u0000' } });
    expect(loginNul.statusCode).toBe(400);
  });
});

describe('shapes no form sends', () => {
  it('JSON nested deeper than the limit is a Spanish 400, even 100,000 levels deep', async () => {
    for (const depth of [MAX_DEPTH + 1, 100_000]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/brands',
        headers: { ...as(admin), 'content-type': 'application/json' },
        payload: `{"name":"x","description":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      });
      expect(res.statusCode, String(depth)).toBe(400);
      expect(res.json().errors.msg).toMatch(/anidado demasiado|no es válido/);
    }
  });

  it('an integer beyond what the column holds is a 400, not a database error', async () => {
    const res = await call(admin, 'POST', '/products', { name: 'Arroz', sku: 'ARROZ-BIG', price: 5, stock: 2 ** 31 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.details).toContainEqual({ path: 'stock', msg: 'Este número es demasiado grande' });
    const price = await call(admin, 'POST', '/products', { name: 'Arroz', sku: 'ARROZ-BIG', price: 1e300, stock: 1 });
    expect(price.statusCode).toBe(400);
    const page = await call(admin, 'GET', '/brands?page=1e400');
    expect(page.statusCode).toBe(400);
  });
});

describe('a lone UTF-16 surrogate (half a character) is mended to U+FFFD, never a 500', () => {
  it('in a jsonb value nested in an array, in a text field and in a search; emoji kept', async () => {
    // jsonb refused the \ud800 that JSON.stringify writes for it (the contract fuzz, seed 2929)
    const attribute = await call(admin, 'POST', '/ecommerces-attributes', {
      ...resources['ecommerces-attributes'].examples[0],
      nombre: 'Talla \udc00',
      terms: [
        { _id: '1', name: '\ud800' },
        { _id: '2', name: 'XL 😀' },
      ],
    });
    expect(attribute.statusCode, attribute.body).toBe(201);
    const id = attribute.json()._id;
    const [row] = await t.sql<{ nombre: string; terms: Array<{ name: string }> }>('select nombre, terms from ecommerces_attributes where id = $1', [id]);
    expect(row.nombre).toBe('Talla \uFFFD');
    expect(row.terms.map((term) => term.name)).toEqual(['\uFFFD', 'XL 😀']);

    const update = await call(admin, 'PUT', `/ecommerces-attributes/${id}`, { terms: [{ _id: '1', name: 'S \ud83d' }] });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json().terms).toEqual([{ _id: '1', name: 'S \uFFFD' }]);

    const search = await call(admin, 'GET', `/ecommerces-attributes?filter=${encodeURIComponent('Talla \uFFFD')}`);
    expect(search.json().payload.map((a: { _id: string }) => a._id)).toContain(id);
  });

  it('in keys and values at any depth, in place', () => {
    const body = { 'k\udc00': [{ a: 'x\ud800y' }, '😀', 3], ok: 'sin cambios' };
    expect(mendInput(body)).toEqual({ 'k\uFFFD': [{ a: 'x\uFFFDy' }, '😀', 3], ok: 'sin cambios' });
    expect(mendInput('\ud800')).toBe('\uFFFD');
    expect(mendInput(null)).toBeNull();
  });
});

describe('references nested in a body are checked for the caller’s company', () => {
  const order = (ecommerceId: string, number: string) => ({
    ...resources['ecommerces-orders'].examples[0],
    number,
    items: [
      { sku: 'IK-1500', name: 'Inca Kola 1.5 L', quantity: 1, price: 7.5 },
      { ecommerceId, sku: 'X-1', name: 'Otro', quantity: 1, price: 1 },
    ],
  });

  it("an order line pointing at another company's product or at no product is refused, and nothing is written", async () => {
    const foreignProduct = await call(acme, 'POST', '/ecommerces', { ...resources.ecommerces.examples[0], sku: 'ACME-ONLY-1' });
    expect(foreignProduct.statusCode).toBe(201);
    const foreign = foreignProduct.json()._id as string;
    const before = await t.sql<{ n: string }>('select count(*) as n from ecommerces_orders');
    for (const id of [foreign, crypto.randomUUID()]) {
      const res = await call(admin, 'POST', '/ecommerces-orders', order(id, `REF-${id.slice(0, 6)}`));
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.details).toEqual([{ path: 'items[].ecommerceId', msg: 'No existe en esta compañía' }]);
    }
    expect(await t.sql('select count(*) as n from ecommerces_orders')).toEqual(before);

    const own = (await call(admin, 'GET', '/ecommerces?limit=1')).json().payload[0]._id as string;
    const ok = await call(admin, 'POST', '/ecommerces-orders', order(own, 'REF-OWN'));
    expect(ok.statusCode).toBe(201);
    const updated = await call(admin, 'PUT', `/ecommerces-orders/${ok.json()._id}`, { items: order(foreign, 'x').items });
    expect(updated.statusCode).toBe(400);
  });

  it("a segment's label filter accepts only the company's labels", async () => {
    const foreignLabel = (await call(acme, 'POST', '/mostrador-labels', { name: 'Solo de Acme', color: '#112233' })).json()._id as string;
    expect(foreignLabel).toBeTruthy();
    const res = await call(admin, 'POST', '/marketing-segments', { name: 'Segmento ajeno', filters: { mostradorLabelIds: [foreignLabel] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.details).toEqual([{ path: 'filters.mostradorLabelIds', msg: 'No existe en esta compañía' }]);
    const own = (await call(admin, 'GET', '/mostrador-labels?limit=1')).json().payload[0]._id as string;
    expect((await call(admin, 'POST', '/marketing-segments', { name: 'Segmento propio', filters: { mostradorLabelIds: [own] } })).statusCode).toBe(201);
  });
});

describe('the helpers', () => {
  it('find the first NUL or over-deep value with its path', () => {
    expect(findInputProblem({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual({ path: 'a.1.c', kind: 'nul' });
    expect(findInputProblem({ a: 'ok', n: 1, z: null })).toBeNull();
    let deep: unknown = 'x';
    for (let i = 0; i < MAX_DEPTH + 1; i++) deep = [deep];
    expect(findInputProblem(deep)?.kind).toBe('depth');
  });

  it('clean third-party text: NULs removed, lone surrogates replaced, emoji kept', () => {
    expect(sanitizeJson({ 'k\u0000': ['a\u0000b', 'x\uD800y', '😀'], n: 3 })).toEqual({ k: ['ab', 'x\uFFFDy', '😀'], n: 3 });
  });
});
