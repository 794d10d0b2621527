import { randomUUID } from 'node:crypto';
import { customerDocOf } from './tax-ids.js';

/**
 * An in-memory Genial account (decision 0037), checking what the real API would: the Bearer
 * token, an Idempotency-Key on every POST (the same key answers the first answer again, never a
 * second document), the document's required fields, the customer's tax id check digit, totals
 * that add up; numbers each series from 1. Served over HTTP in tests (test/fakes/genial.ts) and
 * in-process as the demo's sandbox (sandbox.ts).
 */
export interface FakeGenialAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
export interface FakeGenialRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
}
export interface FakeGenialDocument {
  id: string;
  key: string;
  status: 'accepted' | 'rejected' | 'pending';
  series: string;
  number: string;
  body: Record<string, unknown>;
}
export interface FakeGenialOptions {
  /** The accepted token, or a check (the sandbox takes any token starting with `sandbox`). */
  token: string | ((token: string) => boolean);
  baseUrl?: string;
  /** The first number of every series (default 1). */
  firstNumber?: number;
  /** The issuer the token belongs to (`GET /v1/account`); the sandbox's token belongs to whichever issuer asks (null). */
  issuer?: { taxId: string; name: string };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): FakeGenialAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});
const failure = (status: number, code: string, message: string, headers: Record<string, string> = {}) => json(status, { errors: [{ code, message }] }, headers);

