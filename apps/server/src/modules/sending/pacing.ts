import { type MessageClient, ProviderError } from '../../integrations/meta/send.js';

/**
 * The runner's pace and its answer to a provider's refusal (decision 0041): the line's token
 * bucket, and which failures are retried later, left to reconcile, or final.
 */

/** WhatsApp's pair rate limit: about one message every 6 s to the same person (131056). */
const PAIR_WAIT_MS = 6_000;

/** What became of one claimed row. */
export type Outcome =
  | { id: string; kind: 'sent'; providerId: string; followUps?: Awaited<ReturnType<MessageClient['send']>>['followUps'] }
  | { id: string; kind: 'failed'; reason: string }
  | { id: string; kind: 'retry'; afterMs: number; reason: string; throttled: boolean }
  | { id: string; kind: 'unknown'; reason: string }
  /** Claimed but not sent: a stop came first. */
  | { id: string; kind: 'release' };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The line's pace: a token bucket of `rate` messages per second. Throttling from the provider
 * halves the rate for a while; it climbs back by a tenth per calm second.
 */
export class Pacer {
  private tokens: number;
  private last = Date.now();
  rate: number;
  constructor(readonly max: number) {
    this.rate = max;
    this.tokens = Math.min(max, 1);
  }
  private lastThrottle = 0;
  private refill() {
    const now = Date.now();
    // a small burst only (a tenth of a second: what a batch's own database work leaves unsent)
    this.tokens = Math.min(Math.max(1, this.rate / 10), this.tokens + ((now - this.last) / 1000) * this.rate);
    if (this.rate < this.max) this.rate = Math.min(this.max, this.rate * (1 + (now - this.last) / 10_000));
    this.last = now;
  }
  async take(): Promise<void> {
    for (;;) {
      this.refill();
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(Math.max(1, Math.ceil(((1 - this.tokens) / this.rate) * 1000)));
    }
  }
  /**
   * The provider said too fast: a fifth slower, once per second at most, never below a quarter
   * of the line's (at the line's own pace a refusal is a second's boundary, not a wrong pace).
   */
  throttled() {
    const now = Date.now();
    if (now - this.lastThrottle < 1000) return;
    this.lastThrottle = now;
    this.rate = Math.max(this.max / 4, this.rate * 0.8);
    this.tokens = 0;
  }
}

/** How a provider failure is treated: retried later (throttling, pair limit), unknown (no answer), or final. */
export function classify(id: string, error: unknown, attempts: number): Outcome {
  if (!(error instanceof ProviderError)) return { id, kind: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  const { httpStatus, code } = error.details;
  if (httpStatus === undefined) return { id, kind: 'unknown', reason: error.reason };
  const throttled = httpStatus === 429 || code === 130429 || code === 80007 || code === 4 || code === 131048;
  if (throttled) return { id, kind: 'retry', afterMs: Math.min(30_000, 1000 * 2 ** Math.min(attempts, 5)), reason: error.reason, throttled: true };
  if (code === 131056) return { id, kind: 'retry', afterMs: PAIR_WAIT_MS, reason: error.reason, throttled: false };
  if (httpStatus >= 500) return { id, kind: 'retry', afterMs: Math.min(30_000, 2000 * 2 ** Math.min(attempts, 4)), reason: error.reason, throttled: false };
  return { id, kind: 'failed', reason: error.reason };
}
