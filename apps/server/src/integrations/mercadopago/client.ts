import { type Answer, type FetchLike, jsonOf, noAnswerReason, policyOf, sendWithRetries, type TransportOptions } from '../http.js';
import { outboundFetchLike, rethrowRefusal } from '../outbound.js';

/**
 * Mercado Pago's Checkout Pro as we call it (decision 0083): `POST /checkout/preferences` (the
 * order's lines, `external_reference` = our order id, the notification and back URLs),
 * `GET /v1/payments/{id}` (what a notification is about: its body is never trusted) and
 * `GET /users/me` (the connection test), with `Authorization: Bearer <access token>`. 429, 5xx
 * and no answer are tried again; what cannot be fixed by trying again is a `MercadoPagoError`
 * with a Spanish reason — never Mercado Pago's body.
 */
export interface PreferenceItem {
  id?: string;
  title: string;
  quantity: number;
  unit_price: number;
  currency_id: string;
}
export interface PreferenceIn {
  items: PreferenceItem[];
  external_reference: string;
  notification_url: string;
  back_urls: { success: string; failure: string; pending: string };
  auto_return?: 'approved';
  statement_descriptor?: string;
}
export interface Preference {
  id: string;
  initPoint: string;
  sandboxInitPoint?: string;
}
export interface Payment {
  id: string;
  status: string;
  statusDetail?: string;
  amount: number;
  currency: string;
  externalReference?: string;
  method?: string;
}

export type MercadoPagoErrorKind = 'auth' | 'not-found' | 'rejected' | 'rate-limited' | 'network' | 'server' | 'invalid';
export class MercadoPagoError extends Error {
  constructor(
    readonly kind: MercadoPagoErrorKind,
    readonly msg: string,
  ) {
    super(msg);
  }
}

export interface MercadoPagoClientOptions extends TransportOptions {
  url: string;
  accessToken: string;
}

export const MERCADOPAGO_AUTH_REASON = 'Mercado Pago rechazó el access token: cópialo de nuevo desde Tus integraciones → Credenciales y guárdalo en /mercadopago';

export function createMercadoPagoClient(o: MercadoPagoClientOptions) {
  const base = o.url.replace(/\/+$/, '');
  // the shared outbound client (the sandbox passes its own fetch)
  const doFetch: FetchLike = o.fetch ?? outboundFetchLike(base);
  const policy = policyOf(o, 3);

  async function send(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}, tries = policy): Promise<Answer> {
    try {
      return await sendWithRetries(
        (signal) =>
          doFetch(`${base}${path}`, {
            method,
            headers: { authorization: `Bearer ${o.accessToken}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
            ...(body ? { body: JSON.stringify(body) } : {}),
            signal,
          }),
        tries,
      );
    } catch (error) {
      rethrowRefusal(error, (msg) => new MercadoPagoError('invalid', msg));
      throw new MercadoPagoError('network', `No se pudo conectar con Mercado Pago (${noAnswerReason(error)}): inténtalo de nuevo en unos minutos`);
    }
  }

  function judge(res: Answer, what: string) {
    if (res.status === 401 || res.status === 403) throw new MercadoPagoError('auth', MERCADOPAGO_AUTH_REASON);
    if (res.status === 404) throw new MercadoPagoError('not-found', `Mercado Pago no encontró ${what}`);
    if (res.status === 429) throw new MercadoPagoError('rate-limited', 'Mercado Pago limita las solicitudes: inténtalo de nuevo en unos minutos');
    if (res.status >= 500) throw new MercadoPagoError('server', `Mercado Pago no respondió (error ${res.status}): inténtalo de nuevo más tarde`);
    if (res.status >= 400) throw new MercadoPagoError('rejected', `Mercado Pago rechazó ${what} (error ${res.status}): revisa los productos y precios de la orden`);
    const body = jsonOf(res.text) as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object') throw new MercadoPagoError('invalid', 'La respuesta de Mercado Pago no se pudo leer: inténtalo de nuevo');
    return body;
  }

  /** POST /checkout/preferences, with an idempotency key (the order and its total: the same link again is the same preference). */
  async function createPreference(pref: PreferenceIn, idempotencyKey: string): Promise<Preference> {
    const body = judge(await send('POST', '/checkout/preferences', pref, { 'x-idempotency-key': idempotencyKey }), 'el enlace de pago');
    if (typeof body.id !== 'string' || typeof body.init_point !== 'string') throw new MercadoPagoError('invalid', 'Mercado Pago no devolvió el enlace de pago: inténtalo de nuevo');
    return { id: body.id, initPoint: body.init_point, ...(typeof body.sandbox_init_point === 'string' ? { sandboxInitPoint: body.sandbox_init_point } : {}) };
  }

  /** GET /v1/payments/{id}: the payment as Mercado Pago knows it. */
  async function payment(id: string): Promise<Payment> {
    const body = judge(await send('GET', `/v1/payments/${encodeURIComponent(id)}`), `el pago ${id}`);
    if (body.id === undefined || typeof body.status !== 'string') throw new MercadoPagoError('invalid', 'La respuesta de Mercado Pago no se pudo leer: inténtalo de nuevo');
    return {
      id: String(body.id),
      status: body.status,
      ...(typeof body.status_detail === 'string' ? { statusDetail: body.status_detail } : {}),
      amount: Number(body.transaction_amount),
      currency: String(body.currency_id ?? ''),
      ...(typeof body.external_reference === 'string' ? { externalReference: body.external_reference } : {}),
      ...(typeof body.payment_method_id === 'string' ? { method: body.payment_method_id } : {}),
    };
  }

  /** GET /users/me: whose token it is. One try: a person waits for the connection test. */
  async function me(): Promise<{ id: string; nickname: string; siteId?: string }> {
    const body = judge(await send('GET', '/users/me', undefined, {}, { ...policy, tries: 1, timeoutMs: 15_000 }), 'la cuenta');
    if (body.id === undefined) throw new MercadoPagoError('invalid', 'La respuesta de Mercado Pago no se pudo leer: inténtalo de nuevo');
    return { id: String(body.id), nickname: String(body.nickname ?? body.id), ...(typeof body.site_id === 'string' ? { siteId: body.site_id } : {}) };
  }

  return { createPreference, payment, me };
}
export type MercadoPagoClient = ReturnType<typeof createMercadoPagoClient>;

/** Mercado Pago's payment statuses as an order's payment row keeps them. */
export function paymentStatusOf(status: string): 'approved' | 'rejected' | 'refunded' | 'pending' {
  if (status === 'approved') return 'approved';
  if (status === 'rejected' || status === 'cancelled') return 'rejected';
  if (status === 'refunded' || status === 'charged_back') return 'refunded';
  return 'pending';
}
