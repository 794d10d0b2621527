import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let agent: Signed;
let acme: Signed;
beforeAll(async () => {
  t = await startTestApp();
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
});
afterAll(async () => {
  await t?.close();
});

const authCheck = (s: Signed, module: string, action: string, company?: string) =>
  t.app.inject({ url: `/api/auth?module=${module}&action=${action}`, headers: as(s, company) });

describe('company scope', () => {
  it('refuses an X-Company-Id the user has no membership in, with a Spanish 401', async () => {
    const chile = admin.company('Demo Chile');
    const res = await authCheck(agent, 'profile', 'read', chile);
    expect(res.statusCode).toBe(401);
    expect(res.json().errors).toMatchObject({ code: 'COMPANY_FORBIDDEN', msg: 'No perteneces a la compañía seleccionada' });
    expect((await authCheck(acme, 'profile', 'read', admin.user.companyId)).statusCode).toBe(401);
    expect((await authCheck(admin, 'profile', 'read', chile)).statusCode).toBe(200);
    const missing = await t.app.inject({ url: '/api/auth?module=profile&action=read', headers: { authorization: `Bearer ${admin.token}` } });
    expect(missing.statusCode).toBe(401);
  });

  it('never reads or writes a user of another corporation or company', async () => {
    const acmeUser = acme.user._id;
    const read = await t.app.inject({ url: `/api/users/${acmeUser}`, headers: as(admin) });
    expect(read.statusCode).toBe(404);
    const write = await t.app.inject({ method: 'PUT', url: `/api/users/${acmeUser}`, headers: as(admin), payload: { first_name: 'Hackeado' } });
    expect(write.statusCode).toBe(404);
    const pw = await t.app.inject({ method: 'PUT', url: `/api/users/${acmeUser}/update-password`, headers: as(admin), payload: { newPassword: 'robada-123', currentPassword: demo.admin.password } });
    expect(pw.statusCode).toBe(404);
    const [row] = await t.sql<{ first_name: string }>('select first_name from users where id = $1', [acmeUser]);
    expect(row.first_name).toBe('Alicia');
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: demo.acme })).statusCode).toBe(200);

    // The agent works only in Perú; in Chile the admin cannot see them.
    const inChile = await t.app.inject({ url: `/api/users/${agent.user._id}`, headers: as(admin, admin.company('Demo Chile')) });
    expect(inChile.statusCode).toBe(404);
    const inPeru = await t.app.inject({ url: `/api/users/${agent.user._id}`, headers: as(admin) });
    expect(inPeru.json()).toMatchObject({ email: 'agente@demo.com', role: 'agent' });
  });

  it('does not let an admin add people to a company of another corporation', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: as(admin),
      payload: { first_name: 'X', last_name: 'Y', email: 'intruso@demo.com', password: 'password1', role: 'agent', companyIds: [acme.user.companyId] },
    });
    expect(res.statusCode).toBe(400);
    const rows = await t.sql(`select 1 from users where email = 'intruso@demo.com'`);
    expect(rows).toHaveLength(0);
  });
});

describe('permissions', () => {
  it('answers from the stored matrix per role', async () => {
    expect((await authCheck(admin, 'users', 'create')).json()).toEqual({ allowed: true, role: 'admin' });
    expect((await authCheck(agent, 'users', 'create')).json()).toEqual({ allowed: false, role: 'agent' });
    expect((await authCheck(agent, 'profile', 'update')).json().allowed).toBe(true);
    const bad = await authCheck(agent, 'nope', 'list');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toContain('Módulo desconocido');
  });

  it('changes take effect from the database, not from code', async () => {
    await t.sql(`insert into role_permissions (corporation_id, role, module, action)
                 select corporation_id, 'agent', 'users', 'create' from users where id = $1`, [agent.user._id]);
    expect((await authCheck(agent, 'users', 'create')).json().allowed).toBe(true);
    await t.sql(`delete from role_permissions where role = 'agent' and module = 'users' and action = 'create'`);
    expect((await authCheck(agent, 'users', 'create')).json().allowed).toBe(false);
  });

  it('a denied action is a 401 with a Spanish message and writes nothing', async () => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/users/${admin.user._id}`, headers: as(agent), payload: { first_name: 'Agente' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors).toMatchObject({ code: 'FORBIDDEN', msg: 'No tienes permiso para editar usuarios (Usuarios · Editar)' });
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: as(agent),
      payload: { first_name: 'X', last_name: 'Y', email: 'nuevo@demo.com', password: 'password1', role: 'admin', companyIds: [agent.user.companyId] },
    });
    expect(reg.statusCode).toBe(401);
    const pw = await t.app.inject({ method: 'PUT', url: `/api/users/${admin.user._id}/update-password`, headers: as(agent), payload: { newPassword: 'robada-123', currentPassword: demo.agent.password } });
    expect(pw.statusCode).toBe(401);
    const [row] = await t.sql<{ first_name: string }>('select first_name from users where id = $1', [admin.user._id]);
    expect(row.first_name).toBe('Ana');
    expect(await t.sql(`select 1 from users where email = 'nuevo@demo.com'`)).toHaveLength(0);
  });

  it('an admin registers a user who can then sign in; a duplicate e-mail is a 409', async () => {
    const payload = { first_name: 'Nora', last_name: 'Nueva', email: 'nora@demo.com', password: 'password1', role: 'supervisor', companyIds: [admin.company('Demo Chile')] };
    const res = await t.app.inject({ method: 'POST', url: '/api/register', headers: as(admin), payload });
    expect(res.statusCode).toBe(201);
    expect(res.json().msg).toBe('Registro guardado con éxito');
    const nora = await login(t, { email: 'nora@demo.com', password: 'password1', corporation: 'demo' });
    expect(nora.user.corporation.companies.map((c) => c.company.name)).toEqual(['Demo Chile']);
    const again = await t.app.inject({ method: 'POST', url: '/api/register', headers: as(admin), payload });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.msg).toBe('Ya existe un usuario con ese correo');
  });
});
