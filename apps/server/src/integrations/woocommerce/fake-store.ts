import type { FetchLike } from './client.js';
import type { WooAttribute, WooCategory, WooCustomer, WooOrder, WooProduct, WooTag, WooTerm, WooVariation } from './types.js';

/**
 * An in-memory WooCommerce store that answers the REST API v3 as WooCommerce does, for the
 * parts this product uses: Basic auth with read / write / read_write keys, lists with
 * `per_page` ≤ 100 and `page`, `X-WP-Total` / `X-WP-TotalPages`, single items, batches of ≤ 100
 * items (413 beyond), the error bodies `{ code, message, data: { status } }`, an optional rate
 * limit answered 429 with Retry-After, and injected failures. It serves the tests' HTTP fake
 * (test/fakes/woocommerce.ts), the benchmark and the demo's sandbox stores (sandbox.ts).
 */
export interface FakeStoreOptions {
  consumerKey?: string;
  consumerSecret?: string;
  permission?: 'read' | 'write' | 'read_write';
  /** At most this many requests per second (a token bucket); more are answered 429. */
  rateLimitPerSecond?: number;
  now?: () => number;
}

export interface FakeRequest {
  method: string;
  /** Path after /wp-json/wc/v3 (`/products/12/variations`). */
  path: string;
  query: URLSearchParams;
  authorization?: string;
  body?: unknown;
}

export interface FakeResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type WooTopic = `${'product' | 'order' | 'customer'}.${'created' | 'updated' | 'deleted'}`;

const clone = <T>(v: T): T => structuredClone(v);
const err = (status: number, code: string, message: string): FakeResponse => ({ status, headers: {}, body: { code, message, data: { status } } });