export function createFakeGenial(options: FakeGenialOptions) {
  const documents = new Map<string, FakeGenialDocument>();
  /** The first answer per Idempotency-Key. */
  const answers = new Map<string, FakeGenialAnswer>();
  const counters = new Map<string, number>();
  const state = { throttleNext: 0, failNext: 0, pendingNext: 0, retryAfter: '1' };
  const base = options.baseUrl ?? 'https://genial.example';
  const tokenOk = (t: string) => (typeof options.token === 'function' ? options.token(t) : t === options.token);

  function issue(body: Record<string, unknown>, key: string): FakeGenialAnswer {
    const missing: string[] = [];
    const issuer = body.issuer as Record<string, unknown> | undefined;
    const customer = body.customer as Record<string, unknown> | undefined;
    const items = body.items as Array<Record<string, unknown>> | undefined;
    const totals = body.totals as Record<string, unknown> | undefined;
    if (!issuer?.taxId) missing.push('issuer.taxId');
    if (!issuer?.name) missing.push('issuer.name');
    if (body.documentType !== 'factura' && body.documentType !== 'boleta') missing.push('documentType');
    if (!body.series) missing.push('series');
    if (!body.currency) missing.push('currency');
    if (!body.country) missing.push('country');
    if (!customer?.docType || !customer?.docId) missing.push('customer.docType/docId');
    if (!customer?.name) missing.push('customer.name');
    if (!Array.isArray(items) || !items.length) missing.push('items');
    if (!totals || typeof totals.total !== 'number') missing.push('totals.total');
    if (missing.length) return json(422, { status: 'rejected', errors: missing.map((f) => ({ code: 'FIELD_REQUIRED', message: `Falta el campo ${f}` })) });
    for (const [i, it] of (items ?? []).entries()) {
      if (!(Number(it.quantity) > 0) || typeof it.unitPrice !== 'number' || typeof it.taxRate !== 'number') {
        return json(422, { status: 'rejected', errors: [{ code: 'ITEM_INVALID', message: `La línea ${i + 1} necesita cantidad, precio unitario y tasa de impuesto` }] });
      }
    }
    const country = String(body.country);
    if (customer && customer.docType !== '-') {
      const doc = customerDocOf(country, String(customer.docId));
      if ('error' in doc) return json(422, { status: 'rejected', errors: [{ code: 'CUSTOMER_DOC_INVALID', message: doc.error }] });
      if (body.documentType === 'factura' && !doc.business) {
        return json(422, { status: 'rejected', errors: [{ code: 'FACTURA_NEEDS_BUSINESS', message: 'Una factura necesita el RUC / RUT / NIT de una empresa: emite una boleta' }] });
      }
    } else if (body.documentType === 'factura') {
      return json(422, { status: 'rejected', errors: [{ code: 'FACTURA_NEEDS_BUSINESS', message: 'Una factura necesita el documento tributario del cliente' }] });
    }
    const sum = (items ?? []).reduce((s, it) => s + Number(it.total ?? 0), 0);
    if (Math.abs(sum - Number(totals?.total)) > 0.05) {
      return json(422, { status: 'rejected', errors: [{ code: 'TOTALS_MISMATCH', message: `Las líneas suman ${sum.toFixed(2)} y el total dice ${Number(totals?.total).toFixed(2)}` }] });
    }
    const series = String(body.series);
    const next = (counters.get(series) ?? (options.firstNumber ?? 1) - 1) + 1;
    counters.set(series, next);
    const id = randomUUID();
    const number = String(next);
    const doc: FakeGenialDocument = { id, key, status: 'accepted', series, number, body };
    documents.set(id, doc);
    return json(201, {
      id,
      status: 'accepted',
      series,
      number,
      pdfUrl: `${base}/v1/documents/${id}.pdf`,
      xmlUrl: `${base}/v1/documents/${id}.xml`,
      errors: [],
    });
  }

  function handle(req: FakeGenialRequest): FakeGenialAnswer {
    const auth = req.headers.authorization ?? '';
    const m = /^Bearer (.+)$/.exec(auth);
    if (!m || !tokenOk(m[1])) return failure(401, 'UNAUTHORIZED', 'Token inválido');
    const path = req.path.replace(/\/+$/, '');
    if (path === '/v1/account') {
      if (req.method !== 'GET') return failure(405, 'METHOD_NOT_ALLOWED', 'Usa GET');
      return json(200, { taxId: options.issuer?.taxId ?? null, name: options.issuer?.name ?? 'Cuenta sandbox', documents: documents.size });
    }
    const doc = /^\/v1\/documents\/([\w-]+)\.(pdf|xml)$/.exec(path);
    if (req.method === 'GET' && doc) {
      const found = documents.get(doc[1]);
      if (!found) return failure(404, 'NOT_FOUND', 'Documento no encontrado');
      const text = doc[2] === 'xml' ? `<Invoice><ID>${found.series}-${found.number}</ID></Invoice>` : `%PDF-1.4 ${found.series}-${found.number}`;
      return { status: 200, headers: { 'content-type': doc[2] === 'xml' ? 'application/xml' : 'application/pdf' }, body: text };
    }
    if (path !== '/v1/documents') return failure(404, 'NOT_FOUND', 'Ruta desconocida');
    if (req.method !== 'POST') return failure(405, 'METHOD_NOT_ALLOWED', 'Usa POST');
    const key = req.headers['idempotency-key'];
    if (!key) return failure(400, 'IDEMPOTENCY_KEY_REQUIRED', 'Falta la cabecera Idempotency-Key');
    const first = answers.get(key);
    if (first) return { ...first, headers: { ...first.headers, 'idempotent-replayed': 'true' } };
    if (state.throttleNext > 0) {
      state.throttleNext--;
      return failure(429, 'RATE_LIMITED', 'Demasiadas solicitudes', { 'retry-after': state.retryAfter });
    }
    if (state.failNext > 0) {
      state.failNext--;
      return failure(503, 'UNAVAILABLE', 'Servicio no disponible');
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      return failure(400, 'BAD_JSON', 'El cuerpo no es JSON');
    }
    if (state.pendingNext > 0) {
      // the tax authority has not answered yet: asked again with the same key, it is decided then
      state.pendingNext--;
      return json(202, { id: `pendiente-${key}`, status: 'pending', errors: [] });
    }
    const answer = issue(body, key);
    // a refused document is not kept under its key: the corrected one may use the same key
    if (answer.status < 300) answers.set(key, answer);
    return answer;
  }

  return {
    handle,
    documents,
    admin: {
      /** The next n POSTs answer 429 with Retry-After. */
      throttle(n: number, retryAfter = '1') {
        state.throttleNext = n;
        state.retryAfter = retryAfter;
      },
      /** The next n POSTs answer 503. */
      fail(n: number) {
        state.failNext = n;
      },
      /** The next n POSTs answer 202 «pending» (nothing kept under their key). */
      pending(n: number) {
        state.pendingNext = n;
      },
    },
  };
}
export type FakeGenial = ReturnType<typeof createFakeGenial>;
