import { refusalOf } from './outbound.js';

/**
 * What every provider client shares: how it sends one request and tries again while trying
 * again is worth it. No answer, 429 and 5xx are tried again after a doubling wait (the
 * provider's `Retry-After` in seconds honoured, capped), each try with its own timeout. What an
 * answer means — the Spanish reason, which setting to fix — stays with each client: they differ
 * by provider, the plumbing does not.
 */

/** The HTTP function a client calls (global fetch; the demo's sandboxes and the tests pass their own). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

export interface RetryPolicy {
  /** Tries in all, the first included. */
  tries: number;
  /** First wait before a new try, doubled each time (default 500 ms). */
  backoffMs?: number;
  /** The longest wait, Retry-After included (default 30 s). */
  maxBackoffMs?: number;
  /** Time allowed per try (default 30 s). */
  timeoutMs?: number;
  /** A share of random extra wait (0.25: up to 25 % more), so many callers held together do not come back together. */
  jitter?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** What a client is given to send with: its HTTP function and its retry policy (each client names its own default tries). */
export interface TransportOptions {
  /** The HTTP function (the demo's sandboxes and the tests pass their own). Default: global fetch. */
  fetch?: FetchLike;
  /** Tries of a request answered 429/5xx or not answered at all. */
  retries?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** A client's retry policy from its options, with its default number of tries. */
export function policyOf(options: TransportOptions, defaultTries: number, extra: Pick<RetryPolicy, 'jitter'> = {}): RetryPolicy {
  const { retries, backoffMs, maxBackoffMs, timeoutMs, sleep } = options;
  return { tries: retries ?? defaultTries, backoffMs, maxBackoffMs, timeoutMs, sleep, ...extra };
}

/** An answer, its body read. */
export interface Answer {
  status: number;
  text: string;
  headers: { get(name: string): string | null };
}

/** The last try got no answer at all (refused, unreachable, timed out). */
export class NoAnswer extends Error {
  constructor(
    /** The system's code (ECONNREFUSED, ENOTFOUND…) or the error's name (TimeoutError). */
    readonly code: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A transient status: the provider may take the same request a moment later. */
export const isTransient = (status: number) => status === 429 || status >= 500;

/** The wait Retry-After asks for, in ms (seconds only; a date is ignored). */
export function retryAfterMs(value: string | null): number | undefined {
  return value && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) * 1000 : undefined;
}

/**
 * Sends a request until it gets an answer not worth another try, or runs out of tries, and
 * returns that last answer (a 429 or 5xx after the last try included: the client says what it
 * means). Throws `NoAnswer` when the last try got none. `send` is called once per try with that
 * try's timeout signal (a client that signs each request, or holds a connection slot per try,
 * does it there).
 */
export async function sendWithRetries(
  send: (signal: AbortSignal) => ReturnType<FetchLike>,
  policy: RetryPolicy,
  hooks: {
    /** Whether an answer is worth another try (default: 429 and 5xx). */
    retryable?: (answer: Answer) => boolean;
    /** Called before every try (request counters). */
    onTry?: () => void;
    /** Called before every new try. */
    onRetry?: () => void;
  } = {},
): Promise<Answer> {
  const { tries, backoffMs = 500, maxBackoffMs = 30_000, timeoutMs = 30_000, jitter = 0 } = policy;
  const sleep = policy.sleep ?? sleepFor;
  const retryable = hooks.retryable ?? ((a: Answer) => isTransient(a.status));
  const pause = (attempt: number, asked?: number) =>
    sleep(Math.min(maxBackoffMs, asked ?? backoffMs * 2 ** (attempt - 1) * (1 + (jitter ? Math.random() * jitter : 0))));
  for (let attempt = 1; ; attempt++) {
    hooks.onTry?.();
    let answer: Answer;
    try {
      const res = await send(AbortSignal.timeout(timeoutMs));
      answer = { status: res.status, headers: res.headers, text: await res.text() };
    } catch (error) {
      // an address the outbound client refuses stays refused: not tried again
      if (refusalOf(error)) throw refusalOf(error);
      if (attempt >= tries) throw new NoAnswer(systemCodeOf(error), error);
      hooks.onRetry?.();
      await pause(attempt);
      continue;
    }
    if (attempt < tries && retryable(answer)) {
      hooks.onRetry?.();
      await pause(attempt, retryAfterMs(answer.headers.get('retry-after')));
      continue;
    }
    return answer;
  }
}

/** Hooks that count a client's requests, its writes and its retries (the sync reports show them). */
export function counting(stats: { requests: number; retries: number; writes?: number }, write = false) {
  return {
    onTry: () => {
      stats.requests++;
      if (write && stats.writes !== undefined) stats.writes++;
    },
    onRetry: () => {
      stats.retries++;
    },
  };
}

/** The system's code of a request that got no answer (ECONNREFUSED, ENOTFOUND…) or the error's name (TimeoutError). */
const systemCodeOf = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name ?? 'Error';

/** What kept a request from being answered, for a Spanish «No se pudo conectar… (ECONNREFUSED)». */
export const noAnswerReason = (error: unknown) => (error instanceof NoAnswer ? error.code : systemCodeOf(error));

/**
 * A provider's own reason inside its error format (Genial's rejection of a document, Seller
 * Center's ErrorMessage), never a body: one line, control characters out, clipped. Any other
 * remote text stays out of the messages (decision 0060): say what to fix instead.
 */
export const providerReason = (text: string, max = 200) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is stripped
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);

/** The body as JSON, or undefined when it is empty or not JSON. */
export function jsonOf(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
