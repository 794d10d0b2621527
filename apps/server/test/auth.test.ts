import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, cookieOf, demo, JWT_SECRET, login, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe(`health (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('answers ok with the database reachable', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('tells which database runs only to an admin', async () => {
    expect((await t.app.inject('/api/version')).statusCode).toBe(401);
    const agent = await login(t, demo.agent);
    const refused = await t.app.inject({ url: '/api/version', headers: as(agent) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors.code).toBe('FORBIDDEN');
    const admin = await login(t, demo.admin);
    const version = await t.app.inject({ url: '/api/version', headers: as(admin) });
    expect(version.json().database).toBe(t.kind);
  });

  it('serves the OpenAPI description and its page to anyone, without a token', async () => {
    const json = await t.app.inject('/api/docs/json');
    expect(json.statusCode).toBe(200);
    expect(json.json().paths['/api/leads']).toBeTruthy();
    const page = await t.app.inject('/api/docs');
    expect([200, 302]).toContain(page.statusCode);
    const html = await t.app.inject(page.statusCode === 302 ? String(page.headers.location) : '/api/docs');
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('swagger');
  });
});

describe('login', () => {
  it('answers the session user of SPEC §3 with the default company selected', async () => {
    const res = await post('/api/login', demo.admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe(200);
    expect(body.token).toMatch(/^ey/);
    expect(body.user).toMatchObject({ first_name: 'Ana', last_name: 'Administradora', token: body.token });
    const companies = body.user.corporation.companies;
    expect(companies.map((c: { company: { name: string } }) => c.company.name).sort()).toEqual(['Demo Chile', 'Demo Perú']);
    const def = companies.find((c: { default: boolean }) => c.default);
    expect(def.company.name).toBe('Demo Perú');
    expect(body.user.companyId).toBe(def.company._id);
    expect(String(res.headers['set-cookie'])).toMatch(/mostrador_session=.*HttpOnly/i);
  });

  it('refuses a wrong password and an unknown e-mail with the same Spanish message', async () => {
    const wrong = await post('/api/login', { ...demo.agent, password: 'nope-nope' });
    const unknown = await post('/api/login', { ...demo.agent, email: 'nadie@demo.com' });
    const otherCorp = await post('/api/login', { ...demo.agent, corporation: 'acme' });
    for (const res of [wrong, unknown, otherCorp]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().errors).toMatchObject({ code: 'INVALID_CREDENTIALS', msg: 'Correo, contraseña o corporación incorrectos' });
    }
  });

  it('validates the body with the spec messages', async () => {
    const res = await post('/api/login', { email: 'no-es-correo', password: '', corporation: 'demo' });
    expect(res.statusCode).toBe(400);
    const details = res.json().errors.details;
    expect(details).toContainEqual({ path: 'email', msg: 'Este campo debe ser un email válido' });
    expect(details).toContainEqual({ path: 'password', msg: 'Este campo es requerido' });
  });

  it('answers bad input with a 4xx and a Spanish message, never a 500', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: '{"email": "a@b.c",',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors.msg).toBe('El cuerpo de la solicitud no es un JSON válido');

    const wrongTypes = await post('/api/login', { email: 42, password: ['x'], corporation: { a: 1 } });
    expect(wrongTypes.statusCode).toBe(400);
    expect(wrongTypes.json().errors.code).toBe('VALIDATION');

    const huge = await post('/api/login', { email: 'a@b.co', password: 'x'.repeat(2_000_000), corporation: 'demo' });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().errors.msg).toBe('La solicitud es demasiado grande');

    const english = await post('/api/login', { ...demo.agent, password: 'nope-nope' }, { 'accept-language': 'en-US' });
    expect(english.json().errors.msg).toBe('Wrong e-mail, password or corporation');
  });
});

describe('tokens', () => {
  it('refuses calls without a token, with a forged one, and with an expired one (distinct codes)', async () => {
    const s = await login(t, demo.admin);
    const none = await t.app.inject({ method: 'GET', url: '/api/auth?module=users&action=list', headers: { 'x-company-id': s.user.companyId } });
    expect(none.statusCode).toBe(401);
    expect(none.json().errors.code).toBe('TOKEN_MISSING');

    const forged = await new SignJWT({ sid: 'x', ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(s.user._id).setExpirationTime('5m').sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const bad = await t.app.inject({ url: '/api/auth?module=users&action=list', headers: as({ ...s, token: forged }) });
    expect(bad.json().errors.code).toBe('TOKEN_INVALID');

    const claims = JSON.parse(Buffer.from(s.token.split('.')[1], 'base64url').toString());
    const expired = await new SignJWT({ sid: claims.sid, ver: claims.ver })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(JWT_SECRET));
    const old = await t.app.inject({ url: '/api/auth?module=users&action=list', headers: as({ ...s, token: expired }) });
    expect(old.statusCode).toBe(401);
    expect(old.json().errors).toMatchObject({ code: 'TOKEN_EXPIRED', msg: 'Tu sesión ha expirado. Inicia sesión de nuevo' });
  });

  it('GET /api/token refreshes from the session cookie into a working token', async () => {
    const s = await login(t, demo.admin);
    const res = await t.app.inject({ url: '/api/token', headers: { cookie: s.cookie } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user.email).toBe('admin@demo.com');
    const ok = await t.app.inject({ url: '/api/auth?module=users&action=list', headers: as({ ...s, token: body.token }) });
    expect(ok.statusCode).toBe(200);
    const without = await t.app.inject({ url: '/api/token' });
    expect(without.statusCode).toBe(401);
  });

  it('logout revokes the token and the refresh cookie at once', async () => {
    const s = await login(t, demo.admin);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { ...as(s), cookie: s.cookie } });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ url: '/api/auth?module=users&action=list', headers: as(s) });
    expect(after.statusCode).toBe(401);
    expect(after.json().errors.code).toBe('SESSION_REVOKED');
    expect((await t.app.inject({ url: '/api/token', headers: { cookie: s.cookie } })).statusCode).toBe(401);
  });

  it('a password change needs the current password: missing or wrong, nothing changes and no session ends', async () => {
    const who = { email: 'pw2@demo.com', password: 'inicial123', corporation: 'demo' };
    const admin = await login(t, demo.admin);
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: as(admin),
      payload: { first_name: 'Pío', last_name: 'Clave', email: who.email, password: who.password, role: 'agent', companyIds: [admin.user.companyId] },
    });
    const s = await login(t, who);
    const url = `/api/users/${s.user._id}/update-password`;
    const missing = await t.app.inject({ method: 'PUT', url, headers: as(s), payload: { newPassword: 'robada-1234' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.msg).toBe('Contraseña actual: Este campo es requerido');
    const wrong = await t.app.inject({ method: 'PUT', url, headers: as(s), payload: { newPassword: 'robada-1234', currentPassword: 'adivinada1' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toMatchObject({ msg: 'La contraseña actual no es correcta', details: [{ path: 'currentPassword' }] });
    expect((await t.app.inject({ url: '/api/auth?module=profile&action=read', headers: as(s) })).statusCode).toBe(200);
    expect((await post('/api/login', who)).statusCode).toBe(200);
    // an admin setting someone else's password confirms with their own
    const byAdmin = await t.app.inject({ method: 'PUT', url, headers: as(admin), payload: { newPassword: 'puesta-por-admin', currentPassword: who.password } });
    expect(byAdmin.statusCode).toBe(400);
    const ok = await t.app.inject({ method: 'PUT', url, headers: as(admin), payload: { newPassword: 'puesta-por-admin', currentPassword: demo.admin.password } });
    expect(ok.statusCode).toBe(200);
    expect((await post('/api/login', { ...who, password: 'puesta-por-admin' })).statusCode).toBe(200);
  });

  it('a password change revokes every other session; the changer stays signed in on a new one', async () => {
    const who = { email: 'pw@demo.com', password: 'inicial123', corporation: 'demo' };
    const admin = await login(t, demo.admin);
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: as(admin),
      payload: { first_name: 'Pía', last_name: 'Clave', email: who.email, password: who.password, role: 'agent', companyIds: [admin.user.companyId] },
    });
    expect(reg.statusCode).toBe(201);
    const laptop = await login(t, who);
    const phone = await login(t, who);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${laptop.user._id}/update-password`,
      headers: as(laptop),
      payload: { newPassword: 'nueva-clave-1', currentPassword: who.password },
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json();
    expect(fresh.msg).toBe('Contraseña actualizada con éxito');
    for (const old of [laptop, phone]) {
      expect((await t.app.inject({ url: '/api/auth?module=profile&action=read', headers: as(old) })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ url: '/api/token', headers: { cookie: phone.cookie } })).statusCode).toBe(401);
    const ok = await t.app.inject({ url: '/api/auth?module=profile&action=read', headers: as({ ...laptop, token: fresh.token }) });
    expect(ok.statusCode).toBe(200);
    const newCookie = cookieOf(res.headers['set-cookie']);
    expect((await t.app.inject({ url: '/api/token', headers: { cookie: newCookie } })).statusCode).toBe(200);
    expect((await post('/api/login', who)).statusCode).toBe(401);
    expect((await post('/api/login', { ...who, password: 'nueva-clave-1' })).statusCode).toBe(200);
  });

  it('disabling a user ends their tokens at once and blocks sign-in', async () => {
    const admin = await login(t, demo.admin);
    const who = { email: 'baja@demo.com', password: 'inicial123', corporation: 'demo' };
    await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: as(admin),
      payload: { first_name: 'Dado', last_name: 'DeBaja', email: who.email, password: who.password, role: 'agent', companyIds: [admin.user.companyId] },
    });
    const s = await login(t, who);
    const res = await t.app.inject({ method: 'PUT', url: `/api/users/${s.user._id}`, headers: as(admin), payload: { disabled: true } });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/auth?module=profile&action=read', headers: as(s) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/token', headers: { cookie: s.cookie } })).statusCode).toBe(401);
    expect((await post('/api/login', who)).statusCode).toBe(401);
  });
});
