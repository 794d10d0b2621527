import { safeEqual } from '../../lib/safe-equal.js';
import type { FetchLike } from './client.js';
import { createFakeStore, type FakeStore } from './fake-store.js';

/**
 * The demo's sandbox stores (decision 0034): a store whose host ends in `.sandbox.test` (a
 * reserved name that never resolves, RFC 6761) is answered in-process by a fake WooCommerce
 * with a small catalogue of its country, so the demo syncs, edits and pushes with no internet.
 * Keys: `ck_sandbox…` / `cs_sandbox…` (a key with `read` in it is read-only, to try the
 * connection test's message). Each server process keeps its own sandbox in memory.
 */
export const SANDBOX_HOST_SUFFIX = '.sandbox.test';

export const isSandboxUrl = (url: string) => {
  try {
    return new URL(url).hostname.endsWith(SANDBOX_HOST_SUFFIX);
  } catch {
    return false;
  }
};

/** Product images of the sandbox are served by this product itself (GET /api/woocommerce-sandbox/media/{file}). */
export const sandboxImage = (host: string, file: string) => `https://${host}/wp-content/uploads/${file}`;

interface SandboxProduct {
  id: number;
  name: string;
  sku: string;
  status: 'publish' | 'draft';
  regular: number;
  sale?: number;
  stock: number;
  categories: number[];
  tags: number[];
  image: string;
  description: string;
  attributes?: Array<{ name: string; options: string[] }>;
  variations?: Array<{ id: number; sku: string; price: number; stock: number; attributes: Array<[string, string]> }>;
}

interface SandboxCatalogue {
  categories: Array<{ id: number; name: string; slug: string; parent: number }>;
  tags: Array<{ id: number; name: string; slug: string }>;
  attributes: Array<{ name: string; terms: string[] }>;
  products: SandboxProduct[];
  customers: Array<{ id: number; first_name: string; last_name: string; email: string; phone: string }>;
  orders: Array<{ id: number; number: string; status: string; currency: string; customer: number; lines: Array<[number, number, number]> }>;
}

