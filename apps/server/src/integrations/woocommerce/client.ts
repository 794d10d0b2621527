import { type Answer, counting, type FetchLike, jsonOf, noAnswerReason, policyOf, sendWithRetries, type TransportOptions } from '../http.js';
import { outboundFetchLike, rethrowRefusal } from '../outbound.js';
import type { WooBatch, WooBatchResult } from './types.js';

/** WooCommerce caps `per_page` at 100, and a batch at 100 items in all. */
export const WOO_PAGE_SIZE = 100;
export const WOO_BATCH_LIMIT = 100;

export type { FetchLike };

export interface WooClientOptions extends TransportOptions {
  /** The store's address (`https://tienda.example.pe`); the API is under /wp-json/wc/v3. */
  url: string;
  consumerKey: string;
  consumerSecret: string;
}

/** `refused`: the outbound client would not call the store's address (integrations/outbound.ts). */
export type WooErrorKind = 'refused' | 'network' | 'not-woocommerce' | 'auth' | 'permission' | 'read-only' | 'not-found' | 'rate-limited' | 'server' | 'invalid';

/** A failed call, with what is wrong in Spanish (`msg`) for the screens and the sync report. */
export class WooError extends Error {
  constructor(
    readonly kind: WooErrorKind,
    readonly msg: string,
    readonly status = 0,
    readonly code = '',
  ) {
    super(msg);
  }
}

export interface WooResponse<T> {
  data: T;
  status: number;
  total?: number;
  totalPages?: number;
}

/** The error a WooCommerce answer stands for, in Spanish (decision 0034 lists them). */
export function wooErrorOf(status: number, body: unknown, path: string): WooError {
  const code = typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' ? (body as { code: string }).code : '';
  const message = typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : '';
  if (status === 404 && (code === 'rest_no_route' || code === '')) {
    return new WooError('not-woocommerce', 'La dirección no responde como una tienda WooCommerce (no existe /wp-json/wc/v3): revisa la URL y que los enlaces permanentes de WordPress estén activos', status, code);
  }
  if (status === 401 && /write permissions|permiso de escritura/i.test(message)) {
    return new WooError('read-only', 'Las claves solo tienen permiso de lectura: crea en WooCommerce unas claves con permiso de lectura/escritura', status, code);
  }
  if (status === 401 && (code === 'woocommerce_rest_authentication_error' || code === 'woocommerce_rest_authentication_missing' || /consumer|signature|clave/i.test(message))) {
    return new WooError('auth', 'La clave (ck_…) o el secreto (cs_…) del consumidor no son válidos para esta tienda', status, code);
  }
  if (status === 401 || status === 403) {
    return new WooError('permission', `Las claves no tienen permiso para esta operación en la tienda (HTTP ${status}): dales permiso de lectura/escritura en WooCommerce › Ajustes › Avanzado › API REST`, status, code);
  }
  if (status === 404) return new WooError('not-found', `La tienda no tiene el registro pedido (${path})`, status, code);
  if (status === 429) return new WooError('rate-limited', 'La tienda limitó las solicitudes (429) y siguió rechazándolas tras varios reintentos', status, code);
  if (status >= 500) return new WooError('server', `La tienda respondió con un error (${status}) tras varios reintentos`, status, code);
  // the store's own text is not repeated (decision 0060): an answer is not echoed to whoever typed the address
  return new WooError('invalid', `La tienda rechazó los datos enviados (HTTP ${status}): revisa el SKU, los precios y el stock del producto en Mostrador`, status, code);
}

/**
 * A typed client of the WooCommerce REST API v3 over fetch (INTEGRATIONS.md): Basic auth with
 * the consumer key and secret, JSON in and out, `per_page` ≤ 100 with `X-WP-Total` /
 * `X-WP-TotalPages`, batches of ≤ 100 items, and 429 / 5xx / no answer retried with
 * exponential backoff (honouring `Retry-After`). It counts its requests and writes.
 */
