import { type Answer, counting, type FetchLike, isTransient, jsonOf, noAnswerReason, policyOf, sendWithRetries, type TransportOptions } from '../http.js';
import { outboundFetchLike, rethrowRefusal } from '../outbound.js';
import { MarketplaceError } from '../marketplace.js';
import { sellerCenterErrorOf } from './errors.js';
import { signedQuery, timestampOf } from './signature.js';

/**
 * A typed client of the Falabella / Linio Seller Center API over fetch (decision 0035): every
 * request signed (Action, Format=JSON, Timestamp, UserID, Version=1.0 and the action's own
 * parameters, HMAC-SHA256 with the user's API key), JSON answers read through their quirks (one
 * element instead of a list, numbers as text, an empty list as ""), ErrorResponse turned into a
 * Spanish reason, and 429 / 5xx / no answer / Seller Center's internal errors retried with
 * doubling waits (Retry-After honoured). It counts its requests and writes.
 */

export type { FetchLike };

/** How prices and stock are written in ProductUpdate: Linio's fields on the product, or Falabella's business units. */
export type SellerCenterDialect = 'classic' | 'business-units';

export interface SellerCenterOptions extends TransportOptions {
  /** The API's address (`https://sellercenter-api.falabella.com`). */
  url: string;
  /** Seller Center's UserID: the e-mail of the user the API key belongs to. */
  userId: string;
  apiKey: string;
  /** For the User-Agent Falabella asks for (`SELLER/Node/20/MOSTRADOR/FAPE`). */
  sellerId?: string;
  country: 'PE' | 'CL' | 'CO' | string;
  dialect?: SellerCenterDialect;
  now?: () => number;
}

/** Falabella's business unit (OperatorCode) of a country. */
export const operatorCodeOf = (country: string) => ({ PE: 'fape', CL: 'facl', CO: 'faco' })[country] ?? country.toLowerCase();


/** Seller Center's JSON turns a one-element list into the element and an empty one into "": always a list. */
export function asList<T>(value: unknown): T[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]) as T[];
}
export const text = (value: unknown): string => (value === undefined || value === null || typeof value === 'object' ? '' : String(value).trim());
export const num = (value: unknown): number => {
  const n = Number(text(value).replace(',', '.'));
  return Number.isFinite(n) ? n : 0;
};

const xmlEscape = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);

export interface ProductUpdateItem {
  sku: string;
  price?: number;
  stock?: number;
}

