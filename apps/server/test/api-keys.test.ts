import { apiKeyMessages } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * API keys (issue 28, decision 0071), as an integrator meets them: a key made on the screen's call
 * is a bearer by itself, bound to its company, held to its permissions, refused the very next
 * request after it is revoked or expires, limited per key, and named as the actor of what it changes.
 */
let t: TestApp;
let admin: Signed;
let chile: string;
let peru: string;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_API_KEYS: '5' });
  admin = await login(t, demo.admin);
  chile = admin.company('Demo Chile');
  peru = admin.company('Demo Perú');
});
afterAll(async () => {
  await t?.close();
});

type Json = Record<string, unknown>;
const makeKey = async (payload: Json, company = chile) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: as(admin, company), payload });
  return { status: res.statusCode, body: res.json() as Json & { key: string; _id: string; errors?: { msg: string } } };
};
const withKey = (key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers }, payload });
/** Each test its own key: the per-key limit of 5 a minute never mixes their calls. */
const leadsReader = async () => (await makeKey({ name: 'BI', permissions: ['leads.list', 'leads.read'] })).body;

describe('a key made on the screen', () => {
  it('is answered once with its secret, listed after with its prefix and creator only, and kept as a hash', async () => {
    const made = await makeKey({ name: 'ERP', permissions: ['leads.list', 'leads.create', 'leads.list'] });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^mst_[A-Za-z0-9_-]{43}$/);
    expect(made.body).toMatchObject({ name: 'ERP', prefix: made.body.key.slice(0, 12), permissions: ['leads.list', 'leads.create'], status: 'active', lastUsedAt: null });
    const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: as(admin, chile) });
    const listed = (list.json().payload as Json[]).find((k) => k._id === made.body._id);
    expect(listed).toMatchObject({ name: 'ERP', prefix: made.body.key.slice(0, 12), createdBy: { _id: admin.user._id } });
    expect(JSON.stringify(list.json())).not.toContain(made.body.key);
    const [row] = await t.sql<{ secret_hash: string }>('select secret_hash from api_keys where id = $1', [made.body._id]);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secret_hash).not.toContain(made.body.key.slice(4));
    // another company's list does not show it
    const other = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: as(admin, peru) });
    expect((other.json().payload as Json[]).map((k) => k._id)).not.toContain(made.body._id);
  });

  it('refuses a key without a name or permissions, a permission that does not exist or is a session’s, and a past expiry, in Spanish', async () => {
    expect((await makeKey({ name: ' ', permissions: ['leads.list'] })).body.errors?.msg).toMatch(/Ponle un nombre a la clave/);
    expect((await makeKey({ name: 'x', permissions: [] })).body.errors?.msg).toBe('Elige al menos un permiso para la clave');
    for (const permission of ['leads.volar', 'users.update', 'api.create', 'roles.update']) {
      const refused = await makeKey({ name: 'x', permissions: [permission] });
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.msg).toMatch(/Ese permiso no existe/);
    }
    const past = await makeKey({ name: 'x', permissions: ['leads.list'], expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.errors?.msg).toBe('La fecha de vencimiento debe ser futura');
    expect(Number((await t.sql<{ n: number }>(`select count(*)::int as n from api_keys where name = 'x'`))[0].n)).toBe(0);
  });

  it('is made only by whom the matrix lets (the agent is refused) and never with more than its maker holds', async () => {
    const agent = await login(t, demo.agent);
    const res = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: as(agent), payload: { name: 'mía', permissions: ['leads.list'] } });
    expect(res.statusCode).toBe(401);
    // given the keys' module, the agent still cannot hand a key what agents lack (exporting leads)
    const grant = `insert into role_permissions (corporation_id, role, module, action) values ($1, 'agent', 'api', 'create')`;
    await t.sql(grant, [admin.user.corporation._id]);
    try {
      const refused = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: as(agent), payload: { name: 'export', permissions: ['leads.list', 'leads.export'] } });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().errors.msg).toBe('No puedes darle a una clave un permiso que tú no tienes: Leads y contactos › Exportar');
      const allowed = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: as(agent), payload: { name: 'lectura', permissions: ['leads.list'] } });
      expect(allowed.statusCode).toBe(201);
    } finally {
      await t.sql(`delete from role_permissions where role = 'agent' and module = 'api'`);
    }
  });
});

