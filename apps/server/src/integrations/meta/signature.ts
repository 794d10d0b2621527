import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/safe-equal.js';

/** `sha256=<hex>`: the X-Hub-Signature-256 Meta sends with every webhook event. */
export function signatureOf(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * Whether `header` is the HMAC-SHA256 of the raw body with the app secret (WhatsApp Cloud API
 * and Messenger/Instagram webhooks). Constant-time comparison; a missing, malformed or
 * repeated header is simply false.
 */
export function isValidSignature(rawBody: Buffer, header: string | string[] | undefined, appSecret: string): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const expected = Buffer.from(signatureOf(rawBody, appSecret).slice(7), 'hex');
  const given = Buffer.from(header.slice(7), 'hex');
  return safeEqual(given, expected);
}
