/**
 * Issue 11, "the small things a person notices", on the server: every IANA time zone for a
 * company, validated with the same list the web offers; phones validated as phone numbers and
 * e-mails as e-mails, refused with a Spanish 400 that names the field in Spanish.
 */
import { PHONE_INVALID_MESSAGE, timezones } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let peru: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  peru = admin.company('Demo Perú');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(admin, company), payload });

describe('company time zone: every IANA zone, validated with the same list', () => {
  it('offers far more than four zones, the countries we sell in first', () => {
    expect(timezones.length).toBeGreaterThan(300);
    expect(timezones.slice(0, 5)).toEqual(['America/Lima', 'America/Santiago', 'America/Bogota', 'Europe/Madrid', 'UTC']);
    expect(timezones).toEqual(expect.arrayContaining(['Asia/Tokyo', 'America/Mexico_City', 'Pacific/Chatham', 'America/Argentina/Salta']));
    expect(new Set(timezones).size).toBe(timezones.length);
  });

  it('saves any zone of the list and counts the lead summary in it', async () => {
    const created = await call('POST', '/companies', { name: 'Sucursal Tokio', country: 'PE' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()._id as string;
    for (const zone of ['Asia/Tokyo', 'America/Mexico_City', 'Pacific/Chatham', 'UTC']) {
      const put = await call('PUT', `/companies/${id}`, { settings: { timezone: zone } });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().settings.timezone).toBe(zone);
    }
    // a zone outside the four that PostgreSQL must also know: the summary's months are counted in it
    await call('PUT', `/companies/${id}`, { settings: { timezone: 'Asia/Tokyo' } });
    await t.sql(
      `insert into leads (company_id, name, platform, status, created_at) values ($1, 'Año nuevo en Tokio', 'web', 'sin-asignar', '2024-12-31T16:00:00Z')`,
      [id],
    );
    const summary = await call('GET', '/leads/summary?from=2024-12-01T00:00:00Z&to=2025-02-01T00:00:00Z', undefined, id);
    expect(summary.statusCode, summary.body).toBe(200);
    // 16:00 UTC on 31 December is 1 January in Tokyo
    const web = (summary.json().byMonth as Array<{ month: string; platform: string; count: number }>).filter((m) => m.platform === 'web');
    const count = (month: string) => web.find((m) => m.month === month)?.count;
    expect([count('2024-12'), count('2025-01')]).toEqual([0, 1]);
  });

  it('refuses a zone that is not one, with a Spanish 400 naming the field', async () => {
    for (const zone of ['Mars/Olympus_Mons', 'america/lima', 'GMT-5', '']) {
      const res = await call('PUT', `/companies/${peru}`, { settings: { timezone: zone } });
      expect(res.statusCode, zone).toBe(400);
      expect(res.json().errors.msg).toMatch(/^Configuración › Zona horaria: Zona horaria no válida/);
    }
  });
});

describe("the company's currency reaches every member's session", () => {
  it('is the setting, else the country\'s; agents get it too', async () => {
    const currencyOf = (s: Signed, name: string) => s.user.corporation.companies.find((m) => m.company.name === name)?.company.currency;
    expect(currencyOf(admin, 'Demo Perú')).toBe('PEN');
    expect(currencyOf(admin, 'Demo Chile')).toBe('CLP');
    const agent = await login(t, demo.agent);
    expect(currencyOf(agent, 'Demo Perú')).toBe('PEN');
    const chile = admin.company('Demo Chile');
    expect((await call('PUT', `/companies/${chile}`, { settings: { currency: 'USD' } }, chile)).statusCode).toBe(200);
    expect(currencyOf(await login(t, demo.admin), 'Demo Chile')).toBe('USD');
    await call('PUT', `/companies/${chile}`, { settings: { currency: 'CLP' } }, chile);
  });
});

describe('phones are phone numbers, e-mails are e-mails', () => {
  it('refuses digits that are no phone number with a Spanish 400 naming the field', async () => {
    // 999 is no country code; a Peruvian number has 9 digits (mobile) or 8 (Lima landline), not 12
    for (const telefono of ['99912345678', '519876543210']) {
      const res = await call('POST', '/leads', { name: 'Número raro', telefono, platform: 'web', status: 'sin-asignar' });
      expect(res.statusCode, telefono).toBe(400);
      expect(res.json().errors).toMatchObject({ code: 'VALIDATION', msg: `Teléfono: ${PHONE_INVALID_MESSAGE}` });
      expect(res.json().errors.details).toEqual([{ path: 'telefono', msg: PHONE_INVALID_MESSAGE }]);
    }
    const agent = await call('POST', '/agentes', { name: 'Agente raro', phone: '12' });
    expect(agent.statusCode).toBe(400);
    expect(agent.json().errors.msg).toBe('Teléfono: Solo dígitos, con el código de país (de 8 a 15 dígitos)');
  });

  it('rejects an imported row whose phone is no number, as it rejects a typed one', async () => {
    const csv = ['nombre,telefono', 'Código inexistente,+999 1234 5678', 'Peruano de 12 dígitos,+51 987 654 3210', 'Bien,987 650 123'].join('\r\n');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/leads/import',
      headers: { ...as(admin, peru), 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      created: 1,
      rejected: [
        { row: 2, reason: 'Teléfono inválido' },
        { row: 3, reason: 'Teléfono inválido' },
      ],
    });
  });

  it('keeps storing real numbers as digits with the country code', async () => {
    for (const telefono of ['51987654321', '5114567890', '56912345678', '573001234567', '34612345678']) {
      const res = await call('POST', '/leads', { name: `Cliente ${telefono}`, telefono, platform: 'whatsapp', status: 'sin-asignar' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().telefono).toBe(telefono);
    }
  });

  it('refuses an e-mail that is not one, naming the field in Spanish', async () => {
    const res = await call('POST', '/leads', { name: 'Sin arroba', email: 'ana.correo.pe', platform: 'web', status: 'sin-asignar' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toMatch(/^Correo electrónico: /);
    expect(res.json().errors.msg).not.toMatch(/\bemail:/);
  });
});
