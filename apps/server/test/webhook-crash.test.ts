import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendantsOf, freePort, startProduct } from '../../../scripts/product-process.js';
import { repoRoot } from '../src/config.js';
import { createTestDatabase, demo, fakeWebDist, until } from './helpers.js';

/**
 * Outbound webhooks survive a crash (issue 28, decision 0073): `npm start` is killed with SIGKILL
 * in the middle of delivering a burst of 10,000 events (a CSV import of 10,000 leads), then started
 * again on the same database. Every event reaches the subscription listening to it (at least once:
 * what was in flight when the process died may arrive twice) and nothing reaches the subscription
 * that does not listen to it.
 */
const BURST = 10_000;


describe('a burst of events and a SIGKILL', () => {
  const started: Array<ReturnType<typeof startProduct>> = [];
  const drops: Array<() => Promise<void>> = [];
  const kill = (product: ReturnType<typeof startProduct>) => {
    if (product.child.exitCode !== null || !product.child.pid) return;
    for (const pid of [...descendantsOf(product.child.pid), product.child.pid]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
  };
  afterAll(async () => {
    for (const product of started) kill(product);
    for (const drop of drops) await drop();
  });

  it('every event is delivered after the restart, and none to a subscription not listening to it', async () => {
    const got = { listening: new Map<string, number>(), other: 0 };
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
        if (req.url === '/escucha') got.listening.set(body.id, (got.listening.get(body.id) ?? 0) + 1);
        else got.other++;
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    const { databaseUrl, drop } = await createTestDatabase();
    drops.push(drop);
    const env = {
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mostrador-crash-')),
      WEB_DIST: fakeWebDist(),
      OUTBOUND_ALLOW_PRIVATE_URLS: '1',
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const launch = async () => {
      const product = startProduct({ cwd: repoRoot, port: await freePort(), env });
      started.push(product);
      await product.ready();
      return product;
    };
    try {
      let product = await launch();
      const signed = (await (await fetch(`${product.base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(demo.admin) })).json()) as {
        token: string;
        user: { companyId: string };
      };
      const headers = { authorization: `Bearer ${signed.token}`, 'x-company-id': signed.user.companyId };
      for (const [url, events] of [
        [`${hook}/escucha`, ['lead.created']],
        [`${hook}/otra`, ['order.paid']],
      ] as const) {
        const res = await fetch(`${product.base}/api/webhook-subscriptions`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ url, events }) });
        expect(res.status).toBe(201);
      }

      const csv = ['Nombre,Teléfono', ...Array.from({ length: BURST }, (_, i) => `Ráfaga ${i},+51 9${String(10_000_000 + i).padStart(8, '0')}`)].join('\r\n');
      const imported = await fetch(`${product.base}/api/leads/import`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: csv });
      expect(imported.status, await imported.clone().text()).toBe(200);
      expect(((await imported.json()) as { created: number }).created).toBe(BURST);

      // mid-burst: the process and everything under it die at once
      await until(async () => got.listening.size, (n) => n >= 1000, 120_000, 'las primeras entregas');
      kill(product);
      await product.exited;
      const atKill = got.listening.size;
      expect(atKill).toBeLessThan(BURST);

      const restarted = performance.now();
      product = await launch();
      await until(async () => got.listening.size, (n) => n >= BURST, 300_000, 'todas las entregas después del reinicio');
      const twice = [...got.listening.values()].filter((n) => n > 1).length;
      console.log(
        `SIGKILL con ${atKill} de ${BURST} eventos entregados (${databaseUrl ? 'PostgreSQL' : 'PGlite'}); todos entregados ${((performance.now() - restarted) / 1000).toFixed(1)} s después de reiniciar; ${twice} entregados dos veces (lo que estaba en vuelo)`,
      );
      expect(got.listening.size).toBe(BURST);
      expect(got.other).toBe(0);
      await product.stop('SIGTERM');
    } finally {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  }, 600_000);
});
