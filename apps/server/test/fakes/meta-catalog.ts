import type { FakeGraphRoute } from './meta.js';
import { mid, wamid } from './meta.js';

/**
 * Meta commerce catalogues and product messages on the fake Graph API (fakes/meta.ts), with the
 * rules Meta enforces (decisions 0085 and 0086):
 *
 * - `POST /v21.0/{catalog-id}/items_batch` `{item_type:'PRODUCT_ITEM', requests}`: at most 5,000
 *   requests; each item is checked when its batch is read back (`GET
 *   /v21.0/{catalog-id}/check_batch_request_status?handle=`): an id, a title, a price like
 *   "7.50 PEN", an availability and condition Meta knows, http(s) image_link and link; a title
 *   with a word in `prohibited` is refused as Meta's commerce policy does. Accepted items are kept.
 * - `POST /v21.0/{phone-number-id}/messages` of `type: interactive` product / product_list: the
 *   catalogue must exist and hold every product_retailer_id; a list needs a text header (≤60), a
 *   body (≤1024), ≤10 sections each titled (≤24), ≤30 products in all, each retailer id once — else
 *   Meta's (#131009) error.
 * - `POST /v21.0/{page-id}/messages` of a generic template: ≤10 elements, each with a title ≤80.
 *
 * Other calls fall through to the base fake.
 */
export interface FakeMetaCatalog {
  route: FakeGraphRoute;
  /** catalog id → retailer id → item data. */
  catalogs: Map<string, Map<string, Record<string, unknown>>>;
  /** Every items_batch call: how many requests each carried. */
  batches: Array<{ catalogId: string; requests: Array<{ method: string; data: { id: string } }> }>;
  /** Product messages accepted (WhatsApp interactive, Messenger templates). */
  sent: Array<{ channel: 'whatsapp' | 'messenger'; body: Record<string, unknown> }>;
  prohibited: string[];
  /** The next product messages answer these Graph errors instead of being accepted. */
  failNext: Array<{ status: number; error: object }>;
}

const PRICE = /^\d+(\.\d{1,2})? [A-Z]{3}$/;
const AVAILABILITY = new Set(['in stock', 'out of stock', 'preorder', 'available for order', 'discontinued']);

