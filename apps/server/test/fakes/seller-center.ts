import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeSellerCenter, type FakeSellerCenter, type FakeSellerCenterOptions, notFound } from '../../src/integrations/seller-center/fake.js';

/**
 * A local fake of the Falabella / Linio Seller Center API on a real HTTP server (a random port):
 * the in-memory account of src/integrations/seller-center/fake.ts (signature and Timestamp
 * checked, GetProducts by Offset/Limit, ProductUpdate feeds with FeedStatus and the feed limit,
 * orders, documents, Seller Center's error bodies, 429) answering at `/`. Tests never reach the
 * internet.
 */
export interface FakeSellerCenterServer {
  url: string;
  account: FakeSellerCenter;
  /** Every request the server answered: method, Action, the query as sent, status. */
  log: Array<{ method: string; action: string; query: string; status: number; userAgent?: string }>;
  close(): Promise<void>;
}

export async function startFakeSellerCenter(options: FakeSellerCenterOptions = {}): Promise<FakeSellerCenterServer> {
  const account = createFakeSellerCenter({ userId: 'integraciones@tienda.pe', apiKey: 'b1bdb357ced10fe4e9a69840cdd4f0e9c03d77fe', country: 'PE', ...options });
  const log: FakeSellerCenterServer['log'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const answer =
        url.pathname === '/' ? account.handle({ method: req.method ?? 'GET', query: url.searchParams, body: Buffer.concat(chunks).toString('utf8') }) : notFound();
      log.push({ method: req.method ?? 'GET', action: url.searchParams.get('Action') ?? '', query: url.search, status: answer.status, userAgent: req.headers['user-agent'] });
      res.writeHead(answer.status, { 'content-type': answer.headers['content-type'] ?? 'application/json; charset=utf-8', ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    account,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Fills an account with `count` products of `perProduct` variations each (parent `MP{n}`, SKUs
 * `MP{n}-{k}`): the paging tests' and the benchmark's catalogue.
 */
export function fillAccount(account: FakeSellerCenter, count: number, perProduct = 2) {
  const sizes = ['S', 'M', 'L', 'XL', 'XXL'];
  for (let n = 1; n <= count; n++) {
    for (let k = 1; k <= perProduct; k++) {
      account.admin.product({
        SellerSku: perProduct === 1 ? `MP${n}` : `MP${n}-${k}`,
        ParentSku: `MP${n}`,
        Name: `Producto de marketplace ${n}`,
        Variation: perProduct === 1 ? '' : sizes[(k - 1) % sizes.length],
        Brand: n % 2 ? 'Marca Norte' : 'Marca Sur',
        PrimaryCategory: n % 3 ? 'Polos' : 'Casacas',
        Price: 20 + (n % 80),
        Quantity: (n + k) % 30,
        Status: n % 25 === 0 ? 'inactive' : 'active',
      });
    }
  }
}
