import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (v: string | Buffer) => createHash('sha256').update(v).digest();

/**
 * Whether a value someone sent is the secret we hold, in constant time: every signature, verify
 * token, webhook secret and API token comparison goes through here (decision 0061). Both sides are
 * hashed first, so the comparison takes as long whatever the lengths (timingSafeEqual needs equal
 * lengths, and an early length check would tell the secret's length); strings are compared as
 * UTF-8. A missing value (undefined, null, '') never matches, not even an empty secret.
 */
export function safeEqual(given: string | Buffer | null | undefined, secret: string | Buffer | null | undefined): boolean {
  if (given == null || secret == null || given.length === 0 || secret.length === 0) return false;
  return timingSafeEqual(digest(given), digest(secret));
}
