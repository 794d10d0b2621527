import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/safe-equal.js';

/**
 * Seller Center's request signature (Falabella / Linio, decision 0035): every parameter of the
 * request but `Signature`, sorted by name, each name and value URL-encoded as RFC 3986 (PHP's
 * rawurlencode) and joined as `name=value` with `&`; the signature is the hex HMAC-SHA256 of that
 * text with the user's API key. The documented example (FeedList, look@me.com, 2015-07-01T11:11:11+00:00)
 * is checked in the tests.
 */
export const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The text that is signed: sorted by name (byte order), encoded, joined. */
export function canonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'Signature')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${rfc3986(k)}=${rfc3986(params[k])}`)
    .join('&');
}

export function signatureOf(params: Record<string, string>, apiKey: string): string {
  return createHmac('sha256', apiKey).update(canonicalQuery(params), 'utf8').digest('hex');
}

/** The query string of a signed request: the canonical parameters and their Signature. */
export function signedQuery(params: Record<string, string>, apiKey: string): string {
  return `${canonicalQuery(params)}&Signature=${signatureOf(params, apiKey)}`;
}

/** Whether a request's Signature is the one its parameters and `apiKey` give (constant time). */
export function signatureMatches(params: Record<string, string>, apiKey: string): boolean {
  return safeEqual(String(params.Signature ?? ''), signatureOf(params, apiKey));
}

/** Seller Center's Timestamp: ISO 8601 with an explicit offset (`2015-07-01T11:11:11+00:00`). */
export const timestampOf = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
