import { randomUUID } from 'node:crypto';

/**
 * An in-memory Mercado Pago account (decision 0083), checking what the real API would: the
 * Bearer token, a preference's items (title, quantity, unit_price, currency_id), its
 * external_reference and notification_url; payments made on a preference (approved, rejected,
 * an amount of the test's choosing), refunds; `GET /v1/payments/{id}` and `GET /users/me`.
 * Served over HTTP in tests (test/fakes/mercadopago.ts) and in-process as the demo's sandbox
 * (sandbox.ts).
 */
export interface FakeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
}
export interface FakePreference {
  id: string;
  items: Array<{ title: string; quantity: number; unit_price: number; currency_id: string }>;
  externalReference: string;
  notificationUrl: string;
  total: number;
  currency: string;
}
export interface FakePayment {
  id: string;
  status: 'approved' | 'rejected' | 'refunded' | 'pending' | 'in_process';
  transaction_amount: number;
  currency_id: string;
  external_reference: string;
  payment_method_id: string;
  preferenceId?: string;
}
export interface FakeMercadoPagoOptions {
  token: string | ((token: string) => boolean);
  /** Where the checkout of a preference is (init_point = `${checkoutUrl}/${preference id}`). */
  checkoutUrl: string;
}

const json = (status: number, body: unknown): FakeAnswer => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });

export function createFakeMercadoPago(options: FakeMercadoPagoOptions) {
  const preferences = new Map<string, FakePreference>();
  const payments = new Map<string, FakePayment>();
  const keys = new Map<string, string>();
  const state = { failNext: 0 };
  let nextPayment = 1_300_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
  const tokenOk = (t: string) => (typeof options.token === 'function' ? options.token(t) : t === options.token);

  function handle(req: FakeRequest): FakeAnswer {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !tokenOk(auth.slice(7))) return json(401, { message: 'invalid access token', error: 'unauthorized', status: 401 });
    if (state.failNext > 0) {
      state.failNext--;
      return json(500, { message: 'internal error' });
    }
    if (req.method === 'GET' && req.path === '/users/me') return json(200, { id: 123456789, nickname: 'TIENDA_DEMO', site_id: 'MPE', email: 'ventas@demo.pe' });
    if (req.method === 'POST' && req.path === '/checkout/preferences') {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(req.body) as Record<string, unknown>;
      } catch {
        return json(400, { message: 'invalid body' });
      }
      const items = body.items as FakePreference['items'] | undefined;
      const bad =
        !Array.isArray(items) ||
        !items.length ||
        items.some((i) => typeof i.title !== 'string' || !Number.isInteger(i.quantity) || i.quantity < 1 || typeof i.unit_price !== 'number' || typeof i.currency_id !== 'string');
      if (bad || typeof body.external_reference !== 'string' || typeof body.notification_url !== 'string') return json(400, { message: 'invalid items', error: 'bad_request', status: 400 });
      const key = req.headers['x-idempotency-key'];
      const known = key ? keys.get(key) : undefined;
      const pref: FakePreference = known
        ? (preferences.get(known) as FakePreference)
        : {
            id: `${123456789}-${randomUUID()}`,
            items,
            externalReference: body.external_reference,
            notificationUrl: body.notification_url,
            total: Math.round(items.reduce((n, i) => n + i.unit_price * i.quantity, 0) * 100) / 100,
            currency: items[0].currency_id,
          };
      preferences.set(pref.id, pref);
      if (key) keys.set(key, pref.id);
      const url = `${options.checkoutUrl}/${pref.id}`;
      return json(201, { id: pref.id, init_point: url, sandbox_init_point: url, external_reference: pref.externalReference, items: pref.items });
    }
    const m = /^\/v1\/payments\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const p = payments.get(decodeURIComponent(m[1]));
      if (!p) return json(404, { message: 'Payment not found', error: 'not_found', status: 404 });
      return json(200, { ...p, id: Number(p.id), status_detail: p.status === 'approved' ? 'accredited' : p.status === 'rejected' ? 'cc_rejected_other_reason' : p.status });
    }
    return json(404, { message: 'resource not found' });
  }

  /** A buyer pays (or is refused) a preference: by default its total, in its currency. */
  function pay(preferenceId: string, o: { status?: FakePayment['status']; amount?: number; currency?: string; externalReference?: string } = {}): FakePayment {
    const pref = preferences.get(preferenceId);
    if (!pref && !o.externalReference) throw new Error(`no preference ${preferenceId}`);
    const p: FakePayment = {
      id: String(nextPayment++),
      status: o.status ?? 'approved',
      transaction_amount: o.amount ?? pref?.total ?? 0,
      currency_id: o.currency ?? pref?.currency ?? 'PEN',
      external_reference: o.externalReference ?? pref?.externalReference ?? '',
      payment_method_id: 'visa',
      ...(pref ? { preferenceId: pref.id } : {}),
    };
    payments.set(p.id, p);
    return p;
  }

  function refund(paymentId: string) {
    const p = payments.get(paymentId);
    if (!p) throw new Error(`no payment ${paymentId}`);
    p.status = 'refunded';
    return p;
  }

  return { handle, pay, refund, preferences, payments, state };
}
export type FakeMercadoPago = ReturnType<typeof createFakeMercadoPago>;
