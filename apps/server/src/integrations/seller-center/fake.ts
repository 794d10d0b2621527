import { randomUUID } from 'node:crypto';
import type { FetchLike } from './client.js';
import { signatureMatches } from './signature.js';

/**
 * An in-memory Seller Center account that answers the API as Falabella / Linio do, for the parts
 * this product uses (decision 0035): signed requests (UserID, Timestamp within 15 minutes, the
 * HMAC-SHA256 Signature), JSON answers with Seller Center's quirks (one element instead of a list,
 * numbers as text, an empty list as ""), GetProducts by Offset/Limit, ProductUpdate as an
 * asynchronous feed checked with FeedStatus (per-SKU errors), the feed limit (50 at once, then
 * one every 2 minutes, answered 429), GetOrders / GetOrderItems / GetDocument /
 * SetStatusToReadyToShip, ErrorResponse bodies with Seller Center's codes, an optional read rate
 * limit and injected failures. It serves the tests' HTTP fake (test/fakes/seller-center.ts), the
 * benchmark and the demo's sandbox accounts (sandbox.ts).
 */
export interface FakeSellerCenterOptions {
  userId?: string;
  apiKey?: string;
  country?: string;
  now?: () => number;
  /** Feeds allowed back to back, then one per interval (Seller Center: 50, 2 minutes). */
  feedBurst?: number;
  feedIntervalMs?: number;
  /** FeedStatus answers "Processing" this many times before the feed is finished (default 0). */
  feedPolls?: number;
  /** Reads per second before 429 (a token bucket); default none. */
  rateLimitPerSecond?: number;
}

export interface FakeProduct {
  SellerSku: string;
  ParentSku: string;
  ShopSku: string;
  Name: string;
  Variation: string;
  Brand: string;
  PrimaryCategory: string;
  Description: string;
  MainImage: string;
  Url: string;
  Price: number;
  SalePrice?: number;
  Quantity: number;
  Status: 'active' | 'inactive' | 'deleted';
}

export interface FakeItem {
  OrderItemId: string;
  OrderId: string;
  Sku: string;
  ShopSku: string;
  Name: string;
  Variation: string;
  Status: string;
  ItemPrice: number;
  PaidPrice: number;
  ShippingAmount: number;
  Currency: string;
  PackageId: string;
  TrackingCode: string;
  ShipmentProvider: string;
  ShippingType: string;
  createdAt: number;
  updatedAt: number;
}

export interface FakeOrder {
  OrderId: string;
  OrderNumber: string;
  CustomerFirstName: string;
  CustomerLastName: string;
  CustomerEmail: string;
  Phone: string;
  Address1: string;
  City: string;
  Region: string;
  PaymentMethod: string;
  ShippingType: string;
  NationalRegistrationNumber: string;
  createdAt: number;
  updatedAt: number;
  promisedAt: number;
  items: FakeItem[];
}

interface FakeFeed {
  id: string;
  action: string;
  status: 'Queued' | 'Processing' | 'Finished' | 'Canceled';
  records: Array<{ sku: string; price?: string; stock?: string; operatorCode?: string }>;
  errors: Array<{ sku: string; message: string }>;
  polls: number;
  createdAt: number;
}

export interface FakeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const DOCUMENT_TYPES = ['invoice', 'exportInvoice', 'shippingLabel', 'shippingParcel', 'carrierManifest', 'serialNumber'];
const TIME_ZONES: Record<string, string> = { PE: 'America/Lima', CL: 'America/Santiago', CO: 'America/Bogota' };
const READY = new Set(['ready_to_ship', 'shipped', 'delivered']);

/** Seller Center's JSON lists: one element alone, none as "". */
const list = <T>(items: T[]): T | T[] | '' => (items.length === 0 ? '' : items.length === 1 ? items[0] : items);
const money = (n: number | undefined) => (n === undefined ? '' : n.toFixed(2));

