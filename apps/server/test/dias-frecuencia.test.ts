import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrequencyLinkTokens } from '../src/modules/contact-frequency/link-token.js';
import { as, demo, JWT_SECRET, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let cleanLeadId: string;

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL: 'https://mostrador.example.pe/' });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  [{ id: cleanLeadId }] = await t.sql<{ id: string }>(
    `insert into clean_leads (company_id, name, telefono, status) values ($1, 'Frecuencia Prueba', '51911222333', 'sin-asignar') returning id`,
    [peru],
  );
});
afterAll(async () => {
  await t?.close();
});

async function linkFor(id: string, s = admin, company = peru) {
  return t.app.inject({ method: 'POST', url: `/api/clean-leads/${id}/frequency-link`, headers: as(s, company) });
}

describe('/dias-frecuencia links', () => {
  it('staff get a public URL under PUBLIC_URL with a short signed token', async () => {
    const res = await linkFor(cleanLeadId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { url: string; token: string; expiresAt: string };
    expect(body.url).toBe(`https://mostrador.example.pe/dias-frecuencia/${body.token}`);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{60,80}$/);
    const days = (new Date(body.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
    expect((await t.app.inject({ method: 'POST', url: `/api/clean-leads/${cleanLeadId}/frequency-link` })).statusCode).toBe(401);
  });

  it('a clean lead of another company has no link', async () => {
    expect((await linkFor(cleanLeadId, acme, acmeCo)).statusCode).toBe(404);
  });

  it('the person reads the company name and saves a choice without signing in', async () => {
    const token = (await linkFor(cleanLeadId)).json().token as string;
    const read = await t.app.inject({ method: 'GET', url: `/api/public/dias-frecuencia/${token}` });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ companyName: 'Demo Perú', choice: null });
    // nothing about the person leaves the server
    expect(read.body).not.toContain('51911222333');
    expect(read.body).not.toContain('Frecuencia Prueba');

    const saved = await t.app.inject({ method: 'PUT', url: `/api/public/dias-frecuencia/${token}`, payload: { choice: 'biweekly' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ msg: 'Preferencia guardada', choice: 'biweekly' });
    const [row] = await t.sql<{ contact_frequency_days: number; opt_out: boolean }>(
      'select contact_frequency_days, opt_out from clean_leads where id = $1',
      [cleanLeadId],
    );
    expect(row).toEqual({ contact_frequency_days: 15, opt_out: false });

    const optOut = await t.app.inject({ method: 'PUT', url: `/api/public/dias-frecuencia/${token}`, payload: { choice: 'opt-out' } });
    expect(optOut.json()).toMatchObject({ choice: 'opt-out' });
    const [after] = await t.sql('select contact_frequency_days, opt_out from clean_leads where id = $1', [cleanLeadId]);
    expect(after).toEqual({ contact_frequency_days: null, opt_out: true });
    // staff see it on the clean lead
    const list = await t.app.inject({ method: 'GET', url: '/api/clean-leads?filter=Frecuencia%20Prueba', headers: as(admin, peru) });
    expect(list.json().payload[0]).toMatchObject({ _id: cleanLeadId, optOut: true });

    const bad = await t.app.inject({ method: 'PUT', url: `/api/public/dias-frecuencia/${token}`, payload: { choice: 'daily' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toMatch(/Elige una de las opciones/);
  });

  it('refuses tampered, foreign and expired links in Spanish, and links of deleted clean leads', async () => {
    const token = (await linkFor(cleanLeadId)).json().token as string;
    const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    for (const bad of [flipped, 'nada', `${token}x`]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/public/dias-frecuencia/${bad}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors.msg).toBe('El enlace no es válido');
    }
    // signed with another server's secret
    const foreign = createFrequencyLinkTokens('otro-secreto-otro-secreto-otro-secreto-1234').sign({
      cleanLeadId,
      companyId: peru,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/public/dias-frecuencia/${foreign}` })).statusCode).toBe(400);

    const expired = createFrequencyLinkTokens(JWT_SECRET).sign({ cleanLeadId, companyId: peru, expiresAt: new Date(Date.now() - 1000) });
    const old = await t.app.inject({ method: 'PUT', url: `/api/public/dias-frecuencia/${expired}`, payload: { choice: 'weekly' } });
    expect(old.statusCode).toBe(400);
    expect(old.json().errors.msg).toMatch(/venció/);

    // a token naming a clean lead under another company never reaches it
    const crossed = createFrequencyLinkTokens(JWT_SECRET).sign({ cleanLeadId, companyId: acmeCo, expiresAt: new Date(Date.now() + 86_400_000) });
    expect((await t.app.inject({ method: 'PUT', url: `/api/public/dias-frecuencia/${crossed}`, payload: { choice: 'weekly' } })).statusCode).toBe(404);

    const [{ id: gone }] = await t.sql<{ id: string }>(
      `insert into clean_leads (company_id, name, status) values ($1, 'Se Borra', 'sin-asignar') returning id`,
      [peru],
    );
    const goneToken = (await linkFor(gone)).json().token as string;
    await t.sql('delete from clean_leads where id = $1', [gone]);
    const res = await t.app.inject({ method: 'GET', url: `/api/public/dias-frecuencia/${goneToken}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors.msg).toMatch(/ya no es válido/);
  });
});

describe('GET /channels webhooks', () => {
  it('tells the /whatsapp screen the callback URLs and the demo verify token outside production', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/channels', headers: as(admin, peru) });
    expect(res.statusCode).toBe(200);
    expect(res.json().webhooks).toEqual({
      whatsappUrl: 'https://mostrador.example.pe/api/webhooks/whatsapp',
      metaUrl: 'https://mostrador.example.pe/api/webhooks/meta',
      configured: true,
      demoVerifyToken: 'mostrador-demo-verify-token',
    });
  });
});
