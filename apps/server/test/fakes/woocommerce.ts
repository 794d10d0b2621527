import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeStore, type FakeStore, type FakeStoreOptions } from '../../src/integrations/woocommerce/fake-store.js';
import { wooSignatureOf } from '../../src/integrations/woocommerce/signature.js';

/**
 * A local fake of a WooCommerce store's REST API v3 on a real HTTP server (a random port): the
 * in-memory store of src/integrations/woocommerce/fake-store.ts (paging, batch ≤ 100, errors,
 * keys' permissions, rate limit with 429) behind `/wp-json/wc/v3`, plus the store's side of the
 * webhooks: deliveries signed as WooCommerce signs them. Tests never reach the internet.
 */
export interface FakeWooServer {
  url: string;
  store: FakeStore;
  /** Every request the server answered: method, path with query, status. */
  log: Array<{ method: string; path: string; status: number }>;
  close(): Promise<void>;
}

export async function startFakeWoo(options: FakeStoreOptions & { consumerKey?: string; consumerSecret?: string } = {}): Promise<FakeWooServer> {
  const store = createFakeStore({ consumerKey: 'ck_test123', consumerSecret: 'cs_test456', ...options });
  const log: FakeWooServer['log'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      let status = 404;
      let headers: Record<string, string> = {};
      let body: unknown = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };
      if (url.pathname.startsWith('/wp-json/wc/v3')) {
        let parsed: unknown;
        try {
          parsed = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        } catch {
          parsed = undefined;
        }
        const answer = store.handle({
          method: req.method ?? 'GET',
          path: url.pathname.slice('/wp-json/wc/v3'.length) || '/',
          query: url.searchParams,
          authorization: req.headers.authorization,
          body: parsed,
        });
        ({ status, headers, body } = answer);
      } else if (url.pathname === '/') {
        // the site's home page: HTML, as WordPress answers it
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>Mi tienda</body></html>');
        log.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, status: 200 });
        return;
      }
      log.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, status });
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The store's webhooks for Mostrador's address of a store, one per topic, as an owner makes them
 * in WooCommerce → Ajustes → Avanzado → Webhooks: topic → its id (X-WC-Webhook-ID).
 */
export function wooWebhooks(store: FakeStore, storeId: string, secret: string, topics: string[]): Record<string, number> {
  const url = `https://mostrador.example.pe/api/webhooks/woocommerce/${storeId}`;
  return Object.fromEntries(topics.map((topic) => [topic, store.admin.webhook(topic, url, secret).id]));
}

/**
 * A webhook delivery as WooCommerce sends it: topic, the webhook's id (X-WC-Webhook-ID), delivery
 * id and the body's signature — which covers the body only, not the headers.
 */
export function wooDelivery(topic: string, resource: unknown, secret: string, webhookId: number, deliveryId = randomUUID()) {
  const body = JSON.stringify(resource);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-wc-webhook-id': String(webhookId),
      'x-wc-webhook-topic': topic,
      'x-wc-webhook-resource': topic.split('.')[0],
      'x-wc-webhook-event': topic.split('.')[1],
      'x-wc-webhook-delivery-id': deliveryId,
      'x-wc-webhook-source': 'https://tienda.example.pe/',
      'x-wc-webhook-signature': wooSignatureOf(body, secret),
    },
  };
}

/**
 * Fills a store with `count` variable products of `perProduct` variations each (SKU `P{n}`,
 * `P{n}-V{k}`), three categories and two tags: the benchmark's and the paging tests' catalogue.
 */
export function fillCatalogue(store: FakeStore, count: number, perProduct = 3) {
  const top = store.admin.category({ name: 'Ropa', slug: 'ropa', parent: 0 });
  const child = store.admin.category({ name: 'Polos', slug: 'polos', parent: top.id });
  const other = store.admin.category({ name: 'Calzado', slug: 'calzado', parent: 0 });
  const tag = store.admin.tag({ name: 'Oferta', slug: 'oferta' });
  store.admin.tag({ name: 'Nuevo', slug: 'nuevo' });
  store.admin.attribute('Talla', ['S', 'M', 'L', 'XL']);
  const sizes = ['S', 'M', 'L', 'XL'];
  for (let n = 1; n <= count; n++) {
    const p = store.admin.product({
      name: `Producto de prueba ${n}`,
      sku: `P${n}`,
      type: perProduct ? 'variable' : 'simple',
      status: n % 10 === 0 ? 'draft' : 'publish',
      regular_price: String(10 + (n % 90)),
      sale_price: n % 3 === 0 ? String(5 + (n % 5)) : '',
      stock_quantity: n % 50,
      description: `Descripción del producto ${n}`,
      categories: [{ id: n % 2 ? child.id : other.id }],
      tags: n % 4 === 0 ? [{ id: tag.id }] : [],
      images: [{ src: `https://tienda.example.pe/wp-content/uploads/p${n}.jpg` }],
      attributes: perProduct ? [{ name: 'Talla', options: sizes.slice(0, perProduct), visible: true, variation: true }] : [],
    });
    for (let k = 0; k < perProduct; k++) {
      store.admin.variation(p.id, {
        sku: `P${n}-V${k + 1}`,
        regular_price: String(10 + (n % 90)),
        sale_price: '',
        stock_quantity: (n + k) % 20,
        attributes: [{ name: 'Talla', option: sizes[k % sizes.length] }],
      });
    }
  }
  return { top, child, other, tag };
}