/** A date as Seller Center prints it: local time of the account's country, without offset. */
export function localTime(ms: number, country: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONES[country] ?? 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/** A tiny PDF with one line of text: what GetDocument answers in base64. */
export function tinyPdf(line: string): Buffer {
  const safe = line.replace(/[()\\]/g, ' ').replace(/[^\x20-\x7e]/g, '?');
  const stream = `BT /F1 14 Tf 40 780 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const unescapeXml = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e] as string).trim();
const tag = (xml: string, name: string) => {
  const m = xml.match(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`));
  return m ? unescapeXml(m[1]) : undefined;
};

/** The products of a ProductUpdate body: SellerSku and Price/Quantity, or a BusinessUnit's Price/Stock. */
export function productsOfXml(xml: string) {
  return [...xml.matchAll(/<Product>([\s\S]*?)<\/Product>/g)].map((m) => {
    const p = m[1];
    const unit = p.match(/<BusinessUnit>([\s\S]*?)<\/BusinessUnit>/)?.[1];
    return {
      sku: tag(p, 'SellerSku') ?? '',
      price: unit !== undefined ? tag(unit, 'Price') : tag(p, 'Price'),
      stock: unit !== undefined ? tag(unit, 'Stock') : tag(p, 'Quantity'),
      operatorCode: unit !== undefined ? tag(unit, 'OperatorCode') : undefined,
    };
  });
}

