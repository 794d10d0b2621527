import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Issue 26, "who may change whom" (decision 0059), written as the attacks: a supervisor who
 * registered an admin, demoted or disabled the admin, or reset the admin's password with their
 * own current password, then signed in as that admin.
 */
let t: TestApp;
let admin: Signed;
let supervisor: Signed;
let peru: string;
let chile: string;
let adminId: string;
const supervisorLogin = { email: 'sonia@demo.com', password: 'supervisora1', corporation: 'demo' };

const call = (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, peru), payload });

async function register(by: Signed, email: string, role: string, companyIds = [peru]) {
  return call(by, 'POST', '/register', { first_name: 'Persona', last_name: 'Prueba', email, password: 'clave-segura1', role, companyIds });
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  peru = admin.company('Demo Perú');
  chile = admin.company('Demo Chile');
  adminId = (await call(admin, 'GET', '/users?filter=admin@demo.com')).json().payload[0]._id;
  const made = await call(admin, 'POST', '/register', {
    first_name: 'Sonia',
    last_name: 'Supervisora',
    email: supervisorLogin.email,
    password: supervisorLogin.password,
    role: 'supervisor',
    companyIds: [peru],
  });
  expect(made.statusCode).toBe(201);
  supervisor = await login(t, supervisorLogin);
});
afterAll(async () => {
  await t?.close();
});

describe('a supervisor cannot climb above their role', () => {
  it('cannot register an admin (nor another supervisor), and no account is made', async () => {
    for (const role of ['admin', 'supervisor']) {
      const res = await register(supervisor, `nuevo-${role}@demo.com`, role);
      expect(res.statusCode).toBe(401);
      expect(res.json().errors.code).toBe('FORBIDDEN');
      expect(res.json().errors.msg).toMatch(role === 'admin' ? /Solo un administrador puede dar el rol Administrador/ : /rol Supervisor/);
      const signIn = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: `nuevo-${role}@demo.com`, password: 'clave-segura1', corporation: 'demo' } });
      expect(signIn.statusCode).toBe(401);
    }
    // an agent they may make
    expect((await register(supervisor, 'nuevo-agente@demo.com', 'agent')).statusCode).toBe(201);
  });

  it('cannot demote, disable or rename an admin', async () => {
    for (const body of [{ role: 'agent' }, { disabled: true }, { first_name: 'Hackeado' }]) {
      const res = await call(supervisor, 'PUT', `/users/${adminId}`, body);
      expect(res.statusCode).toBe(401);
      expect(res.json().errors.msg).toMatch(/Solo un administrador puede/);
    }
    const still = (await call(admin, 'GET', `/users/${adminId}`)).json();
    expect(still).toMatchObject({ role: 'admin', disabled: false, first_name: 'Ana' });
    // the admin still works
    expect((await call(admin, 'GET', '/users')).statusCode).toBe(200);
  });

  it('cannot reset an admin’s password with their own current password', async () => {
    const res = await call(supervisor, 'PUT', `/users/${adminId}/update-password`, { newPassword: 'tomada-1234', currentPassword: supervisorLogin.password });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors.msg).toBe('Solo un administrador puede cambiar la contraseña de un administrador');
    const asAdmin = await t.app.inject({ method: 'POST', url: '/api/login', payload: { ...demo.admin, password: 'tomada-1234' } });
    expect(asAdmin.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: demo.admin })).statusCode).toBe(200);
  });

  it('cannot remove an admin from the company', async () => {
    const res = await call(supervisor, 'DELETE', `/users/${adminId}`);
    expect(res.statusCode).toBe(401);
    expect((await call(admin, 'GET', `/users/${adminId}`)).statusCode).toBe(200);
  });

  it('cannot promote an agent to supervisor or admin, but manages agents', async () => {
    const made = await register(admin, 'agente-dos@demo.com', 'agent');
    const id = made.json().user._id;
    for (const role of ['supervisor', 'admin']) {
      expect((await call(supervisor, 'PUT', `/users/${id}`, { role })).statusCode).toBe(401);
    }
    expect((await call(admin, 'GET', `/users/${id}`)).json().role).toBe('agent');
    const renamed = await call(supervisor, 'PUT', `/users/${id}`, { first_name: 'Renombrado' });
    expect(renamed.statusCode).toBe(200);
    expect((await call(supervisor, 'PUT', `/users/${id}/update-password`, { newPassword: 'nueva-clave-1', currentPassword: supervisorLogin.password })).statusCode).toBe(200);
  });

  it('counts the target’s role in every company: an admin elsewhere is still an admin', async () => {
    // an admin of Demo Chile who is only an agent in Demo Perú
    const made = await register(admin, 'doble@demo.com', 'admin', [chile]);
    const id = made.json().user._id;
    await t.sql(`insert into memberships (company_id, user_id, role, is_default) values ($1, $2, 'agent', false)`, [peru, id]);
    for (const [method, url, body] of [
      ['PUT', `/users/${id}`, { disabled: true }],
      ['PUT', `/users/${id}/update-password`, { newPassword: 'tomada-doble1', currentPassword: supervisorLogin.password }],
      ['DELETE', `/users/${id}`, undefined],
    ] as const) {
      const res = await call(supervisor, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().errors.msg).toMatch(/Solo un administrador puede/);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'doble@demo.com', password: 'clave-segura1', corporation: 'demo' } })).statusCode).toBe(200);
  });

  it('cannot edit its own role’s permissions, nor give agents what it lacks, even when allowed to edit roles', async () => {
    // the owner lets supervisors edit roles
    const matrix = (await call(admin, 'GET', '/roles')).json();
    const sup = matrix.roles.find((r: { role: string }) => r.role === 'supervisor');
    const agentRole = matrix.roles.find((r: { role: string }) => r.role === 'agent');
    const withRoles = { ...sup.permissions, roles: ['list', 'update'] };
    expect((await call(admin, 'PUT', '/roles/supervisor', { permissions: withRoles })).statusCode).toBe(200);
    supervisor = await login(t, supervisorLogin);

    const self = await call(supervisor, 'PUT', '/roles/supervisor', { permissions: { ...withRoles, companies: ['list', 'read', 'create', 'update', 'delete'] } });
    expect(self.statusCode).toBe(401);
    expect(self.json().errors.msg).toMatch(/cambiar los permisos del rol Supervisor/);
    const beyond = await call(supervisor, 'PUT', '/roles/agent', { permissions: { ...agentRole.permissions, companies: ['create'] } });
    expect(beyond.statusCode).toBe(401);
    expect(beyond.json().errors.msg).toMatch(/No puedes dar un permiso que tu rol no tiene \(companies · create\)/);
    const after = (await call(admin, 'GET', '/roles')).json();
    expect(after.roles.find((r: { role: string }) => r.role === 'agent').permissions.companies ?? []).not.toContain('create');
    // within its own reach it may
    expect((await call(supervisor, 'PUT', '/roles/agent', { permissions: agentRole.permissions })).statusCode).toBe(200);
  });
});

describe('an admin manages everyone', () => {
  it('registers an admin and demotes them', async () => {
    const made = await register(admin, 'otro-admin@demo.com', 'admin');
    expect(made.statusCode).toBe(201);
    const res = await call(admin, 'PUT', `/users/${made.json().user._id}`, { role: 'supervisor' });
    expect(res.statusCode).toBe(200);
  });
});
