import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'mostrador-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
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
});
