import { describe, expect, it } from 'vitest';
import { type FetchLike, NoAnswer, sendWithRetries } from '../src/integrations/http.js';

type Reply = { status: number; body?: string; retryAfter?: string } | 'no-answer';

/** A provider that answers from a script, one reply per try, and notes the waits asked for. */
function scripted(replies: Reply[]) {
  const waits: number[] = [];
  const signals: AbortSignal[] = [];
  let tries = 0;
  const send = (signal: AbortSignal): ReturnType<FetchLike> => {
    signals.push(signal);
    const reply = replies[Math.min(tries++, replies.length - 1)];
    if (reply === 'no-answer') return Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
    return Promise.resolve({
      status: reply.status,
      headers: { get: (name: string) => (name === 'retry-after' ? (reply.retryAfter ?? null) : null) },
      text: async () => reply.body ?? '',
    });
  };
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { send, waits, signals, tries: () => tries, sleep };
}

describe('provider requests (integrations/http.ts)', () => {
  it('tries a 429 and a 5xx again with doubling waits, and hands back the answer that settles it', async () => {
    const p = scripted([{ status: 429 }, { status: 503 }, { status: 200, body: '{"ok":true}' }]);
    const retried: number[] = [];
    const answer = await sendWithRetries(p.send, { tries: 5, backoffMs: 100, sleep: p.sleep }, { onRetry: () => retried.push(1) });
    expect(answer).toMatchObject({ status: 200, text: '{"ok":true}' });
    expect(p.waits).toEqual([100, 200]);
    expect(retried).toHaveLength(2);
    // each try has its own timeout
    expect(new Set(p.signals).size).toBe(3);
  });

  it('waits what Retry-After asks, never longer than the cap', async () => {
    const p = scripted([{ status: 429, retryAfter: '2' }, { status: 429, retryAfter: '120' }, { status: 204 }]);
    await sendWithRetries(p.send, { tries: 5, backoffMs: 100, maxBackoffMs: 30_000, sleep: p.sleep });
    expect(p.waits).toEqual([2000, 30_000]);
  });

  it('does not try a refusal again (4xx), and returns the last 5xx when tries run out', async () => {
    const refused = scripted([{ status: 401, body: '{"error":"key"}' }]);
    expect((await sendWithRetries(refused.send, { tries: 5, sleep: refused.sleep })).status).toBe(401);
    expect(refused.tries()).toBe(1);
    const down = scripted([{ status: 500 }]);
    expect((await sendWithRetries(down.send, { tries: 3, backoffMs: 10, sleep: down.sleep })).status).toBe(500);
    expect(down.tries()).toBe(3);
  });

  it('tries again when nothing answers, and says why once the tries are spent', async () => {
    const back = scripted(['no-answer', { status: 200 }]);
    expect((await sendWithRetries(back.send, { tries: 3, backoffMs: 10, sleep: back.sleep })).status).toBe(200);
    const gone = scripted(['no-answer']);
    const error = await sendWithRetries(gone.send, { tries: 3, backoffMs: 10, sleep: gone.sleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoAnswer);
    expect((error as NoAnswer).code).toBe('ECONNREFUSED');
    expect(gone.tries()).toBe(3);
  });

  it('lets a provider say "try again" in its body', async () => {
    const p = scripted([{ status: 200, body: '{"busy":true}' }, { status: 200, body: '{"busy":false}' }]);
    const answer = await sendWithRetries(p.send, { tries: 4, backoffMs: 10, sleep: p.sleep }, { retryable: (a) => a.text.includes('"busy":true') });
    expect(answer.text).toBe('{"busy":false}');
  });
});
