import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo, inviteToken, login, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });

async function waitFor<T>(fn: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('forgot and reset', () => {
  it('answers the same for unknown accounts and sends nothing', async () => {
    const res = await post('/api/forgot', { email: 'nadie@demo.com', corporation: 'demo' });
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe('Si el correo está registrado, te enviamos un enlace para restablecer tu contraseña');
    expect(await t.sql(`select 1 from mail_outbox where "to" = 'nadie@demo.com'`)).toHaveLength(0);
  });

  it('mails a one-time expiring link through the outbox; the link sets a new password once', async () => {
    const res = await post('/api/forgot', { email: 'agente@demo.com', corporation: 'demo' });
    expect(res.statusCode).toBe(200);
    // the job processes the outbox: without SMTP_URL the mail is logged and marked so
    const mail = await waitFor(async () => {
      const [row] = await t.sql<{ text: string; status: string }>(`select text, status from mail_outbox where "to" = 'agente@demo.com'`);
      return row?.status === 'logged' ? row : undefined;
    });
    const token = /restablecer-contrasena\?token=([\w-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();

    const mismatch = await post('/api/reset', { token, password: 'otra-clave-1', passwordConfirmation: 'otra-clave-2' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.details).toContainEqual({ path: 'passwordConfirmation', msg: 'Las contraseñas no concuerdan' });

    const ok = await post('/api/reset', { token, password: 'otra-clave-1', passwordConfirmation: 'otra-clave-1' });
    expect(ok.statusCode).toBe(200);
    expect((await post('/api/login', demo.agent)).statusCode).toBe(401);
    expect((await post('/api/login', { ...demo.agent, password: 'otra-clave-1' })).statusCode).toBe(200);

    const reuse = await post('/api/reset', { token, password: 'tercera-1', passwordConfirmation: 'tercera-1' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().errors.msg).toBe('El enlace para restablecer la contraseña no es válido o ha expirado');
  });

  it('refuses an expired link', async () => {
    await post('/api/forgot', { email: 'admin@acme.com', corporation: 'acme' });
    const mail = await waitFor(async () => (await t.sql<{ text: string }>(`select text from mail_outbox where "to" = 'admin@acme.com'`))[0]);
    const token = /token=([\w-]+)/.exec(mail.text)?.[1];
    await t.sql(`update password_resets set expires_at = now() - interval '1 minute'`);
    const res = await post('/api/reset', { token, password: 'otra-clave-1', passwordConfirmation: 'otra-clave-1' });
    expect(res.statusCode).toBe(400);
    expect((await post('/api/login', demo.acme)).statusCode).toBe(200);
  });
});

describe('corporation registration', () => {
  const form = {
    corporationName: 'Tienda Sol',
    corporation: 'tienda-sol',
    companyName: 'Tienda Sol Lima',
    first_name: 'Sol',
    last_name: 'Ramos',
    email: 'sol@tiendasol.pe',
    password: 'sol-12345',
    passwordConfirmation: 'sol-12345',
  };

  it('creates the corporation, its first company and its admin from a one-time link', async () => {
    const token = await inviteToken(t);
    expect((await t.app.inject(`/api/register/corporation/${token}`)).json().valid).toBe(true);
    const res = await post('/api/register/corporation', { ...form, token });
    expect(res.statusCode).toBe(201);
    const s = await login(t, { email: form.email, password: form.password, corporation: form.corporation });
    expect(s.user.corporation.companies).toEqual([
      { company: { _id: s.user.companyId, name: 'Tienda Sol Lima', country: 'PE', currency: 'PEN', timezone: 'America/Lima' }, default: true, role: 'admin' },
    ]);
    const check = await t.app.inject({ url: '/api/auth?module=users&action=create', headers: { authorization: `Bearer ${s.token}`, 'x-company-id': s.user.companyId } });
    expect(check.json().allowed).toBe(true);

    const reused = await post('/api/register/corporation', { ...form, corporation: 'otra', token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().errors.code).toBe('REGISTRATION_TOKEN_INVALID');
    expect((await t.app.inject(`/api/register/corporation/${token}`)).statusCode).toBe(400);
  });

  it('validates with the spec messages and keeps the link when the slug is taken', async () => {
    const token = await inviteToken(t);
    const bad = await post('/api/register/corporation', { ...form, token, email: 'x', passwordConfirmation: 'otra', companyName: '' });
    expect(bad.statusCode).toBe(400);
    const details = bad.json().errors.details;
    expect(details).toContainEqual({ path: 'email', msg: 'Este campo debe ser un email válido' });
    expect(details).toContainEqual({ path: 'companyName', msg: 'Este campo es requerido' });

    const mismatch = await post('/api/register/corporation', { ...form, corporation: 'nueva', token, passwordConfirmation: 'otra-cosa' });
    expect(mismatch.json().errors.details).toContainEqual({ path: 'passwordConfirmation', msg: 'Las contraseñas no concuerdan' });

    const taken = await post('/api/register/corporation', { ...form, corporation: 'demo', token });
    expect(taken.statusCode).toBe(409);
    expect(await t.sql(`select 1 from companies where name = 'Tienda Sol Lima' and corporation_id = (select id from corporations where slug = 'demo')`)).toHaveLength(0);
    // nothing was consumed: the same link still works
    expect((await post('/api/register/corporation', { ...form, corporation: 'sol-dos', token })).statusCode).toBe(201);
  });

  it('refuses an expired link', async () => {
    const token = await inviteToken(t);
    await t.sql(`update registration_tokens set expires_at = now() - interval '1 minute' where used_at is null`);
    expect((await post('/api/register/corporation', { ...form, corporation: 'tarde', token })).statusCode).toBe(400);
  });
});
