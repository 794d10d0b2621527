import { type Answer, type FetchLike, jsonOf, noAnswerReason, policyOf, providerReason, sendWithRetries, type TransportOptions } from '../http.js';
import { outboundFetchLike, rethrowRefusal } from '../outbound.js';

/**
 * Genial's e-invoicing API as we call it (decision 0037): `POST {apiUrl}/v1/documents` with a
 * Bearer token and `Idempotency-Key` (our order), the document as JSON; the answer's status
 * (accepted, rejected, pending), series-number, PDF and XML links and errors. 429 (Retry-After
 * honoured), 5xx and no answer are retried with doubling waits; what cannot be fixed by trying
 * again is a `GenialError` with a Spanish reason.
 */
export interface GenialItem {
  sku: string;
  description: string;
  quantity: number;
  unitPrice: number;
  taxRate: number;
  taxAmount: number;
  total: number;
}
export interface GenialDocumentIn {
  country: string;
  issuer: { taxId: string; name: string };
  documentType: 'factura' | 'boleta';
  series: string;
  currency: string;
  issueDate: string;
  customer: { docType: string; docId: string; name: string; email?: string };
  items: GenialItem[];
  totals: { taxable: number; tax: number; total: number };
  reference: { kind: string; orderNumber: string };
}
export interface GenialAnswer {
  id: string;
  status: 'accepted' | 'rejected' | 'pending';
  series?: string;
  number?: string;
  pdfUrl?: string;
  xmlUrl?: string;
  errors: Array<{ code: string; message: string }>;
}

export type GenialErrorKind = 'auth' | 'rejected' | 'rate-limited' | 'network' | 'server' | 'invalid';
export class GenialError extends Error {
  constructor(
    readonly kind: GenialErrorKind,
    readonly msg: string,
  ) {
    super(msg);
  }
}

export interface GenialClientOptions extends TransportOptions {
  url: string;
  token: string;
}

export function createGenialClient(o: GenialClientOptions) {
  const base = o.url.replace(/\/+$/, '');
  // the API URL is a tenant's: the outbound client judges it (the sandbox passes its own fetch)
  const doFetch: FetchLike = o.fetch ?? outboundFetchLike(base);
  const policy = policyOf(o, 3);

  async function issue(doc: GenialDocumentIn, idempotencyKey: string): Promise<GenialAnswer> {
    let res: Answer;
    try {
      res = await sendWithRetries(
        (signal) =>
          doFetch(`${base}/v1/documents`, {
            method: 'POST',
            headers: { authorization: `Bearer ${o.token}`, 'idempotency-key': idempotencyKey, 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify(doc),
            signal,
          }),
        policy,
      );
    } catch (error) {
      rethrowRefusal(error, (msg) => new GenialError('invalid', msg));
      throw new GenialError('network', `No se pudo conectar con Genial en ${base} (${noAnswerReason(error)}): revisa la URL de la API`);
    }
    const body = jsonOf(res.text) as Record<string, unknown> | undefined;
    const errors = Array.isArray(body?.errors) ? (body.errors as GenialAnswer['errors']) : [];
    // Genial's own reasons of a rejected document (its error format, never the body) say what to fix in it
    const reasons = providerReason(errors.map((e) => (typeof e?.message === 'string' ? e.message : '')).filter(Boolean).join('; '));
    if (res.status === 401 || res.status === 403) throw new GenialError('auth', 'Genial rechazó el token: cópialo de nuevo desde Genial → Integraciones y guárdalo en /genial');
    if (res.status === 429) throw new GenialError('rate-limited', 'Genial limita las solicitudes: inténtalo de nuevo en unos minutos');
    if (res.status >= 500) throw new GenialError('server', `Genial no respondió (error ${res.status}): inténtalo de nuevo más tarde`);
    if (res.status === 422 || body?.status === 'rejected') throw new GenialError('rejected', `Genial rechazó el comprobante: ${reasons || 'sin motivo'}`);
    if (res.status >= 400 || !body || typeof body.id !== 'string') {
      throw new GenialError('invalid', res.status >= 400 ? `Genial respondió ${res.status}: revisa la URL de la API y el token` : `La dirección ${base} no responde como la API de Genial: revisa la URL de la API`);
    }
    return {
      id: body.id,
      status: body.status === 'pending' ? 'pending' : 'accepted',
      series: typeof body.series === 'string' ? body.series : undefined,
      number: body.number !== undefined ? String(body.number) : undefined,
      pdfUrl: typeof body.pdfUrl === 'string' ? body.pdfUrl : undefined,
      xmlUrl: typeof body.xmlUrl === 'string' ? body.xmlUrl : undefined,
      errors,
    };
  }

  /**
   * `GET {apiUrl}/v1/account`: whose token it is (the issuer's tax id and name; null for a sandbox
   * token, which serves any issuer). One try: it is the connection test, a person waits for it.
   */
  async function account(): Promise<{ taxId: string | null; name: string }> {
    let res: Awaited<ReturnType<FetchLike>>;
    try {
      res = await doFetch(`${base}/v1/account`, {
        method: 'GET',
        headers: { authorization: `Bearer ${o.token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(Math.min(o.timeoutMs ?? 30_000, 15_000)),
      });
    } catch (error) {
      rethrowRefusal(error, (msg) => new GenialError('invalid', msg));
      throw new GenialError('network', `No se pudo conectar con Genial en ${base} (${noAnswerReason(error)}): revisa la URL de la API`);
    }
    if (res.status === 401 || res.status === 403) throw new GenialError('auth', 'Genial rechazó el token: cópialo de nuevo desde Genial → Integraciones y guárdalo en /genial');
    if (res.status === 429) throw new GenialError('rate-limited', 'Genial limita las solicitudes: inténtalo de nuevo en unos minutos');
    if (res.status >= 500) throw new GenialError('server', `Genial no respondió (error ${res.status}): inténtalo de nuevo más tarde`);
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(await res.text()) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    if (res.status >= 400 || !body || typeof body.name !== 'string') throw new GenialError('invalid', `La dirección ${base} no responde como la API de Genial: revisa la URL de la API`);
    return { taxId: typeof body.taxId === 'string' ? body.taxId : null, name: body.name };
  }

  return { issue, account };
}
export type GenialClient = ReturnType<typeof createGenialClient>;
