import { currencyOfCountry, type MarketplaceListingStatus, marketplaceItemStatusOf, marketplaceOrderStatusOf } from '@mostrador/contract';
import {
  type MarketplaceAdapter,
  MarketplaceError,
  type OfferResult,
  type OfferUpdate,
  type RemoteListing,
  type RemoteOrder,
  type RemoteOrderItem,
} from '../marketplace.js';
import { asList, createSellerCenterClient, num, operatorCodeOf, type SellerCenterOptions, text } from './client.js';

/**
 * Seller Center (Falabella, Linio) behind the module's adapter interface (decision 0035): pages
 * of SKUs and orders in our words, prices and stock sent as ProductUpdate feeds of at most
 * `feedBatch` SKUs (Falabella recommends 500–1,000 per request: feeds are limited to 50 at once,
 * then one every 2 minutes) and followed with FeedStatus until they finish.
 */
export interface SellerCenterAdapterOptions extends SellerCenterOptions {
  /** SKUs per GetProducts page (default 500). */
  pageSize?: number;
  /** Orders per GetOrders page (default 100: each changed order costs a GetOrderItems). */
  ordersPageSize?: number;
  /** SKUs per ProductUpdate feed (default 1,000). */
  feedBatch?: number;
  /** How often and how many times FeedStatus is asked before a feed counts as still processing. */
  feedPollMs?: number;
  feedPollTries?: number;
}

const TIME_ZONES: Record<string, string> = { PE: 'America/Lima', CL: 'America/Santiago', CO: 'America/Bogota' };

/** Minutes a time zone is ahead of UTC at an instant. */
function offsetMinutes(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return (Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(ms / 1000) * 1000) / 60_000;
}

/**
 * A Seller Center date ("2025-04-03 12:00:00", the account's local time; or ISO 8601 with an
 * offset) as ISO 8601 UTC; undefined when it is not a date.
 */
export function sellerCenterDate(value: unknown, country: string): string | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  if (/[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2}|Z)$/.test(raw)) {
    const ms = Date.parse(raw.replace(' ', 'T'));
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
  }
  const m = raw.match(/^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/);
  if (!m) return undefined;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  if (!Number.isFinite(wall)) return undefined;
  const zone = TIME_ZONES[country] ?? 'UTC';
  let ms = wall - offsetMinutes(wall, zone) * 60_000;
  ms = wall - offsetMinutes(ms, zone) * 60_000;
  return new Date(ms).toISOString();
}

const httpUrl = (v: unknown) => {
  const s = text(v);
  return /^https?:\/\/\S+$/i.test(s) ? s : undefined;
};
const listingStatus = (v: unknown): MarketplaceListingStatus => {
  const s = text(v).toLowerCase();
  return s === 'inactive' ? 'inactive' : s === 'deleted' ? 'deleted' : 'active';
};
const optional = (v: unknown) => text(v) || undefined;

export function listingOf(p: Record<string, unknown>, country: string): RemoteListing {
  const units = asList<Record<string, unknown>>((p.BusinessUnits as { BusinessUnit?: unknown } | undefined)?.BusinessUnit);
  const unit = units.find((u) => text(u.OperatorCode).toLowerCase() === operatorCodeOf(country)) ?? units[0];
  const sku = text(p.SellerSku);
  const sale = num(unit?.SpecialPrice ?? unit?.SalePrice ?? p.SalePrice);
  const variation = text(p.Variation) || [text(p.Color), text(p.Talla ?? p.Size)].filter(Boolean).join(' · ');
  return {
    sku,
    parentSku: text(p.ParentSku) || sku,
    name: text(p.Name) || sku,
    variation: variation || undefined,
    shopSku: optional(p.ShopSku),
    brand: optional(p.Brand),
    category: optional(p.PrimaryCategory),
    imageUrl: httpUrl(p.MainImage),
    url: httpUrl(p.Url),
    price: num(unit?.Price ?? p.Price),
    salePrice: sale > 0 ? sale : undefined,
    stock: Math.max(0, Math.trunc(num(unit?.Stock ?? p.Quantity))),
    status: listingStatus(unit?.Status ?? p.Status),
  };
}

export function orderOf(o: Record<string, unknown>, country: string): RemoteOrder {
  const ship = (o.AddressShipping ?? {}) as Record<string, unknown>;
  const bill = (o.AddressBilling ?? {}) as Record<string, unknown>;
  const statuses = asList<string>((o.Statuses as { Status?: unknown } | undefined)?.Status).map((s) => marketplaceItemStatusOf(text(s)));
  const address = [ship.Address1, ship.Address2, ship.Address3].map(text).filter(Boolean).join(' ');
  return {
    externalId: text(o.OrderId),
    number: text(o.OrderNumber) || text(o.OrderId),
    status: marketplaceOrderStatusOf(statuses),
    customerName: [text(o.CustomerFirstName), text(o.CustomerLastName)].filter(Boolean).join(' ') || 'Cliente del marketplace',
    customerEmail: optional(bill.CustomerEmail ?? ship.CustomerEmail),
    customerPhone: optional(ship.Phone) ?? optional(bill.Phone),
    address: address || undefined,
    city: optional(ship.City),
    region: optional(ship.Region),
    total: num(o.GrandTotal ?? o.Price),
    currency: currencyOfCountry[country as keyof typeof currencyOfCountry] ?? 'PEN',
    itemsCount: Math.max(0, Math.trunc(num(o.ItemsCount))),
    paymentMethod: optional(o.PaymentMethod),
    shippingType: optional(o.ShippingType),
    createdAt: sellerCenterDate(o.CreatedAt, country) ?? new Date(0).toISOString(),
    updatedAt: sellerCenterDate(o.UpdatedAt, country),
    promisedShippingAt: sellerCenterDate(o.PromisedShippingTime, country),
    // Seller Center's customer document (Perú: DNI or RUC; Chile: RUT; Colombia: CC or NIT)
    customerTaxId: optional(o.NationalRegistrationNumber) ?? optional((o.ExtraBillingAttributes as Record<string, unknown> | undefined)?.LegalId),
  };
}

