import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendantsOf, freePort, listening, openStream, requestInTwoParts, startProduct } from '../../../scripts/product-process.js';
import { repoRoot } from '../src/config.js';
import { createTestDatabase, demo, fakeWebDist, JWT_SECRET, until } from './helpers.js';

describe('stopping npm start', () => {
  const drops: Array<() => Promise<void>> = [];
  const started: Array<ReturnType<typeof startProduct>> = [];
  const start = (options: Parameters<typeof startProduct>[0]) => {
    const product = startProduct(options);
    started.push(product);
    return product;
  };
  afterAll(async () => {
    // a test that failed midway leaves no server behind
    for (const { child } of started) {
      if (child.exitCode !== null || !child.pid) continue;
      for (const pid of [...descendantsOf(child.pid), child.pid]) process.kill(pid, 'SIGKILL');
    }
    for (const drop of drops) await drop();
  });

  it('SIGTERM to npm lets the request in flight finish, ends the open event stream, exits 0 and leaves no process behind', async () => {
    // on PostgreSQL a fresh database from the suite's template; on PGlite a fresh DATA_DIR (migrated and seeded on start)
    const { databaseUrl, drop } = await createTestDatabase();
    drops.push(drop);
    const port = await freePort();
    const product = start({
      cwd: repoRoot,
      port,
      env: {
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mostrador-stop-')),
        WEB_DIST: fakeWebDist(),
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        LOG_LEVEL: 'info',
      },
    });
    await product.ready();

    const signed = (await (await fetch(`${product.base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(demo.admin) })).json()) as {
      token: string;
      user: { companyId: string };
    };
    // a browser with the live events open: the stop must end it, not wait for it to hang up
    const stream = await openStream(product.base, '/api/events', { authorization: `Bearer ${signed.token}`, 'x-company-id': signed.user.companyId });
    // a sign-in whose body is still arriving when the signal comes
    const inFlight = requestInTwoParts(product.base, '/api/login', demo.admin);
    await until(async () => product.received('/api/login'), (n) => n === 2, 20_000, 'que el servidor reciba la solicitud');

    const stopping = product.stop('SIGTERM');
    // the server stops taking connections: then the rest of the body goes
    await until(() => listening(port), (open) => !open, 20_000, 'que el servidor deje de aceptar conexiones');
    const answer = await inFlight.finish();
    const stopped = await stopping;

    console.log(`SIGTERM (${databaseUrl ? 'PostgreSQL' : 'PGlite'}): servidor drenado en ${stopped.serverDrainMs} ms, npm terminó a los ${stopped.drainMs} ms`);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).token).toEqual(expect.any(String));
    expect(await stream.ended).toBe('ended');
    expect({ code: stopped.code, signal: stopped.signal }, product.output()).toEqual({ code: 0, signal: null });
    expect(stopped.tree.length).toBeGreaterThan(0);
    expect(stopped.survivors).toEqual([]);
    expect(await listening(port)).toBe(false);
    expect(product.output()).toMatch(/"msg":"detenido"/);
  }, 240_000);

  it('in production never builds the front end: without its build it says so in Spanish and exits 1', async () => {
    const emptyDist = mkdtempSync(path.join(tmpdir(), 'mostrador-noweb-'));
    const product = start({
      cwd: repoRoot,
      port: await freePort(),
      env: { NODE_ENV: 'production', JWT_SECRET, WEB_DIST: emptyDist, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mostrador-prod-')) },
    });
    const exit = await product.exited;
    expect(exit.code, product.output()).toBe(1);
    expect(product.output()).toMatch(/Falta el build del front end \(index\.html, shop\.html en .*mostrador-noweb-.*\): ejecuta "npm run build"/);
    expect(product.output()).not.toMatch(/vite|Construyendo/);
  }, 60_000);
});
