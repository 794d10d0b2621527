import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DriveUploadOut } from '@mostrador/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders, securityHeadersPlugin } from '../src/plugins/security-headers.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The attack: the back office framed by another site (clickjacking), a page that loads script
 * or frames from anywhere, a Referer that carries a path to other sites. Every kind of answer
 * must carry the headers (decision 0063): API, errors before and after routing, 404s, the
 * SPA, the shop page, static files, the Drive public file, the API docs and the event stream.
 */
let t: TestApp;
let admin: Signed;
let driveUrl: string;
beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'mostrador-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'shop.html'), '<!doctype html><div id="root" data-shop></div>');
  writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  t = await startTestApp({ WEB_DIST: dist });
  admin = await login(t, demo.admin);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
  const up = await t.app.inject({
    method: 'POST',
    url: '/api/drive/files?name=cabecera.png',
    headers: { ...as(admin), 'content-type': 'image/png' },
    payload: png,
  });
  driveUrl = (up.json() as DriveUploadOut).file.path;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function expectHeaders(headers: Record<string, unknown>, what: string) {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).toContain("base-uri 'none'");
  expect(csp, what).toContain("form-action 'self'");
  // no inline script, no eval: only the origin and Google Analytics' loader
  expect(csp, what).toMatch(/script-src 'self' https:\/\/www\.googletagmanager\.com(;|$)/);
  expect(csp, what).toContain('frame-src https://www.youtube.com https://www.youtube-nocookie.com');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
  // served over http here (PUBLIC_URL unset): no HSTS, no upgrade of links
  expect(headers['strict-transport-security'], what).toBeUndefined();
  expect(csp, what).not.toContain('upgrade-insecure-requests');
}

describe('security headers on every answer', () => {
  it.each([
    ['the API, public', 'GET', '/api/health', 200],
    ['the API, signed in', 'GET', '/api/permissions', 200],
    ['the API refusing a caller without a token', 'GET', '/api/leads', 401],
    ['a validation error', 'POST', '/api/login', 400],
    ['an unknown API path', 'GET', '/api/no-existe', 404],
    ['a path refused before routing', 'GET', '/api/x/%ED%A0%80', 400],
    ['a screen of the SPA', 'GET', '/login', 200],
    ['the inbox screen', 'GET', '/chat', 200],
    ['the public catalogue page', 'GET', '/catalogo-digital/00000000-0000-4000-8000-000000000001', 200],
    ['the public order page', 'GET', '/ordenes/un-token', 200],
    ['a built asset', 'GET', '/assets/app-1.js', 200],
    ['a missing asset', 'GET', '/assets/app-0.js', 404],
    ['a public product picture', 'GET', '/api/product-images/polo.svg', 200],
    ['the API docs', 'GET', '/api/docs', 200],
    ['a file of the API docs', 'GET', '/api/docs/static/swagger-ui.css', 200],
    ['the API description', 'GET', '/api/docs/json', 200],
  ] as const)('%s (%s %s → %i)', async (what, method, url, status) => {
    const res = await t.app.inject({ method, url, headers: url === '/api/permissions' ? as(admin) : {}, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode, what).toBe(status);
    expectHeaders(res.headers, what);
    expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  });

  it('the Drive public file keeps working for WhatsApp and Messenger, with the headers and readable from any origin', async () => {
    const res = await t.app.inject(driveUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expectHeaders(res.headers, 'drive');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const gone = await t.app.inject(`${driveUrl.replace(/\/[^/]+$/, '')}/otro-nombre.png`);
    expect(gone.statusCode).toBe(404);
    expectHeaders(gone.headers, 'drive 404');
  });

  it('the Google route with a secret in its path still says no-referrer and no-store', async () => {
    const res = await t.app.inject('/telefonos/googlepeople/abc/id.apps.googleusercontent.com/GOCSPX-secreto');
    expect(res.statusCode).toBe(200);
    expectHeaders(res.headers, 'google route');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the event stream (a hijacked reply) carries them too', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const aborted = new AbortController();
    const res = await fetch(`${address}/api/events`, { headers: as(admin), signal: aborted.signal });
    expect(res.status).toBe(200);
    expectHeaders(Object.fromEntries(res.headers), 'events');
    aborted.abort();
  });

  it('HSTS and upgrade-insecure-requests only when PUBLIC_URL is https', async () => {
    const app = Fastify();
    await app.register(securityHeadersPlugin, { headers: securityHeaders('https://mostrador.example.com') });
    app.get('/', async () => 'ok');
    const res = await app.inject('/');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    await app.close();
  });
});
