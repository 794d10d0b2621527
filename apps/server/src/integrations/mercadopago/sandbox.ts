import type { FetchLike } from '../http.js';
import { createFakeMercadoPago, type FakeMercadoPago } from './fake.js';

/**
 * The demo's sandbox Mercado Pago (decision 0083): a company whose settings say sandbox is
 * answered in-process by the account of fake.ts, its checkout served by the product itself at
 * `/pago-sandbox/{preference}` (modules/payments/sandbox-pages.ts), whose «Pagar» and «Rechazar»
 * make the payment here and deliver a signed notification through the product's own route. The
 * token must start with `sandbox`. One account per company, in this process's memory.
 */
export const SANDBOX_CHECKOUT_PATH = '/pago-sandbox';
const accounts = new Map<string, FakeMercadoPago>();

export function mercadoPagoSandbox(companyId: string, publicUrl: string): FakeMercadoPago {
  let fake = accounts.get(companyId);
  if (!fake) {
    fake = createFakeMercadoPago({ token: (t) => t.startsWith('sandbox'), checkoutUrl: `${publicUrl}${SANDBOX_CHECKOUT_PATH}` });
    accounts.set(companyId, fake);
  }
  return fake;
}

export function mercadoPagoSandboxFetch(companyId: string, publicUrl: string): FetchLike {
  const account = mercadoPagoSandbox(companyId, publicUrl);
  return async (target, init) => {
    const u = new URL(target);
    const answer = account.handle({ method: init.method, path: u.pathname, headers: Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v])), body: init.body ?? '' });
    return { status: answer.status, headers: { get: (name: string) => answer.headers[name.toLowerCase()] ?? null }, text: async () => answer.body };
  };
}

/** The preference's company, for the public checkout page (a preference id names no company). */
export function sandboxPreference(preferenceId: string): { companyId: string; account: FakeMercadoPago } | undefined {
  for (const [companyId, account] of accounts) if (account.preferences.has(preferenceId)) return { companyId, account };
  return undefined;
}
