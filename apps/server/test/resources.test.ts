import { defaultPermissions, fieldKind, isNestedRef, type Resource, resourceList, tableNameOf } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { resourceTables } from '../src/db/resource-tables.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let agent: Signed;
/** The suite works in Demo Chile, which starts empty; Demo Perú holds the seeded demo data. */
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

type Rec = Record<string, unknown>;
const call = (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, company?: string) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company ?? (s === admin ? home : undefined)), payload });

/** The wire form of an example after the schema's normalisation (trim, upper-case, …). */
const normalised = (r: Resource, example: object) => r.stored.parse(example) as Rec;

/** What the API returns for an example: secrets replaced by their `<field>Set` flag. */
function expectedWire(r: Resource, example: object): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(normalised(r, example))) {
    if (r.writeOnly.includes(k)) out[`${k}Set`] = true;
    else out[k] = v;
  }
  return out;
}

/** The spec's delete body of a record: the declared fields, with the record's values. */
const deleteBodyOf = (r: Resource, example: object) =>
  r.deleteBody ? Object.fromEntries(Object.keys(r.deleteBody.shape).map((k) => [k, normalised(r, example)[k]])) : undefined;

/**
 * An example with the references a create must name (`requiredRefs`, a Telegram routine's group)
 * filled with a record of that company: one it has, else one made from the target's first example.
 */
async function filled(r: Resource, example: object, company = home): Promise<Rec> {
  const out: Rec = { ...(example as Rec) };
  for (const field of Object.keys(r.requiredRefs ?? {})) {
    if (out[field] !== undefined) continue;
    const target = resourceList.find((x) => x.key === r.refs[field][0]) as Resource;
    const [had] = (await call(admin, 'GET', `/${target.path}?limit=1`, undefined, company)).json().payload as Rec[];
    out[field] = had?._id ?? (await make(target, target.examples[0], company))._id;
  }
  return out;
}

