import { type Resource, resourceList } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED } from '../src/db/audit.js';
import { pruneAuditLog } from '../src/modules/audit-log/jobs.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The audit log (issue 28, decision 0072): every write through the API leaves one row naming who,
 * what (fields before → after, secrets masked), when and from where, in the change's own
 * transaction; the log is read by company, filtered and keyset paged, and never written through the API.
 */
let t: TestApp;
let admin: Signed;
let home: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  home = admin.company('Demo Chile');
});
afterAll(async () => {
  await t?.close();
});

type Rec = Record<string, unknown>;
interface AuditRow {
  company_id: string;
  actor: { type: string; id?: string };
  action: string;
  entity: string;
  entity_id: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  ip: string | null;
  user_agent: string | null;
}
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = as(admin, home)) =>
  t.app.inject({ method, url: `/api${url}`, headers: { 'user-agent': 'audit-test/1.0', ...headers }, payload });
const rowsOf = (entity: string, id: string) =>
  t.sql<AuditRow>('select company_id, actor, action, entity, entity_id, changes, ip, user_agent from audit_log where entity = $1 and entity_id = $2 order by at, id', [entity, id]);

/** An example with the references a create must name, filled with a record of the company. */
async function filled(r: Resource, example: object, headers = as(admin, home)): Promise<Rec> {
  const out: Rec = { ...(example as Rec) };
  for (const field of Object.keys(r.requiredRefs ?? {})) {
    if (out[field] !== undefined) continue;
    const target = resourceList.find((x) => x.key === r.refs[field][0]) as Resource;
    const made = await call('POST', `/${target.path}`, await filled(target, target.examples[0], headers), headers);
    out[field] = made.json()._id;
  }
  return out;
}
const deleteBodyOf = (r: Resource, record: Rec) => (r.deleteBody ? Object.fromEntries(Object.keys(r.deleteBody.shape).map((k) => [k, record[k]])) : undefined);

const writable = resourceList.filter((r) => ['create', 'update', 'delete'].every((op) => r.operations.includes(op as never)));

