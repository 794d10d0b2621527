/**
 * Text from third parties (webhook payloads, Graph API responses) is never rejected (decision
 * 0021, applied to webhooks in decision 0020): PostgreSQL refuses the NUL character in text and
 * in jsonb, and a lone UTF-16 surrogate cannot be encoded, so before such text reaches the
 * database every NUL is removed and every lone surrogate becomes U+FFFD. Keys are cleaned too.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what PostgreSQL refuses
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** One string, storable. */
export const sanitizeText = (text: string): string => text.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD');

const SURROGATE = /[\uD800-\uDFFF]/;
/** The string with every lone surrogate (half a character) as U+FFFD; the same string when it has none. */
export const mendSurrogates = (text: string): string => (SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text);

/** A parsed JSON value with every string (and key) storable; other values unchanged. */
export function sanitizeJson<T>(value: T): T {
  if (typeof value === 'string') return sanitizeText(value) as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeJson(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[sanitizeText(k)] = sanitizeJson(v);
    return out as T;
  }
  return value;
}