export function createFakeStore(options: FakeStoreOptions = {}) {
  const keys = { key: options.consumerKey ?? 'ck_fake', secret: options.consumerSecret ?? 'cs_fake', permission: options.permission ?? 'read_write' };
  const now = options.now ?? Date.now;
  let nextId = 1000;
  const products = new Map<number, WooProduct>();
  const variations = new Map<number, Map<number, WooVariation>>();
  const categories = new Map<number, WooCategory>();
  const tags = new Map<number, WooTag>();
  const attributes = new Map<number, WooAttribute>();
  const terms = new Map<number, Map<number, WooTerm>>();
  const orders = new Map<number, WooOrder>();
  const customers = new Map<number, WooCustomer>();
  const webhooks: Array<{ id: number; topic: string; delivery_url: string; secret: string; status: string }> = [];
  const stats = { requests: 0, reads: 0, writes: 0, itemWrites: 0, rateLimited: 0, failed: 0 };
  const failures: Array<{ status: number; path?: RegExp }> = [];
  let tokens = options.rateLimitPerSecond ?? 0;
  let refilledAt = now();
  const listeners = new Set<(topic: WooTopic, resource: unknown) => void>();

  const id = () => ++nextId;
  const touch = () => new Date(now()).toISOString().slice(0, 19);
  const changed = (topic: WooTopic, resource: unknown) => {
    for (const l of listeners) l(topic, clone(resource));
  };

  function page<T>(items: T[], query: URLSearchParams): FakeResponse {
    const perPage = Number(query.get('per_page') ?? 10);
    const pageNo = Number(query.get('page') ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return err(400, 'rest_invalid_param', 'Invalid parameter(s): per_page (per_page must be between 1 (inclusive) and 100 (inclusive))');
    }
    if (!Number.isInteger(pageNo) || pageNo < 1) return err(400, 'rest_invalid_param', 'Invalid parameter(s): page');
    let list = items;
    const search = query.get('search');
    if (search) list = list.filter((x) => JSON.stringify(x).toLowerCase().includes(search.toLowerCase()));
    const sku = query.get('sku');
    if (sku) list = list.filter((x) => (x as { sku?: string }).sku === sku);
    const include = query.get('include');
    if (include) {
      const ids = new Set(include.split(',').map(Number));
      list = list.filter((x) => ids.has((x as { id: number }).id));
    }
    const total = list.length;
    const totalPages = Math.max(1, Math.ceil(total / perPage));
    if (pageNo > totalPages && total > 0) return err(400, 'rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.');
    return {
      status: 200,
      headers: { 'x-wp-total': String(total), 'x-wp-totalpages': String(totalPages) },
      body: clone(list.slice((pageNo - 1) * perPage, pageNo * perPage)),
    };
  }

  const sorted = <T extends { id: number }>(m: Map<number, T>) => [...m.values()].sort((a, b) => a.id - b.id);

  function productFrom(input: Partial<WooProduct>, existing?: WooProduct): WooProduct {
    const p: WooProduct = {
      id: existing?.id ?? id(),
      name: input.name ?? existing?.name ?? '',
      slug: existing?.slug ?? (input.name ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      type: input.type ?? existing?.type ?? 'simple',
      status: input.status ?? existing?.status ?? 'publish',
      description: input.description ?? existing?.description ?? '',
      sku: input.sku ?? existing?.sku ?? '',
      regular_price: input.regular_price ?? existing?.regular_price ?? '',
      sale_price: input.sale_price ?? existing?.sale_price ?? '',
      manage_stock: true,
      stock_quantity: input.stock_quantity !== undefined ? input.stock_quantity : (existing?.stock_quantity ?? null),
      categories: input.categories ? input.categories.map((c) => ({ id: c.id, name: categories.get(c.id)?.name, slug: categories.get(c.id)?.slug })) : (existing?.categories ?? []),
      tags: input.tags ? input.tags.map((t) => ({ id: t.id, name: tags.get(t.id)?.name, slug: tags.get(t.id)?.slug })) : (existing?.tags ?? []),
      images: input.images ? input.images.map((im, i) => ({ id: im.id ?? 5000 + i, src: im.src, name: im.name ?? '', alt: im.alt ?? '' })) : (existing?.images ?? []),
      attributes: input.attributes
        ? input.attributes.map((a, i) => ({ id: a.id ?? 0, name: a.name, position: i, visible: a.visible ?? true, variation: a.variation ?? true, options: [...a.options] }))
        : (existing?.attributes ?? []),
      variations: existing?.variations ?? [],
      date_modified_gmt: touch(),
    };
    p.price = p.sale_price || p.regular_price;
    return p;
  }

  function variationFrom(input: Partial<WooVariation>, existing?: WooVariation): WooVariation {
    const v: WooVariation = {
      id: existing?.id ?? id(),
      sku: input.sku ?? existing?.sku ?? '',
      regular_price: input.regular_price ?? existing?.regular_price ?? '',
      sale_price: input.sale_price ?? existing?.sale_price ?? '',
      manage_stock: true,
      stock_quantity: input.stock_quantity !== undefined ? input.stock_quantity : (existing?.stock_quantity ?? null),
      attributes: input.attributes ? input.attributes.map((a) => ({ id: a.id ?? 0, name: a.name, option: a.option })) : (existing?.attributes ?? []),
      image: input.image ?? existing?.image ?? null,
    };
    v.price = v.sale_price || v.regular_price;
    return v;
  }

  /** SKU → the product or variation holding it (WooCommerce keeps SKUs unique in a store). */
  const skus = new Map<string, number>();
  const validSku = (sku: string | undefined, selfId?: number) => {
    if (!sku) return true;
    const holder = skus.get(sku);
    if (holder === undefined || holder === selfId) return true;
    // a holder that no longer exists frees its SKU
    const alive = products.get(holder)?.sku === sku || [...variations.values()].some((vs) => vs.get(holder)?.sku === sku);
    return !alive;
  };
  const takeSku = (oldSku: string | undefined, newSku: string, itemId: number) => {
    if (oldSku && oldSku !== newSku && skus.get(oldSku) === itemId) skus.delete(oldSku);
    if (newSku) skus.set(newSku, itemId);
  };
  const dupSku = () => err(400, 'product_invalid_sku', 'Invalid or duplicated SKU.');

  function saveProduct(input: Partial<WooProduct>, existingId?: number): FakeResponse {
    const existing = existingId !== undefined ? products.get(existingId) : undefined;
    if (existingId !== undefined && !existing) return err(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
    if (!existing && !input.name) return err(400, 'rest_missing_callback_param', 'Missing parameter(s): name');
    if (!validSku(input.sku, existing?.id)) return dupSku();
    const p = productFrom(input, existing);
    takeSku(existing?.sku, p.sku, p.id);
    products.set(p.id, p);
    if (!variations.has(p.id)) variations.set(p.id, new Map());
    stats.itemWrites++;
    changed(existing ? 'product.updated' : 'product.created', p);
    return { status: existing ? 200 : 201, headers: {}, body: clone(p) };
  }

  function saveVariation(productId: number, input: Partial<WooVariation>, existingId?: number): FakeResponse {
    const product = products.get(productId);
    if (!product) return err(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
    const list = variations.get(productId) ?? new Map<number, WooVariation>();
    const existing = existingId !== undefined ? list.get(existingId) : undefined;
    if (existingId !== undefined && !existing) return err(404, 'woocommerce_rest_product_variation_invalid_id', 'Invalid ID.');
    if (!validSku(input.sku, existing?.id)) return dupSku();
    const v = variationFrom(input, existing);
    takeSku(existing?.sku, v.sku, v.id);
    list.set(v.id, v);
    variations.set(productId, list);
    product.variations = [...list.keys()];
    product.type = 'variable';
    stats.itemWrites++;
    return { status: existing ? 200 : 201, headers: {}, body: clone(v) };
  }

  function runBatch(body: unknown, save: (input: Record<string, unknown>, existingId?: number) => FakeResponse, remove: (id: number) => FakeResponse): FakeResponse {
    const b = (body ?? {}) as { create?: unknown[]; update?: unknown[]; delete?: unknown[] };
    const count = (b.create?.length ?? 0) + (b.update?.length ?? 0) + (b.delete?.length ?? 0);
    if (count > 100) return err(413, 'rest_request_entity_too_large', 'Unable to accept more than 100 items for this request.');
    const out: Record<string, unknown[]> = {};
    const result = (r: FakeResponse, itemId?: number) =>
      r.status < 300 ? r.body : { id: itemId ?? 0, error: { code: (r.body as { code: string }).code, message: (r.body as { message: string }).message, data: { status: r.status } } };
    if (b.create) out.create = b.create.map((x) => result(save(x as Record<string, unknown>)));
    if (b.update)
      out.update = b.update.map((x) => {
        const itemId = Number((x as { id?: unknown }).id);
        return result(save(x as Record<string, unknown>, itemId), itemId);
      });
    if (b.delete) out.delete = b.delete.map((x) => result(remove(Number(x)), Number(x)));
    return { status: 200, headers: {}, body: out };
  }

  function simpleSave<T extends { id: number }>(map: Map<number, T>, build: (input: Record<string, unknown>, existing?: T) => T) {
    return (input: Record<string, unknown>, existingId?: number): FakeResponse => {
      const existing = existingId !== undefined ? map.get(existingId) : undefined;
      if (existingId !== undefined && !existing) return err(404, 'woocommerce_rest_term_invalid', 'Resource does not exist.');
      const item = build(input, existing);
      map.set(item.id, item);
      stats.itemWrites++;
      return { status: existing ? 200 : 201, headers: {}, body: clone(item) };
    };
  }
  const removeFrom = <T>(map: Map<number, T>, topic?: WooTopic) => (itemId: number): FakeResponse => {
    const item = map.get(itemId);
    if (!item) return err(404, 'woocommerce_rest_invalid_id', 'Invalid ID.');
    map.delete(itemId);
    stats.itemWrites++;
    if (topic) changed(topic, { id: itemId });
    return { status: 200, headers: {}, body: clone(item) };
  };
  const slugOf = (s: string) => s.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const saveCategory = simpleSave(categories, (i, e) => ({
    id: e?.id ?? id(),
    name: String(i.name ?? e?.name ?? ''),
    slug: String(i.slug ?? e?.slug ?? slugOf(String(i.name ?? ''))),
    parent: Number(i.parent ?? e?.parent ?? 0),
  }));
  const saveTag = simpleSave(tags, (i, e) => ({ id: e?.id ?? id(), name: String(i.name ?? e?.name ?? ''), slug: String(i.slug ?? e?.slug ?? slugOf(String(i.name ?? ''))) }));

  function authorise(req: FakeRequest): FakeResponse | undefined {
    const header = req.authorization ?? '';
    let key = req.query.get('consumer_key') ?? '';
    let secret = req.query.get('consumer_secret') ?? '';
    if (header.startsWith('Basic ')) [key, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    if (!key) return err(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.');
    if (key !== keys.key) return err(401, 'woocommerce_rest_authentication_error', 'Consumer key is invalid.');
    if (secret !== keys.secret) return err(401, 'woocommerce_rest_authentication_error', 'Invalid signature - provided signature does not match.');
    const write = req.method !== 'GET';
    if (write && keys.permission === 'read') return err(401, 'woocommerce_rest_authentication_error', 'The API key provided does not have write permissions.');
    if (!write && keys.permission === 'write') return err(401, 'woocommerce_rest_authentication_error', 'The API key provided does not have read permissions.');
    return undefined;
  }

  function rateLimited(): boolean {
    if (!options.rateLimitPerSecond) return false;
    const t = now();
    tokens = Math.min(options.rateLimitPerSecond, tokens + ((t - refilledAt) / 1000) * options.rateLimitPerSecond);
    refilledAt = t;
    if (tokens < 1) return true;
    tokens -= 1;
    return false;
  }

  function route(req: FakeRequest): FakeResponse {
    const { method, query } = req;
    const parts = req.path.replace(/^\/+|\/+$/g, '').split('/');
    const n = (i: number) => Number(parts[i]);
    const isId = (i: number) => /^\d+$/.test(parts[i] ?? '');
    const [a, b, c, d, e] = parts;
    if (a === 'products') {
      if (b === 'categories') {
        if (parts.length === 2 && method === 'GET') return page(sorted(categories), query);
        if (parts.length === 2 && method === 'POST') return saveCategory(req.body as Record<string, unknown>);
        if (c === 'batch' && method === 'POST') return runBatch(req.body, saveCategory, removeFrom(categories));
        if (isId(2) && method === 'GET') return categories.has(n(2)) ? { status: 200, headers: {}, body: clone(categories.get(n(2))) } : err(404, 'woocommerce_rest_term_invalid', 'Resource does not exist.');
        if (isId(2) && method === 'PUT') return saveCategory(req.body as Record<string, unknown>, n(2));
      }
      if (b === 'tags') {
        if (parts.length === 2 && method === 'GET') return page(sorted(tags), query);
        if (parts.length === 2 && method === 'POST') return saveTag(req.body as Record<string, unknown>);
        if (c === 'batch' && method === 'POST') return runBatch(req.body, saveTag, removeFrom(tags));
      }
      if (b === 'attributes') {
        if (parts.length === 2 && method === 'GET') return { status: 200, headers: { 'x-wp-total': String(attributes.size), 'x-wp-totalpages': '1' }, body: clone(sorted(attributes)) };
        if (isId(2) && d === 'terms' && parts.length === 4 && method === 'GET') {
          if (!attributes.has(n(2))) return err(404, 'woocommerce_rest_taxonomy_invalid', 'Resource does not exist.');
          return page(sorted(terms.get(n(2)) ?? new Map()), query);
        }
      }
      if (b === 'batch' && method === 'POST') {
        return runBatch(req.body, (input, existingId) => saveProduct(input as Partial<WooProduct>, existingId), (pid) => {
          const r = removeFrom(products, 'product.deleted')(pid);
          variations.delete(pid);
          return r;
        });
      }
      if (parts.length === 1 && method === 'GET') return page(sorted(products), query);
      if (parts.length === 1 && method === 'POST') return saveProduct(req.body as Partial<WooProduct>);
      if (isId(1)) {
        const pid = n(1);
        if (parts.length === 2) {
          if (method === 'GET') return products.has(pid) ? { status: 200, headers: {}, body: clone(products.get(pid)) } : err(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
          if (method === 'PUT' || method === 'PATCH' || method === 'POST') return saveProduct(req.body as Partial<WooProduct>, pid);
          if (method === 'DELETE') {
            const r = removeFrom(products, 'product.deleted')(pid);
            variations.delete(pid);
            return r;
          }
        }
        if (c === 'variations') {
          if (!products.has(pid)) return err(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
          const list = variations.get(pid) ?? new Map<number, WooVariation>();
          if (parts.length === 3 && method === 'GET') return page(sorted(list), query);
          if (parts.length === 3 && method === 'POST') return saveVariation(pid, req.body as Partial<WooVariation>);
          if (d === 'batch' && method === 'POST') {
            const r = runBatch(req.body, (input, existingId) => saveVariation(pid, input as Partial<WooVariation>, existingId), (vid) => {
              const removed = removeFrom(list, undefined)(vid);
              const product = products.get(pid);
              if (product) product.variations = [...list.keys()];
              return removed;
            });
            if (r.status === 200) changed('product.updated', products.get(pid));
            return r;
          }
          if (isId(3) && parts.length === 4) {
            if (method === 'GET') return list.has(n(3)) ? { status: 200, headers: {}, body: clone(list.get(n(3))) } : err(404, 'woocommerce_rest_product_variation_invalid_id', 'Invalid ID.');
            if (method === 'PUT' || method === 'PATCH' || method === 'POST') return saveVariation(pid, req.body as Partial<WooVariation>, n(3));
          }
        }
      }
      void e;
    }
    if (a === 'orders') {
      if (parts.length === 1 && method === 'GET') return page(sorted(orders), query);
      if (isId(1) && method === 'GET') return orders.has(n(1)) ? { status: 200, headers: {}, body: clone(orders.get(n(1))) } : err(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
    }
    if (a === 'customers') {
      if (parts.length === 1 && method === 'GET') return page(sorted(customers), query);
    }
    if (a === 'webhooks') {
      if (parts.length === 1 && method === 'GET') return page(webhooks, query);
      if (isId(1) && parts.length === 2 && method === 'GET') {
        const hook = webhooks.find((w) => w.id === n(1));
        return hook ? { status: 200, headers: {}, body: { ...hook, secret: undefined } } : err(404, 'woocommerce_rest_webhook_invalid_id', 'Invalid ID.');
      }
      if (parts.length === 1 && method === 'POST') {
        const body = req.body as { topic?: string; delivery_url?: string; secret?: string; name?: string };
        if (!body?.topic || !body.delivery_url) return err(400, 'rest_missing_callback_param', 'Missing parameter(s): topic, delivery_url');
        const hook = { id: id(), topic: body.topic, delivery_url: body.delivery_url, secret: body.secret ?? '', status: 'active' };
        webhooks.push(hook);
        return { status: 201, headers: {}, body: { ...hook, secret: undefined } };
      }
    }
    return err(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  return {
    stats,
    products,
    variations,
    categories,
    tags,
    attributes,
    terms,
    orders,
    customers,
    webhooks,
    keys,
    /** Answers one API request as the store would. */
    handle(req: FakeRequest): FakeResponse {
      stats.requests++;
      if (rateLimited()) {
        stats.rateLimited++;
        return { status: 429, headers: { 'retry-after': '1' }, body: { code: 'woocommerce_rest_too_many_requests', message: 'Too many requests.', data: { status: 429 } } };
      }
      const failure = failures.findIndex((f) => !f.path || f.path.test(req.path));
      if (failure >= 0) {
        const [f] = failures.splice(failure, 1);
        stats.failed++;
        return err(f.status, 'internal_server_error', 'There has been a critical error on this website.');
      }
      const denied = authorise(req);
      if (denied) return denied;
      if (req.method === 'GET') stats.reads++;
      else stats.writes++;
      return route(req);
    },
    /** The next `count` requests (matching `path`) fail with `status`. */
    failNext(count: number, status = 500, path?: RegExp) {
      for (let i = 0; i < count; i++) failures.push({ status, path });
    },
    /** Called on every product/order/customer change (the HTTP fake delivers webhooks from here). */
    onChange(listener: (topic: WooTopic, resource: unknown) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Direct writes, as a shop manager in wp-admin would make them (no API request counted). */
    admin: {
      /** A webhook made in WooCommerce → Ajustes → Avanzado → Webhooks (its deliveries carry its id as X-WC-Webhook-ID). */
      webhook(topic: string, deliveryUrl: string, secret: string, status = 'active') {
        const hook = { id: id(), topic, delivery_url: deliveryUrl, secret, status };
        webhooks.push(hook);
        return hook;
      },
      /** A product deleted in wp-admin: gone from the API (DELETE with force), its variations too. */
      removeProduct(productId: number) {
        products.delete(productId);
        variations.delete(productId);
      },
      product: (p: Partial<WooProduct>, existingId?: number) => saveProduct(p, existingId).body as WooProduct,
      variation: (productId: number, v: Partial<WooVariation>, existingId?: number) => saveVariation(productId, v, existingId).body as WooVariation,
      category: (c: Partial<WooCategory>) => saveCategory(c as Record<string, unknown>).body as WooCategory,
      tag: (t: Partial<WooTag>) => saveTag(t as Record<string, unknown>).body as WooTag,
      attribute(name: string, termNames: string[]): WooAttribute {
        const attr = { id: attributes.size + 1, name, slug: `pa_${slugOf(name)}` };
        attributes.set(attr.id, attr);
        terms.set(attr.id, new Map(termNames.map((t) => { const term = { id: id(), name: t, slug: slugOf(t) }; return [term.id, term]; })));
        return attr;
      },
      order(o: Omit<WooOrder, 'id'> & { id?: number }): WooOrder {
        const order = { ...o, id: o.id ?? id() } as WooOrder;
        const existed = orders.has(order.id);
        orders.set(order.id, order);
        changed(existed ? 'order.updated' : 'order.created', order);
        return order;
      },
      customer(cu: Omit<WooCustomer, 'id'> & { id?: number }): WooCustomer {
        const customer = { ...cu, id: cu.id ?? id() } as WooCustomer;
        const existed = customers.has(customer.id);
        customers.set(customer.id, customer);
        changed(existed ? 'customer.updated' : 'customer.created', customer);
        return customer;
      },
      /** Ids handed out from here on start above this one. */
      reserveIds(above: number) {
        nextId = Math.max(nextId, above);
      },
    },
    /** A fetch that answers from this store in-process (the sandbox, the benchmark's fast path). */
    fetch(): FetchLike {
      return async (url, init) => {
        const u = new URL(url);
        const path = u.pathname.replace(/^.*\/wp-json\/wc\/v3/, '');
        const notApi = !u.pathname.includes('/wp-json/wc/v3');
        const res = notApi
          ? err(404, 'rest_no_route', 'No route was found matching the URL and request method.')
          : this.handle({ method: init.method, path, query: u.searchParams, authorization: init.headers.authorization, body: init.body ? JSON.parse(init.body) : undefined });
        const headers = new Map(Object.entries({ 'content-type': 'application/json', ...res.headers }));
        const text = JSON.stringify(res.body);
        return { status: res.status, headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null }, text: async () => text };
      };
    },
  };
}
export type FakeStore = ReturnType<typeof createFakeStore>;