export function fakeMetaCatalog(token: string, catalogIds: string[]): FakeMetaCatalog {
  const pending = new Map<string, { catalogId: string; errors: Array<{ line: number; id: string; message: string }> }>();
  let seq = 0;
  const state: FakeMetaCatalog = { route, catalogs: new Map(catalogIds.map((id) => [id, new Map()])), batches: [], sent: [], prohibited: ['prohibido'], failNext: [] };

  function itemError(data: Record<string, unknown>): string | undefined {
    if (typeof data.id !== 'string' || !data.id) return 'Missing required field: id';
    if (typeof data.title !== 'string' || !data.title) return 'Missing required field: title';
    if (state.prohibited.some((w) => String(data.title).toLowerCase().includes(w))) return 'The item does not comply with our Commerce Policies';
    if (typeof data.price !== 'string' || !PRICE.test(data.price)) return `Invalid price format: ${String(data.price)}`;
    if (!AVAILABILITY.has(String(data.availability))) return 'Invalid value for availability';
    if (data.condition !== 'new' && data.condition !== 'refurbished' && data.condition !== 'used') return 'Invalid value for condition';
    if (typeof data.image_link !== 'string' || !/^https?:\/\//.test(data.image_link)) return 'Missing required field: image_link';
    if (typeof data.link !== 'string' || !/^https?:\/\//.test(data.link)) return 'Missing required field: link';
    return undefined;
  }

  function productProblem(interactive: Record<string, unknown>): string | undefined {
    const action = interactive.action as { catalog_id?: string; product_retailer_id?: string; sections?: Array<{ title?: string; product_items?: Array<{ product_retailer_id?: string }> }> } | undefined;
    const catalog = action?.catalog_id ? state.catalogs.get(action.catalog_id) : undefined;
    if (!catalog) return 'catalog_id is not connected to this WhatsApp Business Account';
    const body = (interactive.body as { text?: string } | undefined)?.text;
    if (body && body.length > 1024) return 'body: at most 1024 characters';
    if (interactive.type === 'product') {
      return action?.product_retailer_id && catalog.has(action.product_retailer_id) ? undefined : `Product ${action?.product_retailer_id} not found in catalog`;
    }
    const header = interactive.header as { type?: string; text?: string } | undefined;
    if (header?.type !== 'text' || !header.text || header.text.length > 60) return 'header: text header required (at most 60 characters)';
    if (!(interactive.body as { text?: string } | undefined)?.text) return 'body is required for product_list';
    const sections = action?.sections ?? [];
    if (sections.length < 1 || sections.length > 10) return `sections: between 1 and 10 (got ${sections.length})`;
    const ids = sections.flatMap((s) => s.product_items ?? []).map((p) => p.product_retailer_id ?? '');
    if (ids.length > 30) return `product_items: at most 30 in total (got ${ids.length})`;
    if (new Set(ids).size !== ids.length) return 'product_items: each product_retailer_id once';
    if (sections.some((s) => !s.title || s.title.length > 24)) return 'section title required (at most 24 characters)';
    const missing = ids.find((id) => !catalog.has(id));
    return missing ? `Product ${missing} not found in catalog` : undefined;
  }

  function route(...[call, answer]: Parameters<FakeGraphRoute>): boolean {
    const auth = call.headers.authorization === `Bearer ${token}`;
    const refuse = (status: number, error: object) => {
      answer.graphError(status, error);
      return true;
    };
    const batch = call.path.match(/^\/v21\.0\/(\d+)\/items_batch$/);
    if (batch && call.method === 'POST') {
      if (!auth) return refuse(401, { message: 'Invalid OAuth access token.', code: 190 });
      const catalog = state.catalogs.get(batch[1]);
      if (!catalog) return refuse(400, { message: `Unsupported post request. Object with ID '${batch[1]}' does not exist`, code: 100, error_subcode: 33 });
      const body = call.body as { item_type?: string; requests?: Array<{ method: string; data: Record<string, unknown> }> };
      if (body?.item_type !== 'PRODUCT_ITEM') return refuse(400, { message: 'Invalid parameter: item_type', code: 100 });
      const requests = body.requests ?? [];
      if (requests.length > 5000) return refuse(400, { message: 'requests: at most 5000 items per call', code: 100 });
      state.batches.push({ catalogId: batch[1], requests: requests as never });
      const errors: Array<{ line: number; id: string; message: string }> = [];
      requests.forEach((r, line) => {
        const id = String(r.data?.id ?? '');
        if (r.method === 'DELETE') {
          if (!catalog.delete(id)) errors.push({ line, id, message: `Item ${id} does not exist` });
          return;
        }
        const problem = itemError(r.data ?? {});
        if (problem) errors.push({ line, id, message: problem });
        else catalog.set(id, r.data);
      });
      const handle = `AczBatch${++seq}`;
      pending.set(handle, { catalogId: batch[1], errors });
      answer.json(200, { handles: [handle] });
      return true;
    }
    const status = call.path.match(/^\/v21\.0\/(\d+)\/check_batch_request_status\?handle=([^&]+)$/);
    if (status && call.method === 'GET') {
      if (!auth) return refuse(401, { message: 'Invalid OAuth access token.', code: 190 });
      const p = pending.get(decodeURIComponent(status[2]));
      if (!p || p.catalogId !== status[1]) return refuse(400, { message: 'Invalid handle', code: 100 });
      answer.json(200, { data: [{ handle: status[2], status: 'finished', errors_total_count: p.errors.length, errors: p.errors, warnings: [] }] });
      return true;
    }
    const send = call.path.match(/^\/v21\.0\/(\d+)\/messages$/);
    const body = call.body as Record<string, unknown> | undefined;
    if (send && call.method === 'POST' && body?.type === 'interactive') {
      const interactive = body.interactive as Record<string, unknown>;
      if (interactive?.type !== 'product' && interactive?.type !== 'product_list') return false;
      if (!auth) return refuse(401, { message: 'Invalid OAuth access token.', code: 190 });
      const failure = state.failNext.shift();
      if (failure) return refuse(failure.status, failure.error);
      const problem = productProblem(interactive);
      if (problem) return refuse(400, { message: '(#131009) Parameter value is not valid', code: 131009, error_data: { messaging_product: 'whatsapp', details: problem } });
      state.sent.push({ channel: 'whatsapp', body });
      answer.json(200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: wamid() }] });
      return true;
    }
    const attachment = (body?.message as { attachment?: { type?: string; payload?: { template_type?: string; elements?: Array<{ title?: string }> } } } | undefined)?.attachment;
    if (send && call.method === 'POST' && attachment?.type === 'template' && attachment.payload?.template_type === 'generic') {
      if (!auth) return refuse(401, { message: 'Invalid OAuth access token.', code: 190 });
      const elements = attachment.payload.elements ?? [];
      if (elements.length < 1 || elements.length > 10) return refuse(400, { message: '(#100) Param message[attachment][payload][elements] must have at most 10 elements', code: 100 });
      if (elements.some((e) => !e.title || e.title.length > 80)) return refuse(400, { message: '(#100) Param title must be at most 80 characters', code: 100 });
      state.sent.push({ channel: 'messenger', body: body ?? {} });
      answer.json(200, { recipient_id: (body?.recipient as { id?: string })?.id, message_id: mid() });
      return true;
    }
    return false;
  }
  return state;
}
