import type { TransportOptions } from './http.js';

/**
 * How a «Probar conexión» talks to a provider (decision 0061): an owner is waiting at the screen,
 * so two tries of at most 3 s each, 250 ms apart (a Retry-After capped to that), instead of a
 * sync's five or six tries with waits of seconds — a provider that cannot be reached is said in
 * about 6 s, never more than 10. Every connection test builds its client with these options
 * (`createXClient({ ...connectionTest })`); tests shorten `timeoutMs` as they do other waits.
 */
export const connectionTest: Required<Pick<TransportOptions, 'retries' | 'backoffMs' | 'maxBackoffMs' | 'timeoutMs'>> = {
  retries: 2,
  backoffMs: 250,
  maxBackoffMs: 250,
  timeoutMs: 3_000,
};

/** The longest one request of a connection test can take: every try timing out, and the waits between them. */
export const connectionTestBoundMs = (p = connectionTest) => p.retries * p.timeoutMs + (p.retries - 1) * p.maxBackoffMs;

/**
 * A client's retry settings for a connection test: its own (a test may shorten them), never longer
 * than `connectionTest`'s, so every «Probar conexión» answers within `connectionTestBoundMs()`.
 */
export function forConnectionTest(d: Pick<TransportOptions, 'retries' | 'backoffMs' | 'maxBackoffMs' | 'timeoutMs'>) {
  const c = connectionTest;
  return {
    retries: Math.min(d.retries ?? c.retries, c.retries),
    backoffMs: Math.min(d.backoffMs ?? c.backoffMs, c.backoffMs),
    maxBackoffMs: Math.min(d.maxBackoffMs ?? c.maxBackoffMs, c.maxBackoffMs),
    timeoutMs: Math.min(d.timeoutMs ?? c.timeoutMs, c.timeoutMs),
  };
}
