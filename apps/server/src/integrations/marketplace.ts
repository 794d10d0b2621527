import type { MarketplaceDocumentType, MarketplaceKind, MarketplaceListingStatus, MarketplaceOrderStatus } from '@mostrador/contract';

/**
 * The small interface the marketplace module talks to (decision 0035): one adapter per source
 * kind (`marketplaceKindOf[platform]`). Seller Center (Falabella, Linio) is the first; Mercado
 * Libre or Mirakl (Ripley) would be another file implementing the same calls. Everything here is
 * already in our words: SKUs, prices as numbers, our statuses, ISO dates in UTC.
 */

/** One sellable SKU as the marketplace lists it, with what its product shows. */
export interface RemoteListing {
  sku: string;
  /** The product it belongs to: SKUs sharing it are its variations (itself when it has none). */
  parentSku: string;
  name: string;
  /** What makes it a variation (Talla M, Azul), if anything. */
  variation?: string;
  shopSku?: string;
  brand?: string;
  category?: string;
  imageUrl?: string;
  url?: string;
  price: number;
  salePrice?: number;
  stock: number;
  status: MarketplaceListingStatus;
}

export interface RemoteOrder {
  externalId: string;
  number: string;
  status: MarketplaceOrderStatus;
  customerName: string;
  customerEmail?: string;
  customerPhone?: string;
  address?: string;
  city?: string;
  region?: string;
  total: number;
  currency: string;
  itemsCount: number;
  paymentMethod?: string;
  shippingType?: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  updatedAt?: string;
  promisedShippingAt?: string;
  /** The customer's document for the invoice (RUC / DNI, RUT, NIT / CC), when the marketplace gives it. */
  customerTaxId?: string;
}

export interface RemoteOrderItem {
  externalId: string;
  sku: string;
  shopSku?: string;
  name: string;
  variation?: string;
  status: MarketplaceOrderStatus;
  price: number;
  paidPrice: number;
  shippingAmount: number;
  currency: string;
  packageId?: string;
  trackingCode?: string;
  shipmentProvider?: string;
}

/** A price and/or stock to set for one SKU. */
export interface OfferUpdate {
  sku: string;
  price?: number;
  stock?: number;
}

/** What the marketplace did with one SKU of a push. */
export interface OfferResult {
  sku: string;
  status: 'taken' | 'refused' | 'processing';
  /** The marketplace's reason (refused), or what is still going on (processing). */
  reason?: string;
}

export interface MarketplaceDocument {
  mimeType: string;
  file: Buffer;
}

/** A page of a list: what it holds, and where the next one starts (none: this was the last). */
export interface RemotePage<T> {
  items: T[];
  next?: number;
  /** The marketplace's count of the whole list, when it says. */
  total?: number;
}

export interface MarketplaceAdapter {
  readonly kind: MarketplaceKind;
  /** Requests made and writes among them (pushes), retries after 429/5xx. */
  readonly stats: { requests: number; writes: number; retries: number };
  /** Reads a little of everything the module needs: products and orders (throws the reason). */
  test(): Promise<{ products?: number; orders?: number }>;
  /** One page of the account's SKUs, from `offset`. */
  listings(offset: number): Promise<RemotePage<RemoteListing>>;
  /** One page of orders changed since `since` (ISO), oldest change first, from `offset`. */
  orders(since: string, offset: number, by: 'created' | 'updated'): Promise<RemotePage<RemoteOrder>>;
  orderItems(orderExternalId: string): Promise<RemoteOrderItem[]>;
  /** Sends prices and stock; answers per SKU (large sends are split as the marketplace asks). */
  pushOffers(offers: OfferUpdate[], progress?: (results: OfferResult[]) => Promise<void>): Promise<OfferResult[]>;
  document(type: MarketplaceDocumentType, itemExternalIds: string[]): Promise<MarketplaceDocument>;
  readyToShip(itemExternalIds: string[], packageId?: string): Promise<void>;
}

export type MarketplaceErrorKind =
  | 'network'
  | 'not-marketplace'
  | 'config'
  | 'auth'
  | 'permission'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'server'
  | 'invalid'
  | 'unsupported';

/** A failed call, with what is wrong in Spanish (`msg`) for the screens and the reports. */
export class MarketplaceError extends Error {
  constructor(
    readonly kind: MarketplaceErrorKind,
    readonly msg: string,
    readonly status = 0,
    readonly code = '',
  ) {
    super(msg);
  }
  /** Worth trying again later (a sync job is retried by the queue from its cursor). */
  get transient(): boolean {
    return this.kind === 'network' || this.kind === 'server' || this.kind === 'rate-limited';
  }
}