/** Makes a record the way the product would: POST where the API creates, else as a sync job stores it. */
async function make(r: Resource, example: object, company = home): Promise<Rec> {
  if (r.operations.includes('create')) {
    const res = await call(admin, 'POST', `/${r.path}`, await filled(r, example, company), company);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  const [row] = await t.database.db
    .insert(resourceTables[r.key])
    .values({ ...normalised(r, example), companyId: company } as never)
    .returning();
  return { _id: (row as Rec).id };
}

const agentMay = (r: Resource, action: string) => defaultPermissions().some((p) => p.role === 'agent' && p.module === r.module && p.action === action);

describe.each(resourceList.map((r) => [r.key, r] as const))('standard resource %s', (_key, r) => {
  const [first, second, third] = r.examples as Rec[];
  const url = `/${r.path}`;
  const ops = new Set(r.operations);
  const total = async (company?: string) => (await call(admin, 'GET', url, undefined, company)).json().totalDocs as number;
  const remove = (id: string, example: object, company?: string) => call(admin, 'DELETE', `${url}/${id}`, deleteBodyOf(r, example), company);

  it('shows the demo tenant its Spanish records', async () => {
    const seeded = (await call(admin, 'GET', url, undefined, peru)).json();
    expect(seeded.totalDocs).toBeGreaterThanOrEqual(r.examples.length);
    expect(await total()).toBe(0);
  });

  it('creates, reads, updates, lists and deletes within the company', async () => {
    const record = await make(r, first);
    expect(record._id).toMatch(/^[0-9a-f-]{36}$/);
    if (ops.has('create')) {
      expect(record).toMatchObject(expectedWire(r, first));
      for (const secret of r.writeOnly) expect(record).not.toHaveProperty(secret);
    }
    const id = record._id as string;
    if (ops.has('get')) {
      const got = (await call(admin, 'GET', `${url}/${id}`)).json();
      expect(got).toMatchObject({ _id: id, ...expectedWire(r, first) });
    }
    if (ops.has('update')) {
      const updated = await call(admin, 'PUT', `${url}/${id}`, second);
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject(expectedWire(r, second));
    }
    const list = (await call(admin, 'GET', url)).json();
    expect(list).toMatchObject({ totalDocs: 1, totalPages: 1, page: 1, limit: 20 });
    expect(list.payload[0]._id).toBe(id);
    for (const secret of r.writeOnly) expect(list.payload[0]).not.toHaveProperty(secret);

    const current = ops.has('update') ? second : first;
    if (r.deleteBody) {
      // a delete body that does not match the record deletes nothing
      const bodiless = await call(admin, 'DELETE', `${url}/${id}`);
      expect(bodiless.statusCode).toBe(400);
      expect(bodiless.json().errors.msg).toBe('Falta el cuerpo de la solicitud');
      const stored = normalised(r, current);
      const wrong = Object.fromEntries(
        Object.keys(r.deleteBody.shape).map((k) => {
          const v = stored[k];
          return [k, k === 'country' ? (v === 'ES' ? 'PE' : 'ES') : typeof v === 'number' ? v + 1 : crypto.randomUUID()];
        }),
      );
      const mismatch = await call(admin, 'DELETE', `${url}/${id}`, wrong);
      expect(mismatch.statusCode).toBe(400);
      expect(await total()).toBe(1);
    }
    if (ops.has('delete')) {
      const del = await remove(id, current);
      expect(del.statusCode, del.body).toBe(200);
    } else {
      // a list that only its sync writes (marketplace products, orders): no delete route
      await t.sql(`delete from "${tableNameOf(r.key)}" where id = $1`, [id]);
    }
    expect(await total()).toBe(0);
    expect((await remove(id, current)).statusCode).toBe(404);
  });

  it('pages, sorts, searches and trims fields', async () => {
    for (const example of r.examples) await make(r, example);
    const n = r.examples.length;
    const page = (await call(admin, 'GET', `${url}?limit=2&page=2`)).json();
    expect(page).toMatchObject({ totalDocs: n, totalPages: Math.ceil(n / 2), page: 2 });
    expect(page.payload).toHaveLength(Math.min(2, n - 2));

    const field = r.defaultSort.field;
    const values = (order: string) =>
      call(admin, 'GET', `${url}?sort=${field}&order=${order}&limit=50`).then((res) => res.json().payload.map((p: Rec) => p[field]));
    const asc = await values('asc');
    // the examples are chosen so that every collation orders them alike
    const cmp = (a: unknown, b: unknown) =>
      typeof a === 'number' && typeof b === 'number' ? a - b : String(a).toLowerCase() < String(b).toLowerCase() ? -1 : String(a) === String(b) ? 0 : 1;
    expect(asc).toEqual([...asc].sort(cmp));
    expect(asc).toHaveLength(n);
    expect(await values('desc')).toEqual([...asc].reverse());

    const searchField = r.searchable[0];
    const needle = String(normalised(r, third)[searchField]).slice(0, 6);
    const found = (await call(admin, 'GET', `${url}?filter=${encodeURIComponent(needle)}`)).json();
    expect(found.totalDocs).toBeGreaterThanOrEqual(1);
    expect(found.payload.every((p: Rec) => r.searchable.some((f) => String(p[f] ?? '').toLowerCase().includes(needle.toLowerCase())))).toBe(true);
    const none = (await call(admin, 'GET', `${url}?filter=zzzz-no-existe`)).json();
    expect(none).toMatchObject({ totalDocs: 0, payload: [] });

    const trimmed = (await call(admin, 'GET', `${url}?fields=${searchField}`)).json().payload[0];
    expect(Object.keys(trimmed).sort()).toEqual(['_id', searchField].sort());
  });

  it('refuses bad queries and bad input with Spanish 400s and writes nothing', async () => {
    const before = await total();
    const badSort = await call(admin, 'GET', `${url}?sort=password`);
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().errors.msg).toBe('No se puede ordenar por «password»');
    const badField = await call(admin, 'GET', `${url}?fields=secreto`);
    expect(badField.statusCode).toBe(400);
    expect(badField.json().errors.msg).toBe('Campo desconocido: secreto');
    for (const secret of r.writeOnly) expect((await call(admin, 'GET', `${url}?fields=${secret}`)).statusCode).toBe(400);
    // the list query is strict: a misspelt filter is refused, never a silently wider list
    const unknownParam = await call(admin, 'GET', `${url}?estado=abierto`);
    expect(unknownParam.statusCode).toBe(400);
    expect(unknownParam.json().errors.details).toContainEqual({ path: '', msg: 'Campo no permitido: estado' });

    if (ops.has('create')) {
      const empty = await call(admin, 'POST', url, {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors.details).toContainEqual(expect.objectContaining({ msg: 'Este campo es requerido' }));
      // a repeat of the example's unique values (an optional unique field it leaves out cannot repeat)
      if (r.unique.some((u) => first[u] !== undefined)) expect((await call(admin, 'POST', url, first)).statusCode).toBe(409);
    } else {
      expect((await call(admin, 'POST', url, first)).statusCode).toBe(404);
    }
    expect(await total()).toBe(before);
  });

  it('keeps every company to itself', async () => {
    const [own] = (await call(admin, 'GET', `${url}?limit=1`)).json().payload;
    const example = r.examples.find((e) => (r.unique.length ? r.unique.every((u) => normalised(r, e)[u] === own[u]) : true)) ?? first;
    const seeded = await total(peru);
    // the same user, in another of their companies: the record does not exist there
    if (ops.has('update')) expect((await call(admin, 'PUT', `${url}/${own._id}`, second, peru)).statusCode).toBe(404);
    expect((await remove(own._id, example, peru)).statusCode).toBe(404);
    if (ops.has('get')) expect((await call(admin, 'GET', `${url}/${own._id}`, undefined, peru)).statusCode).toBe(404);
    // a company field in a body cannot move a record, nor plant one elsewhere
    for (const field of ['company', 'companyId', 'company_id']) {
      if (ops.has('update')) {
        const moved = await call(admin, 'PUT', `${url}/${own._id}`, { [field]: peru });
        expect(moved.statusCode).toBe(400);
        expect(moved.json().errors.msg).toBe(`Campo no permitido: ${field}`);
      }
      if (ops.has('create')) expect((await call(admin, 'POST', url, { ...third, [field]: peru })).statusCode).toBe(400);
    }
    expect(await total(peru)).toBe(seeded);
    const after = (await call(admin, 'GET', `${url}?limit=50`)).json().payload.find((p: { _id: string }) => p._id === own._id);
    expect(after).toEqual(own);
  });

  it('follows the role permissions of its module', async () => {
    const agentCompany = agent.company('Demo Perú');
    const list = await call(agent, 'GET', url, undefined, agentCompany);
    expect(list.statusCode).toBe(agentMay(r, 'list') ? 200 : 401);
    if (ops.has('create')) {
      const create = await call(agent, 'POST', url, { ...first, ...Object.fromEntries(r.unique.map((u) => [u, undefined])) }, agentCompany);
      if (agentMay(r, 'create')) expect(create.statusCode).not.toBe(401);
      else expect(create.json().errors.code).toBe('FORBIDDEN');
    }
    if (ops.has('delete') && !agentMay(r, 'delete')) {
      const del = await call(agent, 'DELETE', `${url}/${crypto.randomUUID()}`, deleteBodyOf(r, first), agentCompany);
      expect(del.json().errors.code).toBe('FORBIDDEN');
    }
  });
});

/** Every reference field of every resource that creates records: company-checked, cleaned on delete. */
const referenceCases = resourceList.flatMap((r) =>
  r.operations.includes('create')
    ? Object.entries(r.refs)
        .filter(([field]) => !isNestedRef(field))
        .map(([field, keys]) => ({ r, field, target: resourceList.find((x) => x.key === keys.find((k) => k !== r.key)) }))
        .filter((c): c is { r: Resource; field: string; target: Resource } => Boolean(c.target))
        .map((c) => [`${c.r.key}.${c.field} → ${c.target.key}`, c] as const)
    : [],
);

describe.each(referenceCases)('reference %s', (_name, { r, field, target }) => {
  const many = fieldKind((r.fields as Record<string, z.ZodType>)[field]) === 'json';
  const value = (id: string) => (many ? [id] : id);
  const url = `/${r.path}`;

  it('accepts only records of the same company and lets go of a deleted one', async () => {
    const company = (await call(admin, 'POST', '/companies', { name: `Refs ${r.key} ${field}`, country: 'PE' })).json()._id as string;
    const targetRecord = await make(target, target.examples[0], company);
    const [foreign] = (await call(admin, 'GET', `/${target.path}?limit=1`, undefined, peru)).json().payload;

    const stolen = await call(admin, 'POST', url, { ...(await filled(r, r.examples[0], company)), [field]: value(foreign._id) }, company);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().errors.details).toContainEqual({ path: field, msg: 'No existe en esta compañía' });
    expect((await call(admin, 'GET', url, undefined, company)).json().totalDocs).toBe(0);

    const created = await call(admin, 'POST', url, { ...(await filled(r, r.examples[0], company)), [field]: value(targetRecord._id as string) }, company);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()[field]).toEqual(value(targetRecord._id as string));

    const del = await call(admin, 'DELETE', `/${target.path}/${targetRecord._id}`, deleteBodyOf(target, target.examples[0]), company);
    expect(del.statusCode, del.body).toBe(200);
    const [after] = (await call(admin, 'GET', url, undefined, company)).json().payload;
    expect(after[field] ?? (many ? [] : undefined)).toEqual(many ? [] : undefined);
  });
});