export function orderItemOf(i: Record<string, unknown>, country: string): RemoteOrderItem {
  return {
    externalId: text(i.OrderItemId),
    sku: text(i.Sku),
    shopSku: optional(i.ShopSku),
    name: text(i.Name) || text(i.Sku),
    variation: text(i.Variation) && text(i.Variation) !== '{}' ? text(i.Variation) : undefined,
    status: marketplaceItemStatusOf(text(i.Status)),
    price: num(i.ItemPrice),
    paidPrice: num(i.PaidPrice),
    shippingAmount: num(i.ShippingAmount),
    currency: text(i.Currency) || (currencyOfCountry[country as keyof typeof currencyOfCountry] ?? 'PEN'),
    packageId: optional(i.PackageId),
    trackingCode: optional(i.TrackingCode),
    shipmentProvider: optional(i.ShipmentProvider),
  };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createSellerCenterAdapter(options: SellerCenterAdapterOptions): MarketplaceAdapter & { client: ReturnType<typeof createSellerCenterClient> } {
  const client = createSellerCenterClient(options);
  const pageSize = options.pageSize ?? 500;
  const ordersPageSize = options.ordersPageSize ?? 100;
  const feedBatch = options.feedBatch ?? 1000;
  const pollMs = options.feedPollMs ?? 2000;
  const pollTries = options.feedPollTries ?? 150;
  const sleep = options.sleep ?? wait;
  const now = options.now ?? Date.now;

  return {
    kind: 'seller-center',
    client,
    stats: client.stats,
    async test() {
      await client.getProducts(0, 1);
      const { total } = await client.getOrders({ createdAfter: new Date(now() - 30 * 86_400_000).toISOString(), offset: 0, limit: 1 });
      return { orders: total };
    },
    async listings(offset) {
      const { products } = await client.getProducts(offset, pageSize);
      const items = products.map((p) => listingOf(p, options.country)).filter((l) => l.sku);
      return { items, next: products.length >= pageSize ? offset + products.length : undefined };
    },
    async orders(since, offset, by) {
      const { orders, total } = await client.getOrders({ [by === 'created' ? 'createdAfter' : 'updatedAfter']: since, offset, limit: ordersPageSize });
      const items = orders.map((o) => orderOf(o, options.country)).filter((o) => o.externalId);
      const reached = offset + orders.length;
      const more = total !== undefined ? reached < total && orders.length > 0 : orders.length >= ordersPageSize;
      return { items, next: more ? reached : undefined, total };
    },
    async orderItems(orderExternalId) {
      return (await client.getOrderItems(orderExternalId)).map((i) => orderItemOf(i, options.country)).filter((i) => i.externalId);
    },
    async pushOffers(offers: OfferUpdate[], progress) {
      const out: OfferResult[] = [];
      for (let i = 0; i < offers.length; i += feedBatch) {
        const chunk = offers.slice(i, i + feedBatch);
        const feedId = await client.productUpdate(chunk);
        if (!feedId) throw new MarketplaceError('invalid', 'Seller Center no devolvió el número del envío (RequestId)');
        let feed = await client.feedStatus(feedId);
        for (let tries = 1; tries < pollTries && feed.status !== 'Finished' && feed.status !== 'Canceled'; tries++) {
          await sleep(pollMs);
          feed = await client.feedStatus(feedId);
        }
        const refused = new Map<string, string>();
        for (const e of feed.errors) refused.set(e.sku, [refused.get(e.sku), e.message].filter(Boolean).join('; '));
        const results: OfferResult[] = chunk.map((o) => {
          if (feed.status === 'Canceled') return { sku: o.sku, status: 'refused', reason: 'Seller Center canceló el envío' };
          if (feed.status !== 'Finished') return { sku: o.sku, status: 'processing', reason: `Seller Center aún procesa el envío (feed ${feedId})` };
          const reason = refused.get(o.sku);
          return reason ? { sku: o.sku, status: 'refused', reason } : { sku: o.sku, status: 'taken' };
        });
        out.push(...results);
        if (progress) await progress(results);
      }
      return out;
    },
    async document(type, itemIds) {
      const doc = await client.getDocument(type, itemIds);
      return { mimeType: doc.mimeType, file: doc.file };
    },
    async readyToShip(itemIds, packageId) {
      await client.setStatusToReadyToShip(itemIds, packageId);
    },
  };
}