/** Perú and Chile: the same SKUs with their own prices and stock (the crossover shows what differs). */
export const sandboxCatalogues: Record<string, SandboxCatalogue> = {
  PE: {
    categories: [
      { id: 21, name: 'Ropa', slug: 'ropa', parent: 0 },
      { id: 34, name: 'Polos', slug: 'polos', parent: 21 },
      { id: 35, name: 'Chompas', slug: 'chompas', parent: 21 },
      { id: 47, name: 'Calzado', slug: 'calzado', parent: 0 },
      { id: 48, name: 'Zapatillas', slug: 'zapatillas', parent: 47 },
    ],
    tags: [
      { id: 102, name: 'Oferta', slug: 'oferta' },
      { id: 108, name: 'Envío gratis', slug: 'envio-gratis' },
    ],
    attributes: [
      { name: 'Talla', terms: ['S', 'M', 'L', 'XL', '40', '41', '42'] },
      { name: 'Color', terms: ['Blanco', 'Azul marino', 'Gris'] },
    ],
    products: [
      {
        id: 2201, name: 'Polo piqué algodón pima', sku: 'POLO-PIMA', status: 'publish', regular: 79.9, sale: 59.9, stock: 84, categories: [34], tags: [102],
        image: 'polo-pima.svg', description: 'Polo de algodón pima peruano, cuello camisero',
        attributes: [{ name: 'Talla', options: ['M', 'L'] }, { name: 'Color', options: ['Blanco', 'Azul marino'] }],
        variations: [
          { id: 2301, sku: 'POLO-PIMA-BLANCO-M', price: 59.9, stock: 30, attributes: [['Talla', 'M'], ['Color', 'Blanco']] },
          { id: 2302, sku: 'POLO-PIMA-BLANCO-L', price: 59.9, stock: 24, attributes: [['Talla', 'L'], ['Color', 'Blanco']] },
          { id: 2304, sku: 'POLO-PIMA-AZUL-M', price: 59.9, stock: 18, attributes: [['Talla', 'M'], ['Color', 'Azul marino']] },
          { id: 2305, sku: 'POLO-PIMA-AZUL-L', price: 59.9, stock: 12, attributes: [['Talla', 'L'], ['Color', 'Azul marino']] },
        ],
      },
      {
        id: 2202, name: 'Chompa de alpaca', sku: 'CHOMPA-ALP', status: 'publish', regular: 189, stock: 25, categories: [35], tags: [108],
        image: 'chompa-alpaca.svg', description: 'Chompa tejida de baby alpaca',
        attributes: [{ name: 'Talla', options: ['M', 'L'] }, { name: 'Color', options: ['Gris'] }],
        variations: [
          { id: 2303, sku: 'CHOMPA-ALP-GRIS-M', price: 189, stock: 12, attributes: [['Talla', 'M'], ['Color', 'Gris']] },
          { id: 2306, sku: 'CHOMPA-ALP-GRIS-L', price: 189, stock: 13, attributes: [['Talla', 'L'], ['Color', 'Gris']] },
        ],
      },
      { id: 2203, name: 'Zapatillas urbanas', sku: 'ZAP-URB', status: 'draft', regular: 249, stock: 0, categories: [48], tags: [], image: 'zapatillas.svg', description: 'Temporada de verano' },
      { id: 2204, name: 'Casaca impermeable', sku: 'CASACA-IMP', status: 'publish', regular: 219, stock: 9, categories: [21], tags: [108], image: 'casaca.svg', description: 'Casaca cortaviento con capucha' },
    ],
    customers: [
      { id: 812, first_name: 'María', last_name: 'Fernández', email: 'maria.fernandez@gmail.com', phone: '987001122' },
      { id: 845, first_name: 'Luis', last_name: 'Paredes', email: 'luis.paredes@hotmail.com', phone: '955443322' },
    ],
    orders: [
      { id: 10231, number: '10231', status: 'processing', currency: 'PEN', customer: 812, lines: [[2201, 2301, 2], [2202, 2303, 1]] },
      { id: 10318, number: '10318', status: 'completed', currency: 'PEN', customer: 845, lines: [[2204, 0, 1]] },
    ],
  },
  CL: {
    categories: [
      { id: 61, name: 'Ropa', slug: 'ropa', parent: 0 },
      { id: 62, name: 'Polos', slug: 'polos', parent: 61 },
      { id: 63, name: 'Chompas', slug: 'chompas', parent: 61 },
    ],
    tags: [{ id: 150, name: 'Oferta', slug: 'oferta' }],
    attributes: [
      { name: 'Talla', terms: ['S', 'M', 'L'] },
      { name: 'Color', terms: ['Blanco', 'Gris'] },
    ],
    products: [
      {
        id: 3101, name: 'Polo piqué algodón pima', sku: 'POLO-PIMA', status: 'publish', regular: 24990, stock: 40, categories: [62], tags: [150],
        image: 'polo-pima.svg', description: 'Polo de algodón pima peruano, cuello camisero',
        attributes: [{ name: 'Talla', options: ['M', 'L'] }, { name: 'Color', options: ['Blanco'] }],
        variations: [
          { id: 3201, sku: 'POLO-PIMA-BLANCO-M', price: 24990, stock: 22, attributes: [['Talla', 'M'], ['Color', 'Blanco']] },
          { id: 3202, sku: 'POLO-PIMA-BLANCO-L', price: 24990, stock: 18, attributes: [['Talla', 'L'], ['Color', 'Blanco']] },
        ],
      },
      { id: 3102, name: 'Chompa de alpaca', sku: 'CHOMPA-ALP', status: 'draft', regular: 79990, stock: 6, categories: [63], tags: [], image: 'chompa-alpaca.svg', description: 'Chompa tejida de baby alpaca' },
    ],
    customers: [{ id: 901, first_name: 'Camila', last_name: 'Soto', email: 'camila.soto@gmail.com', phone: '56912345678' }],
    orders: [{ id: 5120, number: '5120', status: 'pending', currency: 'CLP', customer: 901, lines: [[3101, 3201, 1]] }],
  },
};

