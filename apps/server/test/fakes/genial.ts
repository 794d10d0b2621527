import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeGenial, type FakeGenial } from '../../src/integrations/genial/fake.js';

/**
 * A local fake of Genial's e-invoicing API on a real HTTP server (a random port): the account of
 * src/integrations/genial/fake.ts — Bearer token, Idempotency-Key (a replay answers the first
 * answer), required fields, the customer's tax id check digit, 429 with Retry-After — at `/v1/…`.
 */
export interface FakeGenialServer {
  url: string;
  account: FakeGenial;
  log: Array<{ method: string; path: string; status: number; key?: string; auth?: string; body?: Record<string, unknown>; replayed: boolean }>;
  close(): Promise<void>;
}

export async function startFakeGenial(token = 'gnl_live_7f3a9c', issuer?: { taxId: string; name: string }): Promise<FakeGenialServer> {
  let account: FakeGenial | undefined;
  const log: FakeGenialServer['log'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
      const answer = (account as FakeGenial).handle({ method: req.method ?? 'GET', path, headers, body });
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
      } catch {
        parsed = undefined;
      }
      log.push({ method: req.method ?? 'GET', path, status: answer.status, key: headers['idempotency-key'], auth: headers.authorization, body: parsed, replayed: answer.headers['idempotent-replayed'] === 'true' });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  account = createFakeGenial({ token, baseUrl: url, ...(issuer ? { issuer } : {}) });
  return { url, account, log, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