describe.each(writable.map((r) => [r.key, r] as const))('the audit log of %s', (_key, r) => {
  it('records create, update and delete through the API with the user, the fields before → after and secrets masked', async () => {
    const [first, second] = r.examples as Rec[];
    const created = await call('POST', `/${r.path}`, await filled(r, first));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()._id as string;
    const updated = await call('PUT', `/${r.path}/${id}`, second ?? first);
    expect(updated.statusCode, updated.body).toBe(200);
    const stored = r.stored.parse(second ?? first) as Rec;
    const removed = await call('DELETE', `/${r.path}/${id}`, deleteBodyOf(r, stored));
    expect(removed.statusCode, removed.body).toBe(200);

    const rows = await rowsOf(r.key, id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    for (const row of rows) {
      expect(row).toMatchObject({ company_id: home, actor: { type: 'user', id: admin.user._id }, entity: r.key, entity_id: id, user_agent: 'audit-test/1.0' });
      expect(row.ip).toBeTruthy();
    }
    const [create, , del] = rows;
    // a creation names every field it stored, from nothing
    for (const [field, value] of Object.entries(r.stored.parse(first) as Rec)) {
      if (value === null || value === undefined) continue;
      expect(create.changes[field]?.from, field).toBeNull();
      if (r.writeOnly.includes(field)) expect(create.changes[field]?.to).toBe(MASKED);
    }
    expect(Object.keys(del.changes).length).toBeGreaterThan(0);
    for (const row of rows) for (const field of r.writeOnly) for (const side of Object.values(row.changes[field] ?? {})) expect([null, MASKED]).toContain(side);
    // never a secret's value anywhere in the log
    const text = JSON.stringify(rows);
    for (const field of r.writeOnly) {
      const secret = (first as Rec)[field];
      if (typeof secret === 'string' && secret.length > 3) expect(text).not.toContain(secret);
    }
  });
});

describe('who the audit log names', () => {
  it('names the API key that wrote, not its creator', async () => {
    const made = await call('POST', '/api-keys', { name: 'ERP auditado', permissions: ['leads.create', 'leads.update', 'leads.delete'] });
    expect(made.statusCode, made.body).toBe(201);
    const key = made.json() as { key: string; _id: string };
    const headers = { authorization: `Bearer ${key.key}` };
    const created = await call('POST', '/leads', { name: 'Por clave', telefono: '56911112222', platform: 'whatsapp', status: 'sin-asignar' }, headers);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()._id as string;
    expect((await call('PUT', `/leads/${id}`, { name: 'Por clave 2' }, headers)).statusCode).toBe(200);
    const [row] = await rowsOf('leads', id);
    expect(row.actor).toEqual({ type: 'api_key', id: key._id });
    const [update] = (await rowsOf('leads', id)).slice(1);
    expect(update.changes.name).toEqual({ from: 'Por clave', to: 'Por clave 2' });
  });

  it('writes no row for a write that was refused or rolled back', async () => {
    const count = async () => (await t.sql<{ n: number }>('select count(*)::int as n from audit_log'))[0].n;
    const brands = resourceList.find((r) => r.key === 'brands') as Resource;
    const first = await call('POST', `/${brands.path}`, { ...(brands.examples[0] as Rec), name: 'Marca única' });
    expect(first.statusCode, first.body).toBe(201);
    const before = await count();
    // the same unique name: the statement fails, and its audit row with it
    const twice = await call('POST', `/${brands.path}`, { ...(brands.examples[0] as Rec), name: 'Marca única' });
    expect(twice.statusCode).toBe(409);
    // a record that does not exist: nothing changed, nothing recorded
    expect((await call('PUT', `/leads/${crypto.randomUUID()}`, { name: 'nadie' })).statusCode).toBe(404);
    expect(await count()).toBe(before);
  });
});

describe('what else the audit log records', () => {
  it('a sign-in, and a failed one, in every company of the account', async () => {
    const agent = await login(t, demo.agent);
    const failed = await t.app.inject({ method: 'POST', url: '/api/login', payload: { ...demo.agent, password: 'equivocada' }, headers: { 'user-agent': 'intruso/1' } });
    expect(failed.statusCode).toBe(401);
    const rows = await t.sql<AuditRow>(`select company_id, actor, action, user_agent, changes from audit_log where entity = 'users' and entity_id = $1 and action like 'sign_in%' order by id`, [
      agent.user._id,
    ]);
    const companies = agent.user.corporation.companies.map((c) => c.company._id).sort();
    expect(rows.filter((r) => r.action === 'sign_in').map((r) => r.company_id).sort()).toEqual(expect.arrayContaining(companies));
    const failures = rows.filter((r) => r.action === 'sign_in_failed');
    expect(failures.map((r) => r.company_id).sort()).toEqual(companies);
    expect(failures[0]).toMatchObject({ actor: { type: 'user', id: agent.user._id }, user_agent: 'intruso/1', changes: { reason: { from: null, to: 'password' } } });
    // a name that is no account: nothing of any company
    const before = (await t.sql<{ n: number }>('select count(*)::int as n from audit_log'))[0].n;
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { ...demo.agent, email: 'nadie@demo.com' } });
    expect((await t.sql<{ n: number }>('select count(*)::int as n from audit_log'))[0].n).toBe(before);
  });

  it('a role change, a disable and an enable of a user', async () => {
    const agent = await login(t, demo.agent);
    const put = (payload: object) => call('PUT', `/users/${agent.user._id}`, payload, as(admin, agent.user.companyId));
    expect((await put({ role: 'supervisor' })).statusCode).toBe(200);
    expect((await put({ role: 'agent' })).statusCode).toBe(200);
    expect((await put({ disabled: true })).statusCode).toBe(200);
    expect((await put({ disabled: false })).statusCode).toBe(200);
    const rows = await t.sql<AuditRow>(
      `select company_id, actor, action, changes from audit_log where entity = 'users' and entity_id = $1 and action in ('role_change', 'disable', 'enable') order by id`,
      [agent.user._id],
    );
    expect(rows.map((r) => [r.action, r.changes])).toEqual([
      ['role_change', { role: { from: 'agent', to: 'supervisor' } }],
      ['role_change', { role: { from: 'supervisor', to: 'agent' } }],
      ['disable', { disabled: { from: false, to: true } }],
      ['enable', { disabled: { from: true, to: false } }],
    ]);
    expect(rows[0]).toMatchObject({ company_id: agent.user.companyId, actor: { type: 'user', id: admin.user._id } });
  });

  it('an API key made and revoked, never its secret, and an export of the leads', async () => {
    const made = await call('POST', '/api-keys', { name: 'Zap', permissions: ['leads.list'] });
    const key = made.json() as { key: string; _id: string };
    expect((await call('DELETE', `/api-keys/${key._id}`)).statusCode).toBe(204);
    const rows = await rowsOf('api_keys', key._id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'revoke']);
    expect(rows[0].changes.name).toEqual({ from: null, to: 'Zap' });
    expect(JSON.stringify(rows)).not.toContain(key.key.slice(12));
    const exported = await call('GET', '/leads/export?status=sin-asignar');
    expect(exported.statusCode).toBe(200);
    const [last] = await t.sql<AuditRow>(`select action, entity, changes, actor from audit_log where action = 'export' order by id desc limit 1`);
    expect(last).toMatchObject({ action: 'export', entity: 'leads', actor: { type: 'user', id: admin.user._id }, changes: { filters: { to: { status: 'sin-asignar' } } } });
  });
});