/** Every declared field filter (`filterable`): narrows the list, counts what it shows, refuses bad values in Spanish. */
const filterCases = resourceList.filter((r) => r.filterable.length > 0).map((r) => [r.key, r] as const);

describe.each(filterCases)('field filters of %s', (key, r) => {
  const url = `/${r.path}`;
  const fields = r.fields as Record<string, z.ZodType>;
  let company: string;
  const list = (query: string) => call(admin, 'GET', `${url}?${query}`, undefined, company);
  const totalOf = async (query: string) => {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { totalDocs: number; totalPages: number; payload: Rec[] };
  };
  const refused = async (query: string, path: string, msg: string) => {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.details).toContainEqual({ path, msg });
  };

  beforeAll(async () => {
    company = (await call(admin, 'POST', '/companies', { name: `Filtros ${key}`, country: 'PE' })).json()._id;
    for (const example of r.examples) await make(r, example, company);
  });

  it.each(r.filterable.filter((f) => f !== 'createdAt' && !r.refs[f]))('%s: equality, with its own totals', async (field) => {
    const values = r.examples.map((e) => normalised(r, e)[field]);
    for (const value of new Set(values.filter((v) => v !== undefined))) {
      const page = await totalOf(`${field}=${encodeURIComponent(String(value))}&limit=1`);
      const expected = values.filter((v) => v === value).length;
      expect(page.totalDocs).toBe(expected);
      expect(page.totalPages).toBe(expected);
      expect(page.payload[0][field]).toBe(value);
    }
    // a value the field itself refuses gets the field's own Spanish message
    const bad = fields[field].safeParse('zzz-no-existe');
    expect(bad.success).toBe(false);
    await refused(`${field}=zzz-no-existe`, field, bad.error?.issues[0].message ?? '');
  });

  it.each(r.filterable.filter((f) => r.refs[f]))('%s: records of the referenced id only', async (field) => {
    const many = fieldKind(fields[field]) === 'json';
    const target = resourceList.find((x) => x.key === r.refs[field].find((k) => k !== r.key));
    if (!target) throw new Error(`no target for ${key}.${field}`);
    const targetRecord = await make(target, target.examples[0], company);
    const other = await make(target, target.examples[1], company);
    const value = (id: string) => (many ? [id] : id);
    const tagged = await make(r, { ...r.examples[0], [field]: value(targetRecord._id as string) }, company);

    const found = await totalOf(`${field}=${targetRecord._id}`);
    expect(found.totalDocs).toBe(1);
    expect(found.payload.map((p) => p._id)).toEqual([tagged._id]);
    expect((await totalOf(`${field}=${other._id}`)).totalDocs).toBe(0);
    expect((await totalOf(`${field}=${crypto.randomUUID()}`)).totalDocs).toBe(0);
    if (many) {
      // a list of ids: comma-separated or JSON, any of them
      expect((await totalOf(`${field}=${other._id},${targetRecord._id}`)).totalDocs).toBe(1);
      expect((await totalOf(`${field}=${encodeURIComponent(JSON.stringify([targetRecord._id]))}`)).totalDocs).toBe(1);
      await refused(`${field}=no-es-un-id`, field, 'Debe ser un id o una lista de ids');
    } else {
      await refused(`${field}=no-es-un-id`, field, 'El identificador no es válido');
    }
    // a filter for another company's record finds nothing here
    const [foreign] = (await call(admin, 'GET', `/${target.path}?limit=1`, undefined, peru)).json().payload;
    expect((await totalOf(`${field}=${foreign._id}`)).totalDocs).toBe(0);
    const body = r.deleteBody ? Object.fromEntries(Object.keys(r.deleteBody.shape).map((k) => [k, tagged[k]])) : undefined;
    if (r.operations.includes('delete')) expect((await call(admin, 'DELETE', `${url}/${tagged._id}`, body, company)).statusCode).toBe(200);
    else await t.sql(`delete from "${tableNameOf(r.key)}" where id = $1`, [tagged._id]);
  });

  it.each(r.filterable.filter((f) => f === 'createdAt'))('%s: from (inclusive) and to (exclusive)', async () => {
    const n = (await totalOf('')).totalDocs;
    const [newest] = (await totalOf('sort=createdAt&order=desc&limit=1')).payload;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await totalOf(`from=${encodeURIComponent(tomorrow)}`)).totalDocs).toBe(0);
    expect((await totalOf(`to=${encodeURIComponent(tomorrow)}`)).totalDocs).toBe(n);
    expect((await totalOf(`from=${encodeURIComponent(newest.createdAt as string)}`)).totalDocs).toBeGreaterThanOrEqual(1);
    expect((await totalOf(`to=${encodeURIComponent(newest.createdAt as string)}&from=2020-01-01T00:00:00-05:00`)).totalDocs).toBeLessThan(n);
    await refused('from=ayer', 'from', 'Fecha inválida (ISO 8601)');
    await refused('to=2025-13-01', 'to', 'Fecha inválida (ISO 8601)');
  });
});
