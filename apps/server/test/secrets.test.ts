import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/lib/secret-box.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
});
afterAll(async () => {
  await t?.close();
});

describe('integration secrets', () => {
  it('are sealed at rest, never returned, and open only with the key', async () => {
    const headers = as(admin, admin.company('Demo Chile'));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/mailchimps',
      headers,
      payload: { name: 'Cuenta principal', serverPrefix: 'us21', listId: 'a1b2c3d4e5', apiKey: 'abc123secreta-us21' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Cuenta principal', apiKeySet: true });
    expect(created.body).not.toContain('abc123secreta');

    const [row] = await t.sql<{ api_key: string }>('select api_key from mailchimps where id = $1', [created.json()._id]);
    expect(row.api_key).toMatch(/^v1\./);
    expect(row.api_key).not.toContain('abc123secreta');
    expect(t.app.secrets.open(row.api_key)).toBe('abc123secreta-us21');
    expect(() => createSecretBox('otra-clave-otra-clave-otra-clave-123').open(row.api_key)).toThrow();

    // an update without the secret keeps it; with it, replaces it
    await t.app.inject({ method: 'PUT', url: `/api/mailchimps/${created.json()._id}`, headers, payload: { name: 'Cuenta renombrada' } });
    const [kept] = await t.sql<{ api_key: string }>('select api_key from mailchimps where id = $1', [created.json()._id]);
    expect(t.app.secrets.open(kept.api_key)).toBe('abc123secreta-us21');
    await t.app.inject({ method: 'PUT', url: `/api/mailchimps/${created.json()._id}`, headers, payload: { apiKey: 'nueva-us21' } });
    const [changed] = await t.sql<{ api_key: string }>('select api_key from mailchimps where id = $1', [created.json()._id]);
    expect(t.app.secrets.open(changed.api_key)).toBe('nueva-us21');
  });

  it('of the demo data are sealed too', async () => {
    const rows = await t.sql<{ consumer_key: string }>('select consumer_key from woocommerces');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.consumer_key).toMatch(/^v1\./);
  });
});
