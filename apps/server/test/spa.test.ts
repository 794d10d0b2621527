import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'mostrador-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  // what apps/web/scripts/precompress.mjs writes beside a built file
  const big = `export const texto = ${JSON.stringify('Hola '.repeat(2000))};`;
  writeFileSync(path.join(dist, 'assets', 'big-1.js'), big);
  writeFileSync(path.join(dist, 'assets', 'big-1.js.br'), brotliCompressSync(big));
  writeFileSync(path.join(dist, 'assets', 'big-1.js.gz'), gzipSync(big));
  t = await startTestApp({ WEB_DIST: dist });
});
afterAll(async () => {
  await t?.close();
});

describe('serving the SPA', () => {
  it('answers every screen path with index.html (history-mode routing)', async () => {
    for (const url of ['/', '/login', '/perfil', '/corporation/abc', '/una/ruta/que/no/existe']) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves built assets, also ones written after start, and 404s a missing one', async () => {
    const asset = await t.app.inject('/assets/app-1.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    writeFileSync(path.join(dist, 'assets', 'app-2.js'), 'console.log(2)');
    expect((await t.app.inject('/assets/app-2.js')).statusCode).toBe(200);
    const missing = await t.app.inject('/assets/app-0.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<div id="root">');
  });

  it('answers an unknown API path with a Spanish JSON 404', async () => {
    const res = await t.app.inject('/api/no-existe');
    expect(res.statusCode).toBe(404);
    expect(res.json().errors.msg).toBe('La ruta no existe');
  });

  it('sends the precompressed copy a browser accepts, says it varies on Accept-Encoding, and the file itself to one that takes none', async () => {
    const br = await t.app.inject({ url: '/assets/big-1.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.rawPayload.length).toBeLessThan(1000);
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('Hola Hola');
    const gz = await t.app.inject({ url: '/assets/big-1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const none = await t.app.inject({ url: '/assets/big-1.js', headers: { 'accept-encoding': 'identity' } });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.headers.vary).toMatch(/accept-encoding/i);
    expect(none.body.length).toBeGreaterThan(10_000);
    // a file the build left uncompressed (under 1 KiB) is sent as it is
    const small = await t.app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.body).toBe('console.log(1)');
  });
});