describe('a key as a bearer', () => {
  it('reads its company without X-Company-Id, its own company header is fine, another company’s is refused', async () => {
    const key = await leadsReader();
    const leads = await withKey(key.key, 'GET', '/api/leads?limit=5');
    expect(leads.statusCode).toBe(200);
    const [{ n }] = await t.sql<{ n: number }>('select count(*)::int as n from leads where company_id = $1', [chile]);
    expect(leads.json().totalDocs).toBe(n);
    expect((await withKey(key.key, 'GET', '/api/leads?limit=1', undefined, { 'x-company-id': chile })).statusCode).toBe(200);
    const other = await withKey(key.key, 'GET', '/api/leads?limit=1', undefined, { 'x-company-id': peru });
    expect(other.statusCode).toBe(401);
    expect(other.json().errors.msg).toBe(apiKeyMessages.otherCompany);
    // its use is noted
    const [row] = await t.sql<{ last_used_at: string | null }>('select last_used_at from api_keys where id = $1', [key._id]);
    expect(row.last_used_at).not.toBeNull();
  });

  it('does only what its permissions say: reading leads, not writing them nor reading orders', async () => {
    const key = await leadsReader();
    const write = await withKey(key.key, 'POST', '/api/leads', { name: 'No debería', platform: 'whatsapp', status: 'sin-asignar' });
    expect(write.statusCode).toBe(401);
    expect(write.json().errors.msg).toMatch(/No tienes permiso/);
    expect((await withKey(key.key, 'GET', '/api/orders')).statusCode).toBe(401);
    expect((await t.sql(`select 1 from leads where name = 'No debería'`)).length).toBe(0);
    // nor the keys themselves
    expect((await withKey(key.key, 'GET', '/api/api-keys')).statusCode).toBe(401);
  });

  it('is recorded as the actor of what it changes', async () => {
    const writer = (await makeKey({ name: 'Tienda', permissions: ['leads.create', 'leads.update'] })).body;
    const made = await withKey(writer.key, 'POST', '/api/leads', { name: 'Desde el ERP', platform: 'whatsapp', status: 'sin-asignar' });
    expect(made.statusCode).toBe(201);
    const id = made.json()._id as string;
    const events = await t.sql<{ type: string; actor: { type: string; id?: string } }>('select type, actor from domain_events where aggregate_id = $1 order by position', [id]);
    expect(events.map((e) => e.type)).toContain('lead.created');
    expect(events.every((e) => e.actor.type === 'api_key' && e.actor.id === writer._id)).toBe(true);
    // a person's change afterwards is not the key's
    const edited = await t.app.inject({ method: 'PUT', url: `/api/leads/${id}`, headers: as(admin, chile), payload: { name: 'Editado por una persona' } });
    expect(edited.statusCode).toBe(200);
    const after = await t.sql<{ actor: { type: string } }>(`select actor from domain_events where aggregate_id = $1 and type <> 'lead.created' order by position`, [id]);
    expect(after.every((e) => e.actor.type !== 'api_key')).toBe(true);
  });
});

describe('a key stops', () => {
  it('on the very next request after it is revoked; revoking it again is a 404', async () => {
    const key = await leadsReader();
    expect((await withKey(key.key, 'GET', '/api/leads?limit=1')).statusCode).toBe(200);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${key._id}`, headers: as(admin, chile) });
    expect(revoked.statusCode).toBe(204);
    const next = await withKey(key.key, 'GET', '/api/leads?limit=1');
    expect(next.statusCode).toBe(401);
    expect(next.json().errors.msg).toBe(apiKeyMessages.invalid);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${key._id}`, headers: as(admin, chile) });
    expect(again.statusCode).toBe(404);
    // another company cannot revoke ours
    const mine = await leadsReader();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${mine._id}`, headers: as(admin, peru) })).statusCode).toBe(404);
    expect((await withKey(mine.key, 'GET', '/api/leads?limit=1')).statusCode).toBe(200);
  });

  it('when it expires, with its own message; a made-up key is refused like a revoked one', async () => {
    const key = (await makeKey({ name: 'Temporal', permissions: ['leads.list'], expiresAt: new Date(Date.now() + 3_600_000).toISOString() })).body;
    expect((await withKey(key.key, 'GET', '/api/leads?limit=1')).statusCode).toBe(200);
    await t.sql(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [key._id]);
    const expired = await withKey(key.key, 'GET', '/api/leads?limit=1');
    expect(expired.statusCode).toBe(401);
    expect(expired.json().errors.msg).toBe(apiKeyMessages.expired);
    const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: as(admin, chile) });
    expect((list.json().payload as Json[]).find((k) => k._id === key._id)?.status).toBe('expired');
    const fake = await withKey(`mst_${'a'.repeat(43)}`, 'GET', '/api/leads?limit=1');
    expect(fake.statusCode).toBe(401);
    expect(fake.json().errors.msg).toBe(apiKeyMessages.invalid);
  });

  it('past its limit a minute: 429 with Retry-After, and every answer tells the limit left', async () => {
    const key = await leadsReader();
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await withKey(key.key, 'GET', '/api/leads?limit=1'));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0', '0']);
    expect(answers[0].headers['ratelimit-limit']).toBe('5');
    const refused = answers[5];
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json().errors.msg).toMatch(/^Demasiadas solicitudes con esta clave de API\. Espera (\d+ segundos?|1 minuto) e inténtalo de nuevo$/);
    // another key of the same company is not held back
    expect((await withKey((await leadsReader()).key, 'GET', '/api/leads?limit=1')).statusCode).toBe(200);
  });
});
