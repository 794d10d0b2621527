import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/safe-equal.js';

/**
 * Mercado Pago's notification signature (decision 0083): the `x-signature` header is
 * `ts=<seconds>,v1=<hex>` where v1 is the HMAC-SHA256, keyed with the application's «clave
 * secreta», of the manifest `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` — data.id as the
 * query string carries it (lowercased when alphanumeric, as Mercado Pago's docs say), and a part
 * left out when its value is missing.
 */
export function signatureManifest(dataId: string | undefined, requestId: string | undefined, ts: string): string {
  const id = dataId && /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  return `${id ? `id:${id};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
}

export function signNotification(secret: string, dataId: string, requestId: string, ts = String(Math.floor(Date.now() / 1000))): string {
  const v1 = createHmac('sha256', secret).update(signatureManifest(dataId, requestId, ts)).digest('hex');
  return `ts=${ts},v1=${v1}`;
}

/**
 * How old a signed notification may be (decision 0104). Mercado Pago retries an unanswered
 * notification for up to a day and more, and what a notification says is never trusted (the
 * payment is read from the API), so the window is wide: it refuses a captured signature replayed
 * days later, never a late retry. A `ts` ahead of the clock by more than a few minutes is refused
 * too. `ts` is in seconds, as the docs show; one in milliseconds is read as such.
 */
export const SIGNATURE_MAX_AGE_S = 72 * 3600;
export const SIGNATURE_MAX_SKEW_S = 5 * 60;

function fresh(ts: string, nowMs: number): boolean {
  if (!/^\d{1,16}$/.test(ts)) return false;
  const n = Number(ts);
  const seconds = n > 1e12 ? n / 1000 : n;
  const age = nowMs / 1000 - seconds;
  return age <= SIGNATURE_MAX_AGE_S && age >= -SIGNATURE_MAX_SKEW_S;
}

/** Whether the header is a valid, recent signature of this notification; compared in constant time. */
export function verifySignature(
  secret: string,
  header: string | undefined,
  dataId: string | undefined,
  requestId: string | undefined,
  nowMs: number = Date.now(),
): boolean {
  if (!header || !secret) return false;
  const parts = new Map(
    header.split(',').map((p) => {
      const [k, ...v] = p.split('=');
      return [k.trim(), v.join('=').trim()] as const;
    }),
  );
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  if (!ts || !v1 || !/^[0-9a-f]{64}$/i.test(v1) || !fresh(ts, nowMs)) return false;
  const expected = createHmac('sha256', secret).update(signatureManifest(dataId, requestId, ts)).digest('hex');
  // the one comparison of secrets (lib/safe-equal.ts, decision 0061)
  return safeEqual(v1.toLowerCase(), expected);
}
