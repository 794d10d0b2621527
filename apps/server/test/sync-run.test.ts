import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.js';
import { type FinishedRun, finishedRun, mapLimit, requestMeter, runSyncRun, SyncFailed, type SyncOutcome, throttledPublish } from '../src/lib/sync-run.js';

/** A database that only runs transactions, and says whether one is open. */
function fakeDb() {
  const state = { inTransaction: false, transactions: 0 };
  const db = {
    async transaction<T>(fn: (tx: unknown) => Promise<T>) {
      state.transactions++;
      state.inTransaction = true;
      try {
        return await fn(db);
      } finally {
        state.inTransaction = false;
      }
    },
  };
  return { db: db as unknown as Db, state };
}

type Run = { id: string; companyId: string };
const run: Run = { id: 'r1', companyId: 'c1' };

function spec(db: Db, pages: () => Promise<void>, extra: Partial<Parameters<typeof runSyncRun<Run>>[0]> = {}) {
  const ends: SyncOutcome[] = [];
  const finished: FinishedRun[] = [];
  const published: FinishedRun[] = [];
  return {
    ends,
    finished,
    published,
    spec: {
      db,
      claim: async () => run,
      pages,
      finish: async (_tx: Db, r: Run, outcome: SyncOutcome) => {
        ends.push(outcome);
        return finishedRun('test', outcome, { ...r, message: outcome.message ?? null }, { done: 3 });
      },
      published: async (_r: Run, f: FinishedRun) => {
        published.push(f);
      },
      onFinished: async (_db: Db, f: FinishedRun) => {
        finished.push(f);
      },
      ...extra,
    },
  };
}

describe('the sync-run engine', () => {
  it('ends a run once, in a transaction where onFinished (the spine) gets its final tally, then publishes', async () => {
    const { db, state } = fakeDb();
    let inside = false;
    const s = spec(db, async () => {}, {
      onFinished: async (_db, f) => {
        inside = state.inTransaction;
        s.finished.push(f);
      },
    });
    expect(await runSyncRun(s.spec)).toBe('done');
    expect(s.ends).toEqual([{ status: 'done' }]);
    expect(inside).toBe(true);
    expect(s.finished).toEqual([{ sync: 'test', runId: 'r1', companyId: 'c1', status: 'done', message: null, tally: { done: 3 } }]);
    expect(s.published).toHaveLength(1);
  });

  it('a SyncFailed ends it failed with its reason; gone and busy runs are not touched', async () => {
    const { db } = fakeDb();
    const s = spec(db, async () => {
      throw new SyncFailed('La tienda ya no existe');
    });
    expect(await runSyncRun(s.spec)).toBe('failed');
    expect(s.finished.map((f) => [f.status, f.message])).toEqual([['failed', 'La tienda ya no existe']]);

    for (const answer of ['gone', 'busy'] as const) {
      const t = spec(db, async () => {}, { claim: async () => answer });
      expect(await runSyncRun(t.spec)).toBe(answer);
      expect(t.ends).toEqual([]);
    }
  });

  it('an error the sync judges passing goes to the queue without an end; one it judges permanent ends the run failed', async () => {
    const { db } = fakeDb();
    const boom = new Error('429');
    const retried = spec(db, async () => Promise.reject(boom), { onError: async (_r, error) => ({ retry: error }) });
    await expect(runSyncRun(retried.spec)).rejects.toBe(boom);
    expect(retried.ends).toEqual([]);
    expect(retried.finished).toEqual([]);

    const failed = spec(db, async () => Promise.reject(boom), { onError: async () => ({ fail: 'Clave inválida' }) });
    expect(await runSyncRun(failed.spec)).toBe('failed');
    expect(failed.ends).toEqual([{ status: 'failed', message: 'Clave inválida' }]);

    // without a verdict every error goes to the queue as it is
    const plain = spec(db, async () => Promise.reject(boom), { onError: undefined });
    await expect(runSyncRun(plain.spec)).rejects.toBe(boom);
  });

  it('mapLimit keeps the order and the limit; the meter counts requests since its last call; publish is throttled but for its end', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 3, 2, 4], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 30, 20, 40]);
    expect(most).toBe(2);

    const stats = { requests: 4, writes: 1 };
    const used = requestMeter(stats);
    const writes = requestMeter(stats, 'writes');
    stats.requests += 3;
    stats.writes += 2;
    expect([used(), used(), writes()]).toEqual([3, 0, 2]);

    const sent: string[] = [];
    const p = throttledPublish(async (id) => {
      sent.push(id);
    }, 60_000);
    await p.publish('a', true);
    await p.publish('a', true);
    await p.publish('a');
    p.forget('a');
    await p.publish('a', true);
    expect(sent).toEqual(['a', 'a', 'a']);
  });
});