/** A store filled with a country's sandbox catalogue (empty for a country without one). */
export function createSandboxStore(host: string, country: string, keys: { consumerKey: string; consumerSecret: string }): FakeStore {
  const store = createFakeStore({ ...keys, permission: /read/i.test(keys.consumerKey) ? 'read' : 'read_write' });
  const catalogue = sandboxCatalogues[country];
  if (!catalogue) return store;
  for (const c of catalogue.categories) store.categories.set(c.id, { ...c });
  for (const t of catalogue.tags) store.tags.set(t.id, { ...t });
  for (const a of catalogue.attributes) store.admin.attribute(a.name, a.terms);
  for (const p of catalogue.products) {
    store.admin.reserveIds(p.id - 1);
    const product = store.admin.product({
      name: p.name,
      sku: p.sku,
      status: p.status,
      type: p.variations ? 'variable' : 'simple',
      regular_price: String(p.regular),
      sale_price: p.sale !== undefined ? String(p.sale) : '',
      stock_quantity: p.stock,
      description: p.description,
      categories: p.categories.map((id) => ({ id })),
      tags: p.tags.map((id) => ({ id })),
      images: [{ src: sandboxImage(host, p.image) }],
      attributes: (p.attributes ?? []).map((a) => ({ name: a.name, options: a.options, visible: true, variation: true })),
    });
    for (const v of p.variations ?? []) {
      store.admin.reserveIds(v.id - 1);
      store.admin.variation(product.id, {
        sku: v.sku,
        regular_price: String(v.price),
        sale_price: '',
        stock_quantity: v.stock,
        attributes: v.attributes.map(([name, option]) => ({ name, option })),
      });
    }
  }
  const byId = new Map(catalogue.products.map((p) => [p.id, p]));
  for (const c of catalogue.customers) {
    store.admin.customer({ id: c.id, first_name: c.first_name, last_name: c.last_name, email: c.email, billing: { phone: c.phone, email: c.email } });
  }
  for (const o of catalogue.orders) {
    const customer = catalogue.customers.find((c) => c.id === o.customer);
    const lines = o.lines.map(([productId, variationId, quantity]) => {
      const p = byId.get(productId);
      const v = p?.variations?.find((x) => x.id === variationId);
      const price = v?.price ?? p?.sale ?? p?.regular ?? 0;
      return { name: p?.name ?? '', product_id: productId, variation_id: variationId, quantity, sku: v?.sku ?? p?.sku ?? '', price };
    });
    store.admin.order({
      id: o.id,
      number: o.number,
      status: o.status,
      currency: o.currency,
      total: String(lines.reduce((s, l) => s + l.price * l.quantity, 0)),
      billing: { first_name: customer?.first_name, last_name: customer?.last_name, email: customer?.email, phone: customer?.phone },
      line_items: lines,
    });
  }
  store.admin.reserveIds(20_000);
  return store;
}

const sandboxes = new Map<string, FakeStore>();

/**
 * The fetch of a sandbox store: one store per company and host, created on first use from its
 * country's catalogue; the keys it accepts are the ones the store record holds.
 */
export function sandboxFetch(companyId: string, url: string, country: string, keys: { consumerKey: string; consumerSecret: string }): FetchLike {
  const host = new URL(url).hostname;
  const id = `${companyId}:${host}`;
  let store = sandboxes.get(id);
  if (!store || !safeEqual(keys.consumerKey, store.keys.key) || !safeEqual(keys.consumerSecret, store.keys.secret)) {
    if (!/^ck_sandbox/.test(keys.consumerKey) || !/^cs_sandbox/.test(keys.consumerSecret)) {
      // a sandbox accepts only sandbox keys: anything else is answered as a real store would
      const refusing = createFakeStore({ consumerKey: 'ck_sandbox', consumerSecret: 'cs_sandbox' });
      return refusing.fetch();
    }
    store = createSandboxStore(host, country, keys);
    sandboxes.set(id, store);
  }
  return store.fetch();
}

/** A simple product picture (SVG) for the sandbox's images, drawn from the file's name. */
export function sandboxImageSvg(file: string): string {
  const name = file.replace(/\.svg$/, '').replace(/[^a-z0-9-]/gi, '').replace(/-/g, ' ');
  let hue = 0;
  for (const ch of name) hue = (hue * 31 + ch.charCodeAt(0)) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400"><rect width="400" height="400" fill="hsl(${hue},45%,88%)"/><circle cx="200" cy="170" r="90" fill="hsl(${hue},45%,60%)"/><text x="200" y="330" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#28156C">${name}</text></svg>`;
}