export function createWooClient(options: WooClientOptions) {
  const base = `${options.url.replace(/\/+$/, '')}/wp-json/wc/v3`;
  // the store's address is a tenant's: the outbound client judges it (the sandbox passes its in-process store as fetch)
  const doFetch: FetchLike = options.fetch ?? outboundFetchLike(options.url);
  const policy = policyOf(options, 5);
  const auth = `Basic ${Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString('base64')}`;
  const stats = { requests: 0, writes: 0, retries: 0 };

  async function request<T>(method: string, path: string, query: Record<string, string | number | undefined> = {}, body?: unknown): Promise<WooResponse<T>> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
    const url = `${base}${path}${qs.size ? `?${qs}` : ''}`;
    const write = method !== 'GET';
    let answer: Answer;
    try {
      answer = await sendWithRetries(
        (signal) =>
          doFetch(url, {
            method,
            headers: { authorization: auth, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
            body: body !== undefined ? JSON.stringify(body) : undefined,
            signal,
          }),
        policy,
        counting(stats, write),
      );
    } catch (error) {
      rethrowRefusal(error, (msg) => new WooError('refused', msg));
      const reason = noAnswerReason(error);
      throw new WooError('network', `No se pudo conectar con la tienda en ${options.url} (${reason}): revisa la URL`, 0, reason);
    }
    const { status, text, headers } = answer;
    const data = jsonOf(text);
    // WordPress without WooCommerce, or another site: HTML where JSON was expected
    if (data === undefined && text && status >= 200 && status < 300) {
      throw new WooError('not-woocommerce', 'La dirección respondió, pero no como la API de WooCommerce (no devolvió JSON): revisa la URL', status);
    }
    if (status < 200 || status >= 300) throw wooErrorOf(status, data, path);
    const total = headers.get('x-wp-total');
    const totalPages = headers.get('x-wp-totalpages');
    return {
      data: data as T,
      status,
      total: total != null ? Number(total) : undefined,
      totalPages: totalPages != null ? Number(totalPages) : undefined,
    };
  }

  return {
    stats,
    request,
    get: <T>(path: string, query?: Record<string, string | number | undefined>) => request<T>('GET', path, query),
    post: <T>(path: string, body: unknown) => request<T>('POST', path, {}, body),
    put: <T>(path: string, body: unknown) => request<T>('PUT', path, {}, body),
    delete: <T>(path: string, query?: Record<string, string | number | undefined>) => request<T>('DELETE', path, query),
    /** One page of a list (`per_page` 100 unless smaller), with the store's totals. */
    async page<T>(path: string, page: number, query: Record<string, string | number | undefined> = {}, perPage = WOO_PAGE_SIZE) {
      const res = await request<T[]>('GET', path, { ...query, per_page: Math.min(perPage, WOO_PAGE_SIZE), page });
      return { items: Array.isArray(res.data) ? res.data : [], total: res.total ?? 0, totalPages: res.totalPages ?? 1 };
    },
    /** Every item of a list, page by page (X-WP-TotalPages). */
    async all<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T[]> {
      const out: T[] = [];
      for (let page = 1; ; page++) {
        const { items, totalPages } = await this.page<T>(path, page, query);
        out.push(...items);
        if (page >= totalPages || items.length === 0) return out;
      }
    },
    /** `POST {path}/batch` in chunks of at most 100 items (creates, then updates, then deletes). */
    async batch<T>(path: string, batch: WooBatch<T>): Promise<Required<WooBatchResult<T>>> {
      const items: Array<['create' | 'update' | 'delete', unknown]> = [
        ...(batch.create ?? []).map((x) => ['create', x] as ['create', unknown]),
        ...(batch.update ?? []).map((x) => ['update', x] as ['update', unknown]),
        ...(batch.delete ?? []).map((x) => ['delete', x] as ['delete', unknown]),
      ];
      const out: Required<WooBatchResult<T>> = { create: [], update: [], delete: [] };
      for (let i = 0; i < items.length; i += WOO_BATCH_LIMIT) {
        const chunk: Record<string, unknown[]> = {};
        for (const [op, item] of items.slice(i, i + WOO_BATCH_LIMIT)) (chunk[op] ??= []).push(item);
        const { data } = await request<WooBatchResult<T>>('POST', `${path}/batch`, {}, chunk);
        out.create.push(...(data?.create ?? []));
        out.update.push(...(data?.update ?? []));
        out.delete.push(...(data?.delete ?? []));
      }
      return out;
    },
  };
}
export type WooClient = ReturnType<typeof createWooClient>;
