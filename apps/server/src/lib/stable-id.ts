import { createHash } from 'node:crypto';

/**
 * A UUID named by its parts (their SHA-256): the same parts, the same id. What makes a retried
 * send find its message instead of sending twice — an Idempotency-Key, a scheduled message, an
 * automation rule's run and action.
 */
export function stableId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16] as string, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