export function createFakeSellerCenter(options: FakeSellerCenterOptions = {}) {
  const account = { userId: options.userId ?? 'api@tienda.pe', apiKey: options.apiKey ?? 'clave-de-prueba', country: options.country ?? 'PE' };
  const now = options.now ?? Date.now;
  const feedBurst = options.feedBurst ?? 50;
  const feedIntervalMs = options.feedIntervalMs ?? 120_000;
  const operatorCode = ({ PE: 'fape', CL: 'facl', CO: 'faco' } as Record<string, string>)[account.country] ?? account.country.toLowerCase();
  const currency = ({ PE: 'PEN', CL: 'CLP', CO: 'COP' } as Record<string, string>)[account.country] ?? 'USD';
  const products = new Map<string, FakeProduct>();
  const orders = new Map<string, FakeOrder>();
  const feeds = new Map<string, FakeFeed>();
  const refusals = new Map<string, string>();
  const failures: number[] = [];
  const feedTimes: number[] = [];
  const stats = { requests: 0, reads: 0, feeds: 0, skusUpdated: 0, rateLimited: 0, feedLimited: 0, signatureFailures: 0, failed: 0, byAction: {} as Record<string, number> };
  let tokens = options.rateLimitPerSecond ?? 0;
  let refilledAt = now();
  let nextOrderId = 1_104_089_000;
  let nextItemId = 101_311_900;
  let nextPackage = 3500;

  const ok = (action: string, body: unknown, head: Record<string, unknown> = {}): FakeAnswer => ({
    status: 200,
    headers: {},
    body: JSON.stringify({
      SuccessResponse: { Head: { RequestId: '', RequestAction: action, ResponseType: '', Timestamp: new Date(now()).toISOString(), ...head }, Body: body },
    }),
  });
  const fail = (action: string, code: number, message: string, status = 400, headers: Record<string, string> = {}): FakeAnswer => ({
    status,
    headers,
    body: JSON.stringify({
      ErrorResponse: {
        Head: { RequestAction: action, ErrorType: status >= 500 ? 'Platform' : 'Sender', ErrorCode: String(code), ErrorMessage: `E${String(code).padStart(3, '0')}: ${message}` },
        Body: '',
      },
    }),
  });

  const productOut = (p: FakeProduct) => ({
    SellerSku: p.SellerSku,
    ShopSku: p.ShopSku,
    Name: p.Name,
    Brand: p.Brand,
    Description: p.Description,
    Variation: p.Variation,
    ParentSku: p.ParentSku,
    Quantity: String(p.Quantity),
    Available: String(p.Quantity),
    Price: money(p.Price),
    SalePrice: money(p.SalePrice),
    Status: p.Status,
    Url: p.Url,
    MainImage: p.MainImage,
    PrimaryCategory: p.PrimaryCategory,
    BusinessUnits: {
      BusinessUnit: { OperatorCode: operatorCode, Price: money(p.Price), SpecialPrice: money(p.SalePrice), Stock: String(p.Quantity), Status: p.Status },
    },
  });

  const itemOut = (i: FakeItem, order: FakeOrder) => ({
    OrderItemId: i.OrderItemId,
    OrderId: i.OrderId,
    OrderNumber: order.OrderNumber,
    Name: i.Name,
    Sku: i.Sku,
    Variation: i.Variation,
    ShopSku: i.ShopSku,
    ShippingType: i.ShippingType,
    Currency: i.Currency,
    Status: i.Status,
    ShipmentProvider: i.ShipmentProvider,
    TrackingCode: i.TrackingCode,
    PackageId: i.PackageId,
    ItemPrice: money(i.ItemPrice),
    PaidPrice: money(i.PaidPrice),
    ShippingAmount: money(i.ShippingAmount),
    CreatedAt: localTime(i.createdAt, account.country),
    UpdatedAt: localTime(i.updatedAt, account.country),
  });

  const orderOut = (o: FakeOrder) => {
    const address = { FirstName: o.CustomerFirstName, LastName: o.CustomerLastName, Phone: o.Phone, Address1: o.Address1, City: o.City, Region: o.Region, Country: account.country, CustomerEmail: o.CustomerEmail };
    return {
      OrderId: o.OrderId,
      CustomerFirstName: o.CustomerFirstName,
      CustomerLastName: o.CustomerLastName,
      OrderNumber: o.OrderNumber,
      PaymentMethod: o.PaymentMethod,
      Price: money(o.items.reduce((s, i) => s + i.PaidPrice + i.ShippingAmount, 0)),
      CreatedAt: localTime(o.createdAt, account.country),
      UpdatedAt: localTime(o.updatedAt, account.country),
      AddressBilling: address,
      AddressShipping: address,
      ItemsCount: String(o.items.length),
      PromisedShippingTime: localTime(o.promisedAt, account.country),
      ShippingType: o.ShippingType,
      NationalRegistrationNumber: o.NationalRegistrationNumber,
      Statuses: { Status: list([...new Set(o.items.map((i) => i.Status))]) },
    };
  };

  /** An instant of a query (ISO 8601 with offset), or undefined when it is not one. */
  const instant = (v: string | null) => {
    if (!v || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2}|Z)$/.test(v)) return undefined;
    const ms = Date.parse(v);
    return Number.isFinite(ms) ? ms : undefined;
  };
  const intParam = (v: string | null, fallback: number) => (v === null || v === '' ? fallback : /^\d+$/.test(v) ? Number(v) : Number.NaN);
  const idsParam = (v: string | null) => {
    if (!v) return undefined;
    const m = v.match(/^\[([\d,\s]*)\]$/);
    return m ? m[1].split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  };

  function processFeed(feed: FakeFeed) {
    for (const r of feed.records) {
      const p = products.get(r.sku);
      const err = (message: string) => feed.errors.push({ sku: r.sku, message });
      if (!p) {
        err(`Field SellerSku with value '${r.sku}' has a problem: The product does not exist`);
        continue;
      }
      if (refusals.has(r.sku)) {
        err(refusals.get(r.sku) as string);
        continue;
      }
      if (r.operatorCode !== undefined && r.operatorCode !== operatorCode) {
        err(`Field OperatorCode with value '${r.operatorCode}' has a problem: Invalid business unit for this seller`);
        continue;
      }
      let price: number | undefined;
      if (r.price !== undefined) {
        if (!/^\d+(\.\d{1,2})?$/.test(r.price) || Number(r.price) <= 0) {
          err(`Field Price with value '${r.price}' has a problem: Field must contain a positive number with a dot as decimal separator and 2 decimals (e.g. 120.00)`);
          continue;
        }
        price = Number(r.price);
        if (p.SalePrice !== undefined && price < p.SalePrice) {
          err(`Field Price with value '${r.price}' has a problem: Price must be higher than SalePrice (${money(p.SalePrice)})`);
          continue;
        }
      }
      let stock: number | undefined;
      if (r.stock !== undefined) {
        if (!/^\d+$/.test(r.stock)) {
          err(`Field Quantity with value '${r.stock}' has a problem: Field must contain a whole number of 0 or more`);
          continue;
        }
        stock = Number(r.stock);
      }
      if (price !== undefined) p.Price = price;
      if (stock !== undefined) p.Quantity = stock;
      stats.skusUpdated++;
    }
    feed.status = 'Finished';
  }

  function handle(req: { method: string; query: URLSearchParams; body?: string }): FakeAnswer {
    stats.requests++;
    const q = req.query;
    const action = q.get('Action') ?? '';
    stats.byAction[action] = (stats.byAction[action] ?? 0) + 1;
    const failure = failures.shift();
    if (failure) {
      stats.failed++;
      return fail(action, failure === 429 ? 429 : 6, failure === 429 ? 'Too many requests' : 'Unexpected internal error', failure);
    }
    for (const p of ['Action', 'Timestamp', 'UserID', 'Version', 'Signature']) {
      if (!q.get(p)) return fail(action, 1, `Parameter ${p} is mandatory`);
    }
    if (q.get('Version') !== '1.0') return fail(action, 2, 'Invalid Version');
    const ts = instant(q.get('Timestamp'));
    if (ts === undefined) return fail(action, 4, 'Invalid Timestamp format');
    if (Math.abs(now() - ts) > 15 * 60_000) return fail(action, 3, 'Timestamp has expired');
    const params = Object.fromEntries(q.entries());
    if (q.get('UserID') !== account.userId || !signatureMatches(params, account.apiKey)) {
      stats.signatureFailures++;
      return fail(action, 7, 'Login failed. Signature mismatching', 401);
    }
    if (q.get('Format') !== 'JSON') return fail(action, 5, 'Invalid Request Format (this fake answers JSON only)');
    if (options.rateLimitPerSecond) {
      const t = now();
      tokens = Math.min(options.rateLimitPerSecond, tokens + ((t - refilledAt) / 1000) * options.rateLimitPerSecond);
      refilledAt = t;
      if (tokens < 1) {
        stats.rateLimited++;
        return fail(action, 429, 'Too many requests', 429, { 'retry-after': '1' });
      }
      tokens -= 1;
    }
    const post = req.method === 'POST';
    switch (action) {
      case 'GetProducts': {
        stats.reads++;
        const limit = intParam(q.get('Limit'), 1000);
        const offset = intParam(q.get('Offset'), 0);
        if (!Number.isInteger(limit) || limit < 1 || limit > 5000) return fail(action, 19, `"${q.get('Limit')}" Invalid Limit`);
        if (!Number.isInteger(offset) || offset < 0) return fail(action, 14, `"${q.get('Offset')}" Invalid Offset`);
        let all = [...products.values()];
        const filter = q.get('Filter') ?? 'all';
        if (filter === 'live') all = all.filter((p) => p.Status === 'active' && p.Quantity > 0);
        else if (filter === 'inactive') all = all.filter((p) => p.Status === 'inactive');
        else if (filter === 'deleted') all = all.filter((p) => p.Status === 'deleted');
        else if (filter === 'sold-out') all = all.filter((p) => p.Quantity === 0);
        else if (filter !== 'all') return fail(action, 36, 'Invalid status filter');
        const skus = q.get('SkuSellerList');
        if (skus) {
          let wanted: unknown;
          try {
            wanted = JSON.parse(skus);
          } catch {
            wanted = undefined;
          }
          if (!Array.isArray(wanted)) return fail(action, 70, 'You have corrupt data in your sku seller list.');
          const set = new Set(wanted.map(String));
          all = all.filter((p) => set.has(p.SellerSku));
        }
        const search = q.get('Search');
        if (search) all = all.filter((p) => `${p.Name} ${p.SellerSku}`.toLowerCase().includes(search.toLowerCase()));
        return ok(action, { Products: { Product: list(all.slice(offset, offset + limit).map(productOut)) } }, { ResponseType: 'Products' });
      }
      case 'ProductUpdate': {
        if (!post) return fail(action, 5, 'Invalid Request Format: ProductUpdate is a POST');
        const records = productsOfXml(req.body ?? '');
        if (!records.length) return fail(action, 30, 'Empty Request');
        const t = now();
        while (feedTimes.length && feedTimes[0] < t - 86_400_000) feedTimes.shift();
        const recent = feedTimes.length;
        const last = feedTimes[feedTimes.length - 1] ?? 0;
        if (recent >= 770 || (recent >= feedBurst && t - last < feedIntervalMs)) {
          stats.feedLimited++;
          const wait = Math.max(1, Math.ceil((feedIntervalMs - (t - last)) / 1000));
          return fail(action, 429, 'Too many attempts to create feeds', 429, { 'retry-after': String(wait) });
        }
        feedTimes.push(t);
        stats.feeds++;
        const feed: FakeFeed = { id: randomUUID(), action, status: 'Queued', records, errors: [], polls: 0, createdAt: t };
        feeds.set(feed.id, feed);
        if (!options.feedPolls) processFeed(feed);
        return ok(action, '', { RequestId: feed.id });
      }
      case 'FeedStatus': {
        stats.reads++;
        const feed = feeds.get(q.get('FeedID') ?? '');
        if (!feed) return fail(action, 13, `Invalid Feed ID "${q.get('FeedID') ?? ''}"`);
        if (feed.status !== 'Finished' && feed.status !== 'Canceled') {
          feed.polls++;
          if (feed.polls > (options.feedPolls ?? 0)) processFeed(feed);
          else feed.status = 'Processing';
        }
        return ok(action, {
          FeedDetail: {
            Feed: feed.id,
            Status: feed.status,
            Action: feed.action,
            CreationDate: new Date(feed.createdAt).toISOString(),
            UpdatedDate: new Date(now()).toISOString(),
            Source: 'api',
            TotalRecords: String(feed.records.length),
            ProcessedRecords: String(feed.status === 'Finished' ? feed.records.length : 0),
            FailedRecords: String(feed.errors.length),
            FeedErrors: feed.status === 'Finished' ? { Error: list(feed.errors.map((e) => ({ Code: '0', Message: e.message, SellerSku: e.sku }))) } : '',
          },
        });
      }
      case 'GetOrders': {
        stats.reads++;
        const createdAfter = q.get('CreatedAfter');
        const updatedAfter = q.get('UpdatedAfter');
        if (!createdAfter && !updatedAfter) return fail(action, 18, 'Either CreatedAfter or UpdatedAfter is mandatory');
        const since = instant(createdAfter ?? updatedAfter);
        if (since === undefined) return fail(action, 17, `"${createdAfter ?? updatedAfter}" Invalid Date Format`);
        const limit = intParam(q.get('Limit'), 1000);
        const offset = intParam(q.get('Offset'), 0);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return fail(action, 19, `"${q.get('Limit')}" Invalid Limit`);
        if (!Number.isInteger(offset) || offset < 0) return fail(action, 14, `"${q.get('Offset')}" Invalid Offset`);
        const byUpdate = q.get('SortBy') === 'updated_at' || (!createdAfter && !!updatedAfter);
        let all = [...orders.values()].filter((o) => (createdAfter ? o.createdAt >= since : o.updatedAt >= since));
        const status = q.get('Status');
        if (status) all = all.filter((o) => o.items.some((i) => i.Status === status));
        all.sort((a, b) => (byUpdate ? a.updatedAt - b.updatedAt : a.createdAt - b.createdAt) || Number(a.OrderId) - Number(b.OrderId));
        if ((q.get('SortDirection') ?? 'ASC').toUpperCase() === 'DESC') all.reverse();
        return ok(action, { Orders: { Order: list(all.slice(offset, offset + limit).map(orderOut)) } }, { ResponseType: 'Orders', TotalCount: String(all.length) });
      }
      case 'GetOrderItems': {
        stats.reads++;
        const order = orders.get(q.get('OrderId') ?? '');
        if (!order) return fail(action, 16, `"${q.get('OrderId') ?? ''}" Invalid Order ID`);
        return ok(action, { OrderItems: { OrderItem: list(order.items.map((i) => itemOut(i, order))) } }, { ResponseType: 'OrderItems' });
      }
      case 'GetDocument': {
        stats.reads++;
        const type = q.get('DocumentType') ?? '';
        if (!DOCUMENT_TYPES.includes(type)) return fail(action, 32, `Document type "${type}" is not valid`);
        const ids = idsParam(q.get('OrderItemIds'));
        if (!ids?.length) return fail(action, 20, `"${q.get('OrderItemIds') ?? ''}" Invalid Order Item IDs`);
        const found = [...orders.values()].flatMap((o) => o.items.filter((i) => ids.includes(i.OrderItemId)).map((i) => ({ o, i })));
        if (found.length !== ids.length) return fail(action, 20, `"${q.get('OrderItemIds')}" Invalid Order Item IDs`);
        if (['shippingLabel', 'shippingParcel', 'carrierManifest'].includes(type) && found.some(({ i }) => !READY.has(i.Status))) {
          return fail(action, 34, 'Order Item must be packed. Please call setStatusToReadyToShip before');
        }
        if (type === 'exportInvoice' || type === 'serialNumber') return fail(action, 35, `"${type}" was not found`);
        const order = found[0].o;
        const title = type === 'invoice' ? `Factura - orden ${order.OrderNumber}` : `Etiqueta - orden ${order.OrderNumber} - ${found[0].i.PackageId}`;
        return ok(action, { Documents: { Document: { DocumentType: type, MimeType: 'application/pdf', File: tinyPdf(title).toString('base64') } } });
      }
      case 'SetStatusToReadyToShip': {
        if (!post) return fail(action, 5, 'Invalid Request Format: SetStatusToReadyToShip is a POST');
        const ids = idsParam(q.get('OrderItemIds'));
        if (!ids?.length) return fail(action, 1, 'Parameter OrderItemIds is mandatory');
        const found = [...orders.values()].flatMap((o) => o.items.filter((i) => ids.includes(i.OrderItemId)).map((i) => ({ o, i })));
        if (found.length !== ids.length) return fail(action, 23, `"${q.get('OrderItemIds')}" Invalid Order Item IDs`);
        if (new Set(found.map((f) => f.o.OrderId)).size > 1) return fail(action, 29, 'Order items must be from the same order');
        const blocked = found.filter(({ i }) => i.Status !== 'pending' && i.Status !== 'ready_to_ship');
        if (blocked.length) return fail(action, 73, `All order items must have status Pending or Ready To Ship. (${blocked.map((b) => b.i.OrderItemId).join(', ')})`);
        const t = now();
        for (const { o, i } of found) {
          i.Status = 'ready_to_ship';
          i.updatedAt = t;
          o.updatedAt = t;
        }
        const order = found[0].o;
        return ok(action, { OrderItems: { OrderItem: list(found.map(({ i }) => ({ PurchaseOrderId: i.OrderItemId, PurchaseOrderNumber: order.OrderNumber }))) } });
      }
      default:
        return fail(action, 8, 'Invalid Action');
    }
  }

  const admin = {
    /** Adds (or replaces) a SKU. */
    product(p: Partial<FakeProduct> & { SellerSku: string; Name: string; Price: number; Quantity: number }) {
      const product: FakeProduct = {
        ParentSku: p.SellerSku,
        ShopSku: `${p.SellerSku.replace(/[^A-Z0-9]/gi, '').slice(0, 10).toUpperCase()}${operatorCode.toUpperCase()}`,
        Variation: '',
        Brand: '',
        PrimaryCategory: '',
        Description: '',
        MainImage: '',
        Url: '',
        Status: 'active',
        ...p,
      };
      products.set(product.SellerSku, product);
      return product;
    },
    /** Adds an order with its items (one per unit, as Seller Center keeps them). */
    order(o: {
      id?: string;
      number?: string;
      firstName: string;
      lastName: string;
      email?: string;
      phone?: string;
      address?: string;
      city?: string;
      region?: string;
      paymentMethod?: string;
      shippingType?: string;
      /** The customer's document (DNI / RUC, RUT, CC / NIT). */
      taxId?: string;
      createdAt?: number;
      items: Array<{ sku: string; status?: string; price?: number; paidPrice?: number; shipping?: number }>;
    }) {
      const id = o.id ?? String(++nextOrderId);
      const t = o.createdAt ?? now();
      const order: FakeOrder = {
        OrderId: id,
        OrderNumber: o.number ?? String(2_771_000_000 + (nextOrderId % 1_000_000)),
        CustomerFirstName: o.firstName,
        CustomerLastName: o.lastName,
        CustomerEmail: o.email ?? '',
        Phone: o.phone ?? '',
        Address1: o.address ?? '',
        City: o.city ?? '',
        Region: o.region ?? '',
        PaymentMethod: o.paymentMethod ?? 'ecommPay',
        ShippingType: o.shippingType ?? 'Dropshipping',
        NationalRegistrationNumber: o.taxId ?? '',
        createdAt: t,
        updatedAt: t,
        promisedAt: t + 2 * 86_400_000,
        items: [],
      };
      const pkg = `PKG${String(++nextPackage).padStart(10, '0')}`;
      for (const line of o.items) {
        const p = products.get(line.sku);
        const price = line.price ?? p?.SalePrice ?? p?.Price ?? 0;
        order.items.push({
          OrderItemId: String(++nextItemId),
          OrderId: id,
          Sku: line.sku,
          ShopSku: p?.ShopSku ?? '',
          Name: p?.Name ?? line.sku,
          Variation: p?.Variation ?? '',
          Status: line.status ?? 'pending',
          ItemPrice: price,
          PaidPrice: line.paidPrice ?? price,
          ShippingAmount: line.shipping ?? 0,
          Currency: currency,
          PackageId: pkg,
          TrackingCode: line.status && line.status !== 'pending' ? `8000266${nextItemId}` : '',
          ShipmentProvider: 'Blue Express',
          ShippingType: order.ShippingType,
          createdAt: t,
          updatedAt: t,
        });
      }
      orders.set(id, order);
      return order;
    },
    /** Moves items to a status, as the marketplace would (the order's UpdatedAt moves too). */
    setItemStatus(orderId: string, status: string, at = now()) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      for (const i of order.items) {
        i.Status = status;
        i.updatedAt = at;
      }
      order.updatedAt = at;
    },
    /** The next feed refuses this SKU with this message (until cleared with `undefined`). */
    refuse(sku: string, message: string | undefined) {
      if (message === undefined) refusals.delete(sku);
      else refusals.set(sku, message);
    },
  };

  return {
    account,
    products,
    orders,
    feeds,
    stats,
    admin,
    handle,
    /** The next `n` requests are answered with `status` (429, or a 5xx internal error). */
    failNext(n: number, status = 500) {
      failures.length = 0;
      for (let i = 0; i < n; i++) failures.push(status);
    },
    /** A fetch answered in-process (the sandbox's and the benchmark's transport). */
    fetch(): FetchLike {
      return async (url, init) => {
        const u = new URL(url);
        const answer = u.pathname === '/' ? handle({ method: init.method, query: u.searchParams, body: init.body }) : notFound();
        return { status: answer.status, headers: { get: (name: string) => answer.headers[name.toLowerCase()] ?? null }, text: async () => answer.body };
      };
    },
  };
}
export type FakeSellerCenter = ReturnType<typeof createFakeSellerCenter>;

/** Any other path of the host: an HTML page, as a web server answers it. */
export const notFound = (): FakeAnswer => ({ status: 404, headers: { 'content-type': 'text/html' }, body: '<html><body>Not Found</body></html>' });