describe('GET /api/audit-log', () => {
  const read = (query: string, headers = as(admin, home)) => t.app.inject({ method: 'GET', url: `/api/audit-log${query}`, headers });

  it('filters by entity, record, actor and dates, and pages by keyset without gaps or repeats', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await call('POST', '/leads', { name: `Historial ${i}`, telefono: `5691234000${i}`, platform: 'whatsapp', status: 'sin-asignar' });
      ids.push(made.json()._id);
    }
    await call('PUT', `/leads/${ids[0]}`, { name: 'Historial cero' });
    const history = await read(`?entity=leads&entityId=${ids[0]}`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().payload.map((e: Rec) => e.action)).toEqual(['update', 'create']);
    expect(history.json().payload[0]).toMatchObject({
      entity: 'leads',
      entityId: ids[0],
      actor: { type: 'user', id: admin.user._id, name: expect.stringMatching(/\S/) },
      changes: { name: { from: 'Historial 0', to: 'Historial cero' } },
    });
    // keyset: pages of 2 over the company's lead entries
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 50; n++) {
      const page = (await read(`?entity=leads&actor=${admin.user._id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...page.payload.map((e: Rec) => e._id as string));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    const all = (await read(`?entity=leads&actor=${admin.user._id}&limit=200`)).json().payload.map((e: Rec) => e._id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    // dates: nothing in the future, everything since an hour ago
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await read(`?from=${encodeURIComponent(future)}`)).json().payload).toEqual([]);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    expect((await read(`?entity=leads&entityId=${ids[1]}&from=${encodeURIComponent(past)}`)).json().payload).toHaveLength(1);
  });

  it('refuses bad filters with a Spanish 400', async () => {
    for (const [query, msg] of [
      ['?entity=volar', /Esa entidad no existe/],
      ['?actor=nadie', /El actor debe ser el id/],
      ['?from=ayer', /«Desde» debe ser una fecha/],
      ['?from=2026-12-02T00:00:00Z&to=2026-01-01T00:00:00Z', /«Desde» debe ser anterior a «Hasta»/],
      ['?cursor=nada', /El cursor no es válido/],
      ['?limit=5000', /como máximo 200/],
      ['?otro=1', /./],
    ] as const) {
      const res = await read(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors.msg, query).toMatch(msg);
    }
  });

  it("never shows another company's rows, is the owner's only, and cannot be written through the API", async () => {
    const made = await call('POST', '/leads', { name: 'Sólo Chile', telefono: '56990000001', platform: 'whatsapp', status: 'sin-asignar' });
    const id = made.json()._id as string;
    const peru = admin.company('Demo Perú');
    expect((await read(`?entity=leads&entityId=${id}`, as(admin, peru))).json().payload).toEqual([]);
    for (const e of (await read('?limit=200', as(admin, peru))).json().payload as Rec[]) expect(e.entityId).not.toBe(id);
    const agent = await login(t, demo.agent);
    expect((await read('', as(agent))).statusCode).toBe(401);
    // a key is never given the log
    const key = await call('POST', '/api-keys', { name: 'lector', permissions: ['audit.list'] });
    expect(key.statusCode).toBe(400);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/audit-log', '/api/audit-log/1']) {
        const res = await t.app.inject({ method, url, headers: as(admin, home), payload: {} });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
  });

  it('exports the filtered entries as CSV, and notes that it did', async () => {
    const made = await call('POST', '/leads', { name: 'En CSV', telefono: '56990000002', platform: 'whatsapp', status: 'sin-asignar' });
    const id = made.json()._id as string;
    const res = await t.app.inject({ method: 'GET', url: `/api/audit-log.csv?entity=leads&entityId=${id}`, headers: as(admin, home) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Fecha,Quién,Tipo de actor,Acción,Entidad,Id del registro,Cambios,IP,Navegador');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Creó');
    expect(lines[1]).toContain(id);
    const [last] = await t.sql<AuditRow>(`select action, entity from audit_log order by id desc limit 1`);
    expect(last).toEqual({ action: 'export', entity: 'audit_log' });
  });
});

describe('retention', () => {
  it('deletes only the rows older than the period, in batches', async () => {
    const old = await t.sql<{ id: string }>(
      `insert into audit_log (company_id, at, actor, action, entity, entity_id) select $1, now() - interval '400 days', '{"type":"system"}', 'update', 'leads', g::text from generate_series(1, 7) g returning id`,
      [home],
    );
    expect(old).toHaveLength(7);
    const recent = (await t.sql<{ n: number }>(`select count(*)::int as n from audit_log where at > now() - interval '365 days'`))[0].n;
    expect(await pruneAuditLog(t.database.db, 365, 3)).toBe(7);
    expect((await t.sql<{ n: number }>(`select count(*)::int as n from audit_log where at <= now() - interval '365 days'`))[0].n).toBe(0);
    expect((await t.sql<{ n: number }>(`select count(*)::int as n from audit_log`))[0].n).toBe(recent);
  });
});
