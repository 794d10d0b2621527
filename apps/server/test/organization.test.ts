import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
beforeAll(async () => {
  t = await startTestApp();
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
});
afterAll(async () => {
  await t?.close();
});

const call = (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, company?: string) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company ?? (s === admin ? peru : undefined)), payload });

describe('GET /api/permissions', () => {
  it('tells the web what each role may do in the current company', async () => {
    const a = (await call(admin, 'GET', '/permissions')).json();
    expect(a.role).toBe('admin');
    expect(a.permissions.users).toEqual(expect.arrayContaining(['list', 'create', 'update', 'delete']));
    const g = (await call(agent, 'GET', '/permissions')).json();
    expect(g.role).toBe('agent');
    expect(g.permissions.users).toBeUndefined();
    expect(g.permissions.catalog).toEqual(['list', 'read']);
    expect(g.permissions.leads).toEqual(expect.arrayContaining(['create', 'update']));
    expect(g.permissions.leads).not.toContain('delete');
  });
});

describe('users of a company', () => {
  it('lists members sorted by name, searches and pages', async () => {
    const res = await call(admin, 'GET', '/users');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.totalDocs).toBe(2);
    expect(page.payload.map((u: { first_name: string }) => u.first_name)).toEqual(['Ana', 'Carlos']);
    expect(page.payload[0]).not.toHaveProperty('passwordHash');
    expect(page.payload[0]).not.toHaveProperty('password_hash');
    const desc = (await call(admin, 'GET', '/users?order=desc')).json();
    expect(desc.payload[0].first_name).toBe('Carlos');
    const found = (await call(admin, 'GET', '/users?filter=agente@')).json();
    expect(found.payload.map((u: { email: string }) => u.email)).toEqual(['agente@demo.com']);
    expect((await call(admin, 'GET', '/users?sort=password')).statusCode).toBe(400);
    // Acme's admin sees only Acme's people
    expect((await call(acme, 'GET', '/users')).json().payload.map((u: { email: string }) => u.email)).toEqual(['admin@acme.com']);
  });

  it('is not for agents', async () => {
    const res = await call(agent, 'GET', '/users');
    expect(res.statusCode).toBe(401);
    expect(res.json().errors.code).toBe('FORBIDDEN');
  });

  it('removes a user from the company; with no company left the account is disabled', async () => {
    const created = await call(admin, 'POST', '/register', {
      first_name: 'Lucía',
      last_name: 'Temporal',
      email: 'lucia@demo.com',
      password: 'temporal123',
      role: 'agent',
      companyIds: [peru],
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().user._id;
    const lucia = await login(t, { email: 'lucia@demo.com', password: 'temporal123', corporation: 'demo' });
    expect((await call(acme, 'DELETE', `/users/${id}`)).statusCode).toBe(404);
    const del = await call(admin, 'DELETE', `/users/${id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().msg).toBe('Registro eliminado con éxito');
    expect((await call(admin, 'GET', '/users')).json().totalDocs).toBe(2);
    // signed out at once, and cannot sign in again
    expect((await call(lucia, 'GET', '/auth?module=profile&action=read')).statusCode).toBe(401);
    const again = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'lucia@demo.com', password: 'temporal123', corporation: 'demo' } });
    expect(again.statusCode).toBe(401);
  });

  it('refuses to remove yourself', async () => {
    const me = (await call(admin, 'GET', '/users?filter=admin@demo.com')).json().payload[0];
    const res = await call(admin, 'DELETE', `/users/${me._id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe('No puedes quitarte a ti mismo de la compañía');
  });
});

describe('companies of a corporation', () => {
  it('lists the caller’s companies, creates, renames, saves settings and deletes', async () => {
    const list = (await call(admin, 'GET', '/companies')).json();
    expect(list.payload.map((c: { name: string }) => c.name)).toEqual(['Demo Chile', 'Demo Perú']);
    expect((await call(acme, 'GET', '/companies')).json().payload.map((c: { name: string }) => c.name)).toEqual(['Acme']);

    const bad = await call(admin, 'POST', '/companies', { name: '', country: 'XX' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'name', msg: 'Este campo es requerido' })]),
    );
    expect((await call(admin, 'POST', '/companies', { name: 'Demo Chile', country: 'CL' })).statusCode).toBe(409);

    const created = await call(admin, 'POST', '/companies', { name: 'Demo Colombia', country: 'CO' });
    expect(created.statusCode).toBe(201);
    const id = created.json()._id;
    // the creator works in it straight away
    expect((await call(admin, 'GET', '/locaciones', undefined, id)).statusCode).toBe(200);

    const put = await call(admin, 'PUT', `/companies/${id}`, { name: 'Demo Bogotá', settings: { timezone: 'America/Bogota', currency: 'COP' } });
    expect(put.json()).toMatchObject({ name: 'Demo Bogotá', country: 'CO', settings: { timezone: 'America/Bogota', currency: 'COP' } });
    expect((await call(admin, 'PUT', `/companies/${id}`, { settings: { currency: 'USD' } })).json().settings).toEqual({
      timezone: 'America/Bogota',
      currency: 'USD',
    });
    expect((await call(admin, 'PUT', `/companies/${id}`, { settings: { currency: 'XYZ' } })).statusCode).toBe(400);
    // the session carries the company's time zone (its setting, else its country's), for schedules and logs
    const { user } = await login(t, demo.admin);
    expect(user.corporation.companies.find((m) => m.company._id === id)?.company.timezone).toBe('America/Bogota');
    expect(user.corporation.companies.find((m) => m.company.name === 'Demo Chile')?.company.timezone).toBe('America/Santiago');

    // another corporation cannot see, change or delete it
    expect((await call(acme, 'PUT', `/companies/${id}`, { name: 'Robada' })).statusCode).toBe(404);
    expect((await call(acme, 'DELETE', `/companies/${id}`)).statusCode).toBe(404);
    // nor an agent
    expect((await call(agent, 'DELETE', `/companies/${id}`)).statusCode).toBe(401);

    const inside = await call(admin, 'DELETE', `/companies/${id}`, undefined, id);
    expect(inside.statusCode).toBe(400);
    expect(inside.json().errors.msg).toBe('No puedes eliminar la compañía en la que estás trabajando');
    expect((await call(admin, 'DELETE', `/companies/${id}`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', '/companies')).json().totalDocs).toBe(2);
  });

  it('never deletes the company being worked in, so a corporation keeps at least one', async () => {
    const acmeId = acme.company('Acme');
    const other = await call(acme, 'POST', '/companies', { name: 'Acme Sur', country: 'CL' });
    const otherId = other.json()._id;
    expect((await call(acme, 'DELETE', `/companies/${acmeId}`, undefined, otherId)).statusCode).toBe(200);
    const last = await call(acme, 'DELETE', `/companies/${otherId}`, undefined, otherId);
    expect(last.statusCode).toBe(400);
    expect((await call(acme, 'GET', '/companies', undefined, otherId)).json().totalDocs).toBe(1);
  });
});

describe('group members', () => {
  it('lists and replaces a group’s members among the company’s users', async () => {
    const group = (await call(admin, 'POST', '/groups', { name: 'Turno mañana' })).json();
    const people = (await call(admin, 'GET', '/users')).json().payload as Array<{ _id: string; first_name: string }>;
    expect((await call(admin, 'GET', `/groups/${group._id}/users`)).json()).toEqual({ payload: [] });

    const put = await call(admin, 'PUT', `/groups/${group._id}/users/`, { userIds: people.map((p) => p._id) });
    expect(put.statusCode).toBe(200);
    expect(put.json().msg).toBe('Usuarios actualizados con éxito');
    expect((await call(admin, 'GET', `/groups/${group._id}/users`)).json().payload.map((u: { first_name: string }) => u.first_name)).toEqual(['Ana', 'Carlos']);

    // a user of another corporation cannot be planted in the group; nothing changes
    // (Acme's first company was deleted above: sign in again to land in the one it kept)
    const acmeNow = await login(t, demo.acme);
    const acmeUser = (await call(acmeNow, 'GET', '/users')).json().payload[0]._id;
    const notAList = await call(admin, 'PUT', `/groups/${group._id}/users/`, { userIds: people[0]._id });
    expect(notAList.json().errors.details).toEqual([{ path: 'userIds', msg: 'Debe ser una lista' }]);
    const bad = await call(admin, 'PUT', `/groups/${group._id}/users/`, { userIds: [people[0]._id, acmeUser] });
    expect(bad.statusCode).toBe(400);
    expect((await call(admin, 'GET', `/groups/${group._id}/users`)).json().payload).toHaveLength(2);
    // another company's caller does not see the group at all
    expect((await call(acmeNow, 'GET', `/groups/${group._id}/users`)).statusCode).toBe(404);
    expect((await call(acmeNow, 'PUT', `/groups/${group._id}/users/`, { userIds: [] })).statusCode).toBe(404);

    const only = await call(admin, 'PUT', `/groups/${group._id}/users`, { userIds: [people[1]._id] });
    expect(only.json().payload.map((u: { first_name: string }) => u.first_name)).toEqual(['Carlos']);
    // deleting the group takes its member list with it
    expect((await call(admin, 'DELETE', `/groups/${group._id}`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/groups/${group._id}/users`)).statusCode).toBe(404);
  });
});
