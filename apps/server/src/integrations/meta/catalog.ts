import { graphJson, ProviderError } from './send.js';

/**
 * A Meta commerce catalogue through the Catalog Batch API (issue 30, decision 0086):
 *
 * - `POST {GRAPH_API_URL}/{catalog-id}/items_batch` with `{item_type:'PRODUCT_ITEM', allow_upsert,
 *   requests:[{method:'CREATE'|'UPDATE'|'DELETE', data:{id, title, description, availability,
 *   condition, price:'7.50 PEN', image_link, link, brand}}]}` — at most 5,000 requests a call
 *   (Meta recommends under 3,000) — answering `{handles:['…']}`;
 * - `GET {GRAPH_API_URL}/{catalog-id}/check_batch_request_status?handle=…` answering
 *   `{data:[{handle, status:'in_progress'|'finished'|…, errors_total_count, errors:[{line, id, message}]}]}`:
 *   the per-item verdicts, asked until the batch is finished.
 */

/** Meta's limit is 5,000 requests a call; its advice, under 3,000. */
export const ITEMS_BATCH_MAX = 3000;

export interface CatalogItemData {
  id: string;
  title: string;
  description: string;
  availability: 'in stock' | 'out of stock';
  condition: 'new';
  price: string;
  image_link: string;
  link: string;
  brand?: string;
}
export type CatalogRequest = { method: 'CREATE' | 'UPDATE'; data: CatalogItemData } | { method: 'DELETE'; data: { id: string } };

export interface BatchStatus {
  status: string;
  errors: Array<{ id?: string; message: string }>;
}

export interface CatalogClient {
  itemsBatch(catalogId: string, accessToken: string | undefined, requests: CatalogRequest[]): Promise<string[]>;
  batchStatus(catalogId: string, accessToken: string | undefined, handle: string): Promise<BatchStatus>;
}

/** A price as Meta's catalogue wants it: the amount with its decimals, a space and the ISO currency. */
export const metaPrice = (amount: number, currency: string) => `${amount.toFixed(currency === 'CLP' || currency === 'COP' ? 0 : 2)} ${currency}`;

export function createGraphCatalogClient(baseUrl: string): CatalogClient {
  const base = baseUrl.replace(/\/+$/, '');
  const enc = encodeURIComponent;
  const token = (t: string | undefined) => {
    if (!t) throw new ProviderError('La línea de WhatsApp no tiene token de acceso');
    return t;
  };
  return {
    async itemsBatch(catalogId, accessToken, requests) {
      const body = await graphJson<{ handles?: unknown }>(
        `${base}/${enc(catalogId)}/items_batch`,
        token(accessToken),
        { method: 'POST', body: { item_type: 'PRODUCT_ITEM', allow_upsert: true, requests } },
        'Meta rechazó el lote del catálogo',
      );
      const handles = Array.isArray(body?.handles) ? body.handles.filter((h): h is string => typeof h === 'string') : [];
      if (!handles.length) throw new ProviderError('Meta aceptó el lote del catálogo pero no devolvió su identificador');
      return handles;
    },
    async batchStatus(catalogId, accessToken, handle) {
      const body = await graphJson<{ data?: Array<{ status?: string; errors?: Array<{ id?: unknown; retailer_id?: unknown; message?: unknown }> }> }>(
        `${base}/${enc(catalogId)}/check_batch_request_status?handle=${enc(handle)}`,
        token(accessToken),
        { method: 'GET' },
        'Meta no dio el estado del lote del catálogo',
      );
      const first = body?.data?.[0];
      return {
        status: String(first?.status ?? 'in_progress'),
        errors: (first?.errors ?? []).map((e) => ({
          id: typeof e.id === 'string' ? e.id : typeof e.retailer_id === 'string' ? e.retailer_id : undefined,
          message: typeof e.message === 'string' ? e.message : 'error sin detalle',
        })),
      };
    },
  };
}

/** The sandbox (SEND_PROVIDER=sandbox): every well-formed item is accepted, nothing reaches Meta. */
export function createSandboxCatalogClient(): CatalogClient {
  return {
    async itemsBatch() {
      return [`sandbox-${Date.now().toString(36)}`];
    },
    async batchStatus() {
      return { status: 'finished', errors: [] };
    },
  };
}
