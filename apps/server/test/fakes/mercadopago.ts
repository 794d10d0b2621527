import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createFakeMercadoPago, type FakeMercadoPago } from '../../src/integrations/mercadopago/fake.js';
import { signNotification } from '../../src/integrations/mercadopago/signature.js';

/**
 * A local fake of Mercado Pago's API on a real HTTP server (a random port): the account of
 * src/integrations/mercadopago/fake.ts — Bearer token, `POST /checkout/preferences`,
 * `GET /v1/payments/{id}`, `GET /users/me` — and `notification()`, what Mercado Pago sends to a
 * notification_url: `?data.id=&type=payment`, `x-request-id`, and `x-signature` signed with the
 * application's secret as Mercado Pago signs it.
 */
export interface FakeMercadoPagoServer {
  url: string;
  account: FakeMercadoPago;
  log: Array<{ method: string; path: string; status: number; auth?: string; body?: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startFakeMercadoPago(token = 'APP_USR-7788-prod-token'): Promise<FakeMercadoPagoServer> {
  let account: FakeMercadoPago | undefined;
  const log: FakeMercadoPagoServer['log'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
      const answer = (account as FakeMercadoPago).handle({ method: req.method ?? 'GET', path, headers, body });
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
      } catch {
        parsed = undefined;
      }
      log.push({ method: req.method ?? 'GET', path, status: answer.status, auth: headers.authorization, body: parsed });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  account = createFakeMercadoPago({ token, checkoutUrl: `${url}/checkout/v1/redirect` });
  return { url, account, log, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The notification Mercado Pago would POST for payment `paymentId`, signed with `secret`. */
export function notification(companyId: string, paymentId: string, secret: string, o: { requestId?: string; ts?: string } = {}) {
  const requestId = o.requestId ?? randomUUID();
  return {
    method: 'POST' as const,
    url: `/api/webhooks/mercadopago/${companyId}?data.id=${paymentId}&type=payment`,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': signNotification(secret, paymentId, requestId, o.ts) },
    payload: { action: 'payment.updated', api_version: 'v1', type: 'payment', live_mode: true, date_created: new Date().toISOString(), data: { id: paymentId } },
  };
}