/** ProductUpdate's XML body: `Request/Product` with SellerSku and the fields to change (price with two decimals). */
export function productUpdateXml(items: ProductUpdateItem[], dialect: SellerCenterDialect, country: string): string {
  const products = items.map((item) => {
    const price = item.price !== undefined ? item.price.toFixed(2) : undefined;
    const sku = `<SellerSku>${xmlEscape(item.sku)}</SellerSku>`;
    if (dialect === 'classic') {
      return `<Product>${sku}${price !== undefined ? `<Price>${price}</Price>` : ''}${item.stock !== undefined ? `<Quantity>${item.stock}</Quantity>` : ''}</Product>`;
    }
    const unit = `<OperatorCode>${operatorCodeOf(country)}</OperatorCode>${price !== undefined ? `<Price>${price}</Price>` : ''}${item.stock !== undefined ? `<Stock>${item.stock}</Stock>` : ''}`;
    return `<Product>${sku}<BusinessUnits><BusinessUnit>${unit}</BusinessUnit></BusinessUnits></Product>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" ?><Request>${products.join('')}</Request>`;
}

export interface ScHead {
  RequestId?: string;
  RequestAction?: string;
  ResponseType?: string;
  Timestamp?: string;
  TotalCount?: string | number;
  ErrorType?: string;
  ErrorCode?: string | number;
  ErrorMessage?: string;
}

export interface ScAnswer<B> {
  head: ScHead;
  body: B;
}

export function createSellerCenterClient(options: SellerCenterOptions) {
  const base = options.url.replace(/\/+$/, '');
  // the API URL may be a tenant's: the outbound client judges it (the sandbox passes its own fetch)
  const doFetch: FetchLike = options.fetch ?? outboundFetchLike(base);
  const policy = policyOf(options, 5);
  const now = options.now ?? Date.now;
  const dialect = options.dialect ?? 'business-units';
  const userAgent = `${(options.sellerId || 'MOSTRADOR').replace(/[^\w.-]/g, '')}/Node/${process.versions.node}/MOSTRADOR/${operatorCodeOf(options.country).toUpperCase()}`;
  const stats = { requests: 0, writes: 0, retries: 0 };

  /** One action: signed, sent, answered (retried while it is worth it), or the Spanish reason thrown. */
  async function call<B = Record<string, unknown>>(action: string, params: Record<string, string | number | undefined> = {}, xml?: string): Promise<ScAnswer<B>> {
    const method = xml !== undefined ? 'POST' : 'GET';
    const write = method === 'POST';
    type ScJson = { SuccessResponse?: { Head?: ScHead; Body?: unknown }; ErrorResponse?: { Head?: ScHead; Body?: unknown } } | undefined;
    const errorHead = (text: string) => (jsonOf(text) as ScJson)?.ErrorResponse?.Head;
    let answer: Answer;
    try {
      answer = await sendWithRetries(
        (signal) => {
          // signed again on every try: the Timestamp must be fresh
          const signed: Record<string, string> = { Action: action, Format: 'JSON', Timestamp: timestampOf(now()), UserID: options.userId, Version: '1.0' };
          for (const [k, v] of Object.entries(params)) if (v !== undefined) signed[k] = String(v);
          return doFetch(`${base}/?${signedQuery(signed, options.apiKey)}`, {
            method,
            headers: {
              accept: 'application/json',
              'user-agent': userAgent,
              ...(xml !== undefined ? { 'content-type': 'application/xml; charset=utf-8' } : {}),
            },
            body: xml,
            signal,
          });
        },
        policy,
        {
          // Seller Center also says "try again" in the body: its own 429 and a platform error (6, 1000)
          retryable: ({ status, text }) => {
            if (isTransient(status)) return true;
            const head = errorHead(text);
            const code = head ? Number(head.ErrorCode) : 0;
            return code === 429 || ((code === 6 || code === 1000) && String(head?.ErrorType ?? '').toLowerCase() === 'platform');
          },
          ...counting(stats, write),
        },
      );
    } catch (error) {
      rethrowRefusal(error, (msg) => new MarketplaceError('config', msg));
      const reason = noAnswerReason(error);
      throw new MarketplaceError('network', `No se pudo conectar con Seller Center en ${options.url} (${reason}): revisa la URL de la API`, 0, reason);
    }
    const { status } = answer;
    const json = jsonOf(answer.text) as ScJson;
    const error = json?.ErrorResponse?.Head;
    if (error) throw sellerCenterErrorOf(Number(error.ErrorCode), text(error.ErrorMessage), action, status, { userId: options.userId });
    if (!json?.SuccessResponse) {
      if (status === 429) throw sellerCenterErrorOf(429, 'Too many requests', action, status, { userId: options.userId });
      if (status >= 500) throw new MarketplaceError('server', `Seller Center respondió con un error (${status}) tras varios reintentos`, status);
      if (status === 401 || status === 403) throw new MarketplaceError('auth', `Seller Center no aceptó las credenciales (${status}): revisa el usuario y la API key`, status);
      throw new MarketplaceError('not-marketplace', `La dirección ${options.url} no responde como la API de Seller Center (${status || 'sin respuesta'}): revisa la URL de la API`, status);
    }
    return { head: json.SuccessResponse.Head ?? {}, body: (json.SuccessResponse.Body ?? {}) as B };
  }

  return {
    stats,
    call,
    dialect,
    /** GetProducts: one page of the account's SKUs (Filter=all), by Offset and Limit. */
    async getProducts(offset: number, limit: number, extra: Record<string, string> = {}) {
      const { head, body } = await call<{ Products?: { Product?: unknown } | '' }>('GetProducts', { Filter: 'all', Limit: limit, Offset: offset, ...extra });
      const products = asList<Record<string, unknown>>(typeof body.Products === 'object' ? body.Products?.Product : undefined);
      const total = head.TotalCount !== undefined ? num(head.TotalCount) : undefined;
      return { products, total };
    },
    /** ProductUpdate: prices and stock of up to a batch of SKUs; answers the feed's id (RequestId). */
    async productUpdate(items: ProductUpdateItem[]): Promise<string> {
      const { head } = await call('ProductUpdate', {}, productUpdateXml(items, dialect, options.country));
      return text(head.RequestId);
    },
    /** FeedStatus: how a feed went, with its per-SKU errors. */
    async feedStatus(feedId: string) {
      const { body } = await call<{ FeedDetail?: Record<string, unknown> }>('FeedStatus', { FeedID: feedId });
      const d = body.FeedDetail ?? {};
      const errors = asList<Record<string, unknown>>((d.FeedErrors as { Error?: unknown } | undefined)?.Error).map((e) => ({
        sku: text(e.SellerSku),
        message: text(e.Message) || `Error ${text(e.Code)}`,
      }));
      return {
        status: text(d.Status) as 'Queued' | 'Processing' | 'Finished' | 'Canceled' | '',
        total: num(d.TotalRecords),
        processed: num(d.ProcessedRecords),
        failed: num(d.FailedRecords),
        errors,
      };
    },
    /** GetOrders: orders created or updated after an instant, oldest change first, by Offset and Limit. */
    async getOrders(params: { createdAfter?: string; updatedAfter?: string; offset: number; limit: number }) {
      const { head, body } = await call<{ Orders?: { Order?: unknown } | '' }>('GetOrders', {
        CreatedAfter: params.createdAfter,
        UpdatedAfter: params.updatedAfter,
        Limit: params.limit,
        Offset: params.offset,
        SortBy: params.updatedAfter ? 'updated_at' : 'created_at',
        SortDirection: 'ASC',
      });
      const orders = asList<Record<string, unknown>>(typeof body.Orders === 'object' ? body.Orders?.Order : undefined);
      return { orders, total: head.TotalCount !== undefined ? num(head.TotalCount) : undefined };
    },
    async getOrderItems(orderId: string) {
      const { body } = await call<{ OrderItems?: { OrderItem?: unknown } | '' }>('GetOrderItems', { OrderId: orderId });
      return asList<Record<string, unknown>>(typeof body.OrderItems === 'object' ? body.OrderItems?.OrderItem : undefined);
    },
    /** GetDocument: the document of some order items, decoded from base64. */
    async getDocument(documentType: string, orderItemIds: string[]) {
      const { body } = await call<{ Documents?: { Document?: unknown }; Document?: unknown }>('GetDocument', {
        DocumentType: documentType,
        OrderItemIds: `[${orderItemIds.join(',')}]`,
      });
      const [doc] = asList<Record<string, unknown>>(body.Documents && typeof body.Documents === 'object' ? body.Documents.Document : body.Document);
      const file = text(doc?.File);
      if (!doc || !file) throw new MarketplaceError('not-found', 'Seller Center no devolvió el documento pedido', 0, '35');
      return { documentType: text(doc.DocumentType) || documentType, mimeType: text(doc.MimeType) || 'application/pdf', file: Buffer.from(file.replace(/\s+/g, ''), 'base64') };
    },
    /** SetStatusToReadyToShip: marks order items ready to be picked up (POST, no body). */
    async setStatusToReadyToShip(orderItemIds: string[], packageId?: string) {
      await call('SetStatusToReadyToShip', { OrderItemIds: `[${orderItemIds.join(',')}]`, DeliveryType: 'dropship', PackageId: packageId }, '');
    },
  };
}
export type SellerCenterClient = ReturnType<typeof createSellerCenterClient>;
