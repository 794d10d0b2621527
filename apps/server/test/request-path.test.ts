import { chatSummaryOut, fieldKind, pageOf, type Resource, resourceList } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repositoryOf } from '../src/resources/crud.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The request path of issue 10 (decision 0023): what an authenticated request costs in
 * queries, that revocation still holds on the very next request, and keyset cursors on the
 * lists and the inbox beside the spec's `page`.
 */
let t: TestApp;
let admin: Signed;
let agent: Signed;
/** Demo Chile: starts empty, the suite fills it. */
let chile: string;
let peru: string;

type Rec = Record<string, unknown> & { _id: string };
type PageBody = { payload: Rec[]; totalDocs: number; totalPages: number; page: number; limit: number; nextCursor?: string };
const get = (s: Signed, url: string, company: string) => t.app.inject({ method: 'GET', url: `/api${url}`, headers: as(s, company) });
const page = async (url: string, company = chile): Promise<PageBody> => {
  const res = await get(admin, url, company);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

/**
 * Queries the product's pool runs while `work` runs: the fewest of three tries, since a
 * background job (the queue, the mailer) may query the same pool meanwhile; an extra query of
 * the request itself shows in every try.
 */
async function queriesDuring(work: () => Promise<unknown>): Promise<string[]> {
  const tries = [await queriesOnce(work), await queriesOnce(work), await queriesOnce(work)];
  return tries.reduce((a, b) => (b.length < a.length ? b : a));
}

async function queriesOnce(work: () => Promise<unknown>): Promise<string[]> {
  const { pool } = t.database;
  const seen: string[] = [];
  const original = pool.query;
  pool.query = function (this: typeof pool, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    const text = typeof first === 'string' ? first : first.text;
    // the job queue and the event spine's dispatcher poll the same pool on their own schedule: not the request's
    if (!text.includes('pgboss.') && !/domain_event|spine_leases/.test(text)) seen.push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pool.query;
  try {
    await work();
  } finally {
    pool.query = original;
  }
  return seen;
}

/**
 * The page as node wrote it before decision 0036: the repository's records (toWire) through
 * JSON.stringify, for an admin of `company` (every row), with the query the route would parse.
 */
async function nodeWritten(resource: Resource, company: string, query: Record<string, unknown>): Promise<string> {
  const [{ corporation_id }] = await t.sql<{ corporation_id: string }>('select corporation_id from users where id = $1', [admin.user._id]);
  const tenant = { companyId: company, corporationId: corporation_id, userId: admin.user._id, role: 'admin' as const };
  const q = resource.listQuery.parse(query) as Parameters<ReturnType<typeof repositoryOf>['list']>[2];
  return JSON.stringify(await repositoryOf(resource, t.app.secrets).list(t.database.db, tenant, q));
}
const hasJson = (resource: Resource) => Object.values(resource.fields).some((f) => fieldKind(f as never) === 'json');

/** Follows nextCursor from the first page to the end; `between` runs before each next page. */
async function walk(url: string, between?: () => Promise<void>, company = chile): Promise<{ ids: string[]; pages: PageBody[] }> {
  const pages: PageBody[] = [];
  let body = await page(url, company);
  pages.push(body);
  while (body.nextCursor) {
    await between?.();
    body = await page(`${url}${url.includes('?') ? '&' : '?'}cursor=${body.nextCursor}`, company);
    pages.push(body);
  }
  return { ids: pages.flatMap((p) => p.payload.map((r) => r._id)), pages };
}

beforeAll(async () => {
  t = await startTestApp();
  [admin, agent] = await Promise.all([login(t, demo.admin), login(t, demo.agent)]);
  chile = admin.company('Demo Chile');
  peru = admin.company('Demo Perú');
  // 23 leads with the same created_at in pairs (ties broken by id) and repeated names
  await t.sql(
    `insert into leads (company_id, name, platform, status, created_at, updated_at)
     select $1, (array['Ana','Beto','Carla'])[1 + i % 3] || ' ' || (i % 4), 'whatsapp', 'sin-asignar',
            timestamptz '2026-01-01 10:00:00.123456+00' + ((i / 2) || ' microseconds')::interval,
            timestamptz '2026-01-01 10:00:00+00'
       from generate_series(1, 23) as i`,
    [chile],
  );
  // locations with and without a city (an empty sort value)
  await t.sql(
    `insert into locaciones (company_id, name, address, city)
     select $1, 'Local ' || i, 'Calle ' || i, case when i % 3 = 0 then null else (array['Lima','Cusco'])[1 + i % 2] end
       from generate_series(1, 11) as i`,
    [chile],
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('one query of authentication per request', () => {
  it('an authenticated list costs ONE statement: the auth row and the page together (decision 0036)', async () => {
    await page('/leads'); // warm
    for (const url of ['/leads', '/leads?sort=name&order=asc', '/leads?page=2', '/locaciones?sort=city&order=desc']) {
      const list = await queriesDuring(() => page(url));
      expect(list, `${url}: ${list.join('\n---\n')}`).toHaveLength(1);
      expect(list[0]).toContain('from sessions');
    }
    const first = await page('/leads?limit=5');
    const second = await queriesDuring(() => page(`/leads?limit=5&cursor=${first.nextCursor}`));
    expect(second).toHaveLength(1);
    // a search or field filter: the auth statement, then the list statement
    const filtered = await queriesDuring(() => page('/leads?filter=Ana'));
    expect(filtered, filtered.join('\n---\n')).toHaveLength(2);
    expect(filtered.filter((q) => q.includes('from sessions'))).toHaveLength(1);
  });

  it('on PostgreSQL an unfiltered page’s statement keeps a generic plan, not planned again on every call', async () => {
    if (t.database.kind !== 'postgres') return;
    const { pool } = t.database;
    const configs: Array<{ name?: string; text: string; values?: unknown[]; rowMode?: string }> = [];
    const original = pool.query;
    pool.query = function (this: typeof pool, ...args: unknown[]) {
      if (typeof args[0] === 'object') configs.push(args[0] as (typeof configs)[number]);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pool.query;
    try {
      const first = await page('/leads');
      await page(`/leads?cursor=${first.nextCursor}`);
      await page('/locaciones?sort=city&order=desc&limit=30');
    } finally {
      pool.query = original;
    }
    const statements = configs.filter((c) => c.name?.startsWith('list_'));
    expect(statements).toHaveLength(3);
    // the page size is in the statement's text, so PostgreSQL's generic plan is as cheap as a
    // custom one and is kept after five calls (with `limit $n` it planned every call again)
    for (const statement of statements) {
      expect(statement.text).toMatch(/ limit (21|31)\) as r \(/);
      const client = await pool.connect();
      try {
        for (let i = 0; i < 7; i += 1) await client.query({ ...statement, name: `${statement.name}_plan` });
        const { rows } = await client.query('select generic_plans, custom_plans from pg_prepared_statements where name = $1', [`${statement.name}_plan`]);
        expect(rows[0]?.generic_plans, statement.text).toBeGreaterThan(0);
      } finally {
        client.release();
      }
    }
  });

  it('answers a list’s refusals as the auth hook did, before any complaint about the query', async () => {
    const [victim] = await Promise.all([login(t, demo.agent)]);
    const bad = ['/leads', '/leads?sort=nope', '/leads?limit=abc', '/leads?cursor=xyz', '/leads?filter=Ana', '/leads?unknown=1'];
    // without a membership of the company: the same 401 COMPANY_FORBIDDEN
    for (const url of bad) {
      const res = await get(victim, url, chile);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(401);
      expect(res.json().errors.code, url).toBe('COMPANY_FORBIDDEN');
    }
    // a revoked session: SESSION_REVOKED whatever the query says
    await t.sql('update sessions set revoked_at = now() where id = (select id from sessions where user_id = $1 order by created_at desc limit 1)', [victim.user._id]);
    for (const url of bad) {
      const res = await get(victim, url, peru);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(401);
      expect(res.json().errors.code, url).toBe('SESSION_REVOKED');
    }
    // a live session: the query's own 400
    expect((await get(agent, '/leads?sort=nope', peru)).statusCode).toBe(400);
    expect((await get(agent, '/leads?limit=abc', peru)).statusCode).toBe(400);
    expect((await get(agent, '/leads?cursor=xyz', peru)).json().errors.msg).toBe('El cursor no es válido');
  });

  it('a caller with row scope gets their rows only: the auth row first, then the scoped page', async () => {
    // the demo agent lacks leads.all (decision 0026): their own and the unassigned leads
    const all = await page('/leads?limit=200', peru);
    const mine = await get(agent, '/leads?limit=200', peru);
    expect(mine.statusCode, mine.body).toBe(200);
    const { rows } = { rows: await t.sql<{ id: string }>(`select id from agentes where company_id = $1 and user_id = $2`, [peru, agent.user._id]) };
    const me = rows[0]?.id ?? null;
    const visible = all.payload.filter((l) => !l.agenteId || l.agenteId === me).map((l) => l._id);
    expect(mine.json().payload.map((l: Rec) => l._id)).toEqual(visible);
    const seen = await queriesDuring(() => get(agent, '/leads', peru));
    expect(seen, seen.join('\n---\n')).toHaveLength(2);
  });

  it('GET /api/auth and /api/permissions answer from the auth statement alone', async () => {
    for (const url of ['/auth?module=leads&action=list', '/permissions']) {
      const seen = await queriesDuring(async () => {
        const res = await get(agent, url, peru);
        expect(res.statusCode, res.body).toBe(200);
      });
      expect(seen, `${url}: ${seen.join('\n---\n')}`).toHaveLength(1);
    }
    expect((await get(agent, '/auth?module=users&action=delete', peru)).json()).toEqual({ allowed: false, role: 'agent' });
    expect((await get(admin, '/auth?module=users&action=delete', peru)).json()).toEqual({ allowed: true, role: 'admin' });
  });

  it('a demotion, a withdrawn permission and a removed membership hold on the very next request', async () => {
    const me = admin.user._id;
    expect((await get(admin, '/users', chile)).statusCode).toBe(200);
    await t.sql(`update memberships set role = 'agent' where user_id = $1 and company_id = $2`, [me, chile]);
    const demoted = await get(admin, '/users', chile);
    expect(demoted.statusCode).toBe(401);
    expect(demoted.json().errors.code).toBe('FORBIDDEN');
    expect((await get(admin, '/auth?module=users&action=list', chile)).json()).toEqual({ allowed: false, role: 'agent' });
    await t.sql(`update memberships set role = 'admin' where user_id = $1 and company_id = $2`, [me, chile]);
    expect((await get(admin, '/users', chile)).statusCode).toBe(200);

    const [perm] = await t.sql<{ corporation_id: string }>(
      `delete from role_permissions where role = 'admin' and module = 'leads' and action = 'list'
        and corporation_id = (select corporation_id from users where id = $1) returning corporation_id`,
      [me],
    );
    expect((await get(admin, '/leads', chile)).json().errors.code).toBe('FORBIDDEN');
    await t.sql(`insert into role_permissions (corporation_id, role, module, action) values ($1, 'admin', 'leads', 'list')`, [perm.corporation_id]);
    expect((await get(admin, '/leads', chile)).statusCode).toBe(200);

    await t.sql(`update sessions set revoked_at = now() where user_id = $1`, [agent.user._id]);
    expect((await get(agent, '/leads', peru)).json().errors.code).toBe('SESSION_REVOKED');
  });
});

describe('keyset cursors beside the spec’s page', () => {
  it('returns every lead exactly once, in the list’s order, while leads are added', async () => {
    const all = (await page('/leads?limit=200')).payload.map((r) => r._id);
    expect(all).toHaveLength(23);
    let added = 0;
    const { ids, pages } = await walk('/leads?limit=5', async () => {
      // newer leads sort before the cursor: they are not in the later pages, and nothing is skipped or repeated
      await t.sql(`insert into leads (company_id, name, platform, status) values ($1, $2, 'web', 'sin-asignar')`, [chile, `Nuevo ${++added}`]);
    });
    expect(ids).toEqual(all);
    expect(pages.at(-1)?.nextCursor).toBeUndefined();
    expect(pages[0]).toMatchObject({ totalDocs: 23, page: 1, limit: 5 });
    // the page still works, and agrees with the cursor
    const second = await page('/leads?limit=5&page=2');
    const now = (await page('/leads?limit=200')).payload.map((r) => r._id);
    expect(second.payload.map((r) => r._id)).toEqual(now.slice(5, 10));
    expect(second.page).toBe(2);
  });

  it('follows every sort and direction, ties broken by id, empty values where PostgreSQL puts them', async () => {
    for (const [path, sorts] of [
      ['/leads', ['createdAt', 'name', 'updatedAt', 'status']],
      ['/locaciones', ['name', 'city']],
    ] as const) {
      for (const sort of sorts) {
        for (const order of ['asc', 'desc']) {
          const url = `${path}?sort=${sort}&order=${order}`;
          const all = (await page(`${url}&limit=200`)).payload.map((r) => r._id);
          const { ids } = await walk(`${url}&limit=4`);
          expect(ids, url).toEqual(all);
          // the spec's page past the first (its rows found by id first, decision 0036) agrees:
          // a page size written into the statement (10) and one bound as a parameter (4)
          for (const [limit, n] of [
            [4, 3],
            [10, 2],
            [10, 3],
          ]) {
            expect((await page(`${url}&limit=${limit}&page=${n}`)).payload.map((r) => r._id), `${url} page ${n} of ${limit}`).toEqual(
              all.slice((n - 1) * limit, n * limit),
            );
          }
        }
      }
    }
    // a filter and fields keep working with a cursor
    const filtered = await walk('/leads?filter=Ana&limit=3&fields=name');
    expect(filtered.ids).toEqual((await page('/leads?filter=Ana&limit=200')).payload.map((r) => r._id));
    expect(Object.keys(filtered.pages[1].payload[0]).sort()).toEqual(['_id', 'name']);
    expect(filtered.pages[1].totalDocs).toBe(filtered.ids.length);
    const filteredSecond = await page('/leads?filter=Ana&limit=3&page=2');
    expect(filteredSecond.payload.map((r) => r._id)).toEqual(filtered.ids.slice(3, 6));
    expect(filteredSecond.totalDocs).toBe(filtered.ids.length);
  });

  it('answers a bad cursor with a Spanish 400', async () => {
    const first = await page('/leads?limit=2');
    const [sort, order, value, id] = JSON.parse(Buffer.from(first.nextCursor ?? '', 'base64url').toString());
    expect([sort, order, typeof value, typeof id]).toEqual(['createdAt', 'desc', 'string', 'string']);
    const forged = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    for (const cursor of [
      'no-es-un-cursor',
      '%%%',
      forged([sort, order, 'ayer', id]),
      forged([sort, order, null, id]),
      forged([sort, order, value, 'x']),
      forged([sort, order, '2026-13-45 99:00:00+00', id]),
      forged(['name', order, value, id]),
      `${first.nextCursor}x`,
    ]) {
      const res = await get(admin, `/leads?limit=2&cursor=${encodeURIComponent(cursor)}`, chile);
      expect(res.statusCode, `${cursor}: ${res.body}`).toBe(400);
      expect(res.json().errors.msg).toBe('El cursor no es válido');
    }
    // another order than the cursor's
    const other = await get(admin, `/leads?limit=2&order=asc&sort=createdAt&cursor=${first.nextCursor}`, chile);
    expect(other.json().errors.msg).toBe('El cursor no es válido');
    // lists without keyset paging say so instead of answering the first page again
    const users = await get(admin, `/users?cursor=${first.nextCursor}`, chile);
    expect(users.statusCode).toBe(400);
  });

  it('pages the inbox by cursor: every chat once, newest activity first, chats without messages first', async () => {
    await t.sql(
      `insert into chats (company_id, contact_name, platform, status, last_message_at)
       select $1, 'Contacto ' || i, 'whatsapp', 'open',
              case when i % 5 = 0 then null else to_char((timestamptz '2026-02-01 00:00:00+00' + ((i / 2) || ' minutes')::interval) at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end
         from generate_series(1, 17) as i`,
      [chile],
    );
    const all = (await page('/chats/get_chats?limit=100')).payload.map((r) => r._id);
    expect(all).toHaveLength(17);
    // the page and its total in one statement, after the auth statement
    const inbox = await queriesDuring(() => page('/chats/get_chats'));
    expect(inbox, inbox.join('\n---\n')).toHaveLength(2);
    const { ids, pages } = await walk('/chats/get_chats?limit=4', async () => {
      await t.sql(`insert into chats (company_id, contact_name, platform, status, last_message_at) values ($1, 'Nuevo', 'whatsapp', 'open', '2026-03-01T00:00:00.000Z')`, [chile]);
    });
    expect(ids).toEqual(all);
    expect(pages[0].totalDocs).toBe(17);
    const filtered = await walk('/chats/get_chats?limit=3&filter=Contacto%201');
    expect(filtered.ids).toEqual((await page('/chats/get_chats?limit=100&filter=Contacto%201')).payload.map((r) => r._id));
    expect((await page('/chats/get_chats?limit=4&page=2')).page).toBe(2);
    // the spec's page past the first agrees with the whole inbox, with and without a filter
    const now = (await page('/chats/get_chats?limit=100')).payload.map((r) => r._id);
    for (const n of [2, 3, 5]) expect((await page(`/chats/get_chats?limit=4&page=${n}`)).payload.map((r) => r._id), `page ${n}`).toEqual(now.slice((n - 1) * 4, n * 4));
    const matches = (await page('/chats/get_chats?limit=100&filter=Contacto%201')).payload.map((r) => r._id);
    expect((await page('/chats/get_chats?limit=3&page=2&filter=Contacto%201')).payload.map((r) => r._id)).toEqual(matches.slice(3, 6));
    const bad = await get(admin, '/chats/get_chats?cursor=abc', chile);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toBe('El cursor no es válido');
  });
});

describe('list pages written without running zod over every row', () => {
  it('are the JSON PostgreSQL writes, the same as node wrote: escapes, empty fields, jsonb, microseconds (decision 0036)', async () => {
    const text = 'Comillas " barra \\ salto\nTab\t\u0001 ñandú 😀 </script>';
    const [lead] = await t.sql<{ id: string }>(
      `insert into leads (company_id, name, platform, status, details, mostrador_labels, created_at, updated_at)
       values ($1, $2, 'whatsapp', 'sin-asignar', $3::jsonb, '[]'::jsonb, timestamptz '2099-12-31 23:59:59.999999+00', timestamptz '2001-02-03 04:05:06.7+00')
       returning id`,
      [chile, text, JSON.stringify([{ message: text, updatedAt: '2026-01-01T00:00:00.000Z' }])],
    );
    const res = await get(admin, '/leads?limit=2', chile);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.payload[0]._id).toBe(lead.id);
    const leads = resourceList.find((r) => r.key === 'leads') as Resource;
    // the same JSON node wrote (jsonb values aside, the same bytes: checked below)
    expect(body).toStrictEqual(JSON.parse(await nodeWritten(leads, chile, { limit: '2' })));
    expect(body.payload[0].createdAt).toBe('2099-12-31T23:59:59.999Z');
    expect(body.payload[0].updatedAt).toBe('2001-02-03T04:05:06.700Z');
    expect(body.payload[0].name).toBe(text);
    expect(Object.keys(body.payload[0])).toEqual(['_id', 'name', 'platform', 'status', 'mostradorLabels', 'details', 'createdAt', 'updatedAt']);
    // outside jsonb values (which PostgreSQL prints with a space after ':' and ','), the very bytes JSON.stringify writes
    const r = body.payload[0];
    expect(res.body).toContain(`${JSON.stringify({ _id: r._id, name: text, platform: 'whatsapp', status: 'sin-asignar', mostradorLabels: [] }).slice(0, -1)},"details":[{"`);
    expect(res.body).toContain(`}],"createdAt":"2099-12-31T23:59:59.999Z","updatedAt":"2001-02-03T04:05:06.700Z"},{"_id":`);
    expect(r.details).toEqual([{ message: text, updatedAt: '2026-01-01T00:00:00.000Z' }]);
    // a page without jsonb fields: byte for byte
    const places = await get(admin, '/locaciones?limit=5', chile);
    expect(places.body).toBe(JSON.stringify(places.json()));
    expect(places.headers['content-type']).toBe('application/json; charset=utf-8');
    await t.sql('delete from leads where id = $1', [lead.id]);
  });

  it('are byte for byte what the contract’s schema writes, for every standard list and the inbox', async () => {
    const targets = [
      ...resourceList.filter((r) => r.operations.includes('list')).map((r) => [`/${r.path}?limit=200`, pageOf(r.entity.partial())] as const),
      ['/chats/get_chats?limit=100', pageOf(chatSummaryOut)] as const,
    ];
    for (const [url, schema] of targets) {
      const res = await get(admin, url, peru);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const body = res.json();
      expect(body.payload.length, url).toBeGreaterThan(0);
      // what zod would write: the same values and no key more or less (it would also order the
      // keys inside jsonb values by the schema; PostgreSQL's jsonb keeps its own order — same JSON)
      const encoded = z.encode(schema as z.ZodType, body) as { payload: object[] };
      expect(body, url).toStrictEqual(encoded);
      expect(Object.keys(body), url).toEqual(Object.keys(encoded));
      for (const [i, record] of body.payload.entries()) expect(Object.keys(record), url).toEqual(Object.keys(encoded.payload[i]));
      // the unfiltered page's prepared statement reads every value as the general select does
      const resource = resourceList.find((r) => url.startsWith(`/${r.path}?`));
      if (resource) {
        // what node wrote before PostgreSQL wrote the page (decision 0036): the same bytes, or
        // with jsonb values (printed by PostgreSQL with spaces) the same JSON, keys in the same order
        const before = await nodeWritten(resource, peru, { limit: '200' });
        if (hasJson(resource)) {
          expect(body, url).toStrictEqual(JSON.parse(before));
          expect(JSON.stringify(body), url).toBe(before);
        } else expect(res.body, url).toBe(before);
      }
      if (resource?.operations.includes('get')) {
        for (const record of body.payload.slice(0, 3)) {
          const one = await get(admin, `/${resource.path}/${record._id}`, peru);
          expect(one.json(), url).toStrictEqual(record);
        }
      }
    }
  });
});

