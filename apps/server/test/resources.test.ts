import { type Resource, resourceList } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let agent: Signed;
/** The suite works in Demo Chile, which starts empty; Demo Perú holds the seeded examples. */
let home: string;
let peru: string;
beforeAll(async () => {
  t = await startTestApp();
  [admin, agent] = await Promise.all([login(t, demo.admin), login(t, demo.agent)]);
  home = admin.company('Demo Chile');
  peru = admin.company('Demo Perú');
});
afterAll(async () => {
  await t?.close();
});

const call = (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, company?: string) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company ?? (s === admin ? home : undefined)), payload });

/** The wire form of an example after the schema's normalisation (trim, upper-case, …). */
const normalised = (r: Resource, example: object) => r.input.parse(example) as Record<string, unknown>;

describe.each(resourceList.map((r) => [r.key, r] as const))('standard resource %s', (key, r) => {
  const [first, second, third] = r.examples as Array<Record<string, unknown>>;
  const total = async (company?: string) => (await call(admin, 'GET', `/${key}`, undefined, company)).json().totalDocs as number;

  it('shows the demo tenant its Spanish examples', async () => {
    const seeded = (await call(admin, 'GET', `/${key}`, undefined, peru)).json();
    expect(seeded.totalDocs).toBe(r.examples.length);
    expect(await total()).toBe(0);
  });

  it('creates, reads, updates, lists and deletes within the company', async () => {
    const created = await call(admin, 'POST', `/${key}`, first);
    expect(created.statusCode).toBe(201);
    const record = created.json();
    expect(record).toMatchObject(normalised(r, first));
    expect(record._id).toMatch(/^[0-9a-f-]{36}$/);

    if (r.operations.includes('get')) {
      expect((await call(admin, 'GET', `/${key}/${record._id}`)).json()).toEqual(record);
    }
    const updated = await call(admin, 'PUT', `/${key}/${record._id}`, second);
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject(normalised(r, second));

    const list = (await call(admin, 'GET', `/${key}`)).json();
    expect(list).toMatchObject({ totalDocs: 1, totalPages: 1, page: 1, limit: 20 });
    expect(list.payload[0]._id).toBe(record._id);

    const del = await call(admin, 'DELETE', `/${key}/${record._id}`);
    expect(del.statusCode).toBe(200);
    expect(await total()).toBe(0);
    expect((await call(admin, 'DELETE', `/${key}/${record._id}`)).statusCode).toBe(404);
  });

  it('pages, sorts, searches and trims fields', async () => {
    for (const example of r.examples) expect((await call(admin, 'POST', `/${key}`, example)).statusCode).toBe(201);
    const n = r.examples.length;
    const page = (await call(admin, 'GET', `/${key}?limit=2&page=2`)).json();
    expect(page).toMatchObject({ totalDocs: n, totalPages: Math.ceil(n / 2), page: 2 });
    expect(page.payload).toHaveLength(Math.min(2, n - 2));

    const field = r.defaultSort.field;
    const values = (order: string) =>
      call(admin, 'GET', `/${key}?sort=${field}&order=${order}&limit=50`).then((res) => res.json().payload.map((p: Record<string, string>) => p[field]));
    const asc = await values('asc');
    // the examples are chosen so that every collation orders them alike
    expect(asc).toEqual([...asc].sort((a, b) => (String(a).toLowerCase() < String(b).toLowerCase() ? -1 : 1)));
    expect(asc).toHaveLength(n);
    expect(await values('desc')).toEqual([...asc].reverse());

    const searchField = r.searchable[0];
    const needle = String(normalised(r, third)[searchField]).slice(0, 6);
    const found = (await call(admin, 'GET', `/${key}?filter=${encodeURIComponent(needle)}`)).json();
    expect(found.totalDocs).toBeGreaterThanOrEqual(1);
    expect(found.payload.every((p: Record<string, unknown>) => r.searchable.some((f) => String(p[f] ?? '').toLowerCase().includes(needle.toLowerCase())))).toBe(true);
    const none = (await call(admin, 'GET', `/${key}?filter=zzzz-no-existe`)).json();
    expect(none).toMatchObject({ totalDocs: 0, payload: [] });

    const trimmed = (await call(admin, 'GET', `/${key}?fields=${searchField}`)).json().payload[0];
    expect(Object.keys(trimmed).sort()).toEqual(['_id', searchField].sort());
  });

  it('refuses bad queries and bad input with Spanish 400s and writes nothing', async () => {
    const before = await total();
    const badSort = await call(admin, 'GET', `/${key}?sort=password`);
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().errors.msg).toBe('No se puede ordenar por «password»');
    const badField = await call(admin, 'GET', `/${key}?fields=secreto`);
    expect(badField.statusCode).toBe(400);
    expect(badField.json().errors.msg).toBe('Campo desconocido: secreto');

    const empty = await call(admin, 'POST', `/${key}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.details).toContainEqual(expect.objectContaining({ msg: 'Este campo es requerido' }));
    if (r.unique.length) {
      const dup = await call(admin, 'POST', `/${key}`, first);
      expect(dup.statusCode).toBe(409);
    }
    expect(await total()).toBe(before);
  });

  it('keeps every company to itself', async () => {
    const [own] = (await call(admin, 'GET', `/${key}?limit=1`)).json().payload;
    const seeded = await total(peru);
    // the same user, in another of their companies: the record does not exist there
    expect((await call(admin, 'PUT', `/${key}/${own._id}`, second, peru)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/${key}/${own._id}`, undefined, peru)).statusCode).toBe(404);
    if (r.operations.includes('get')) expect((await call(admin, 'GET', `/${key}/${own._id}`, undefined, peru)).statusCode).toBe(404);
    // a company field in a body cannot move a record, nor plant one elsewhere
    for (const field of ['company', 'companyId', 'company_id']) {
      expect((await call(admin, 'PUT', `/${key}/${own._id}`, { [field]: peru })).statusCode).toBe(400);
      expect((await call(admin, 'POST', `/${key}`, { ...third, [field]: peru })).statusCode).toBe(400);
    }
    expect(await total(peru)).toBe(seeded);
    const after = (await call(admin, 'GET', `/${key}?limit=50`)).json().payload.find((p: { _id: string }) => p._id === own._id);
    expect(after).toEqual(own);
  });

  it('follows the role permissions of its module', async () => {
    const list = await call(agent, 'GET', `/${key}`);
    expect(list.statusCode).toBe(200);
    const create = await call(agent, 'POST', `/${key}`, first);
    expect(create.statusCode).toBe(401);
    expect(create.json().errors.code).toBe('FORBIDDEN');
  });
});
