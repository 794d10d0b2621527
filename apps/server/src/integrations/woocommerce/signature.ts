import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/safe-equal.js';

/** `X-WC-Webhook-Signature`: base64 of the HMAC-SHA256 of the raw body with the webhook's secret. */
export function wooSignatureOf(rawBody: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** Whether the header is the body's signature with the secret (constant time; missing or malformed: false). */
export function isValidWooSignature(rawBody: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(header)) return false;
  const expected = Buffer.from(wooSignatureOf(rawBody, secret), 'base64');
  const given = Buffer.from(header, 'base64');
  return safeEqual(given, expected);
}
