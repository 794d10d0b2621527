import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';

/**
 * The one engine under the syncs with a provider (WooCommerce, marketplaces, Mailchimp, Google
 * contacts): a run kept in its sync's table is taken, goes page by page from the cursor it
 * stored, each page committing its records, its tally and the next cursor together (so a run cut
 * anywhere resumes where its last commit left off), and ends at one `finish`: done, or failed with
 * a Spanish message; an error that may pass (a 429, a 5xx, the network) leaves it for the queue to
 * retry. Each sync keeps only what is its own: its provider calls, its mapping, its table of runs.
 */

/** A reason that ends the run failed (a wrong key, a store or account gone): thrown from a page. */
export class SyncFailed extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What the run's table holds when it ends: what the `sync.finished` event will carry. */
export interface FinishedRun {
  /** Which sync: 'ecommerce', 'marketplace', 'marketplace-bulk', 'mailchimp', 'google-people'. */
  sync: string;
  runId: string;
  companyId: string;
  status: 'done' | 'failed';
  message: string | null;
  /** The run's final counts as its table keeps them (done, created, updated, failed, skipped, requests …). */
  tally: Record<string, number>;
}

/** A finished run as the event carries it, from its row's id, company and message and its final counts. */
export const finishedRun = (sync: string, outcome: SyncOutcome, row: { id: string; companyId: string; message: string | null }, tally: Record<string, number>): FinishedRun => ({
  sync,
  runId: row.id,
  companyId: row.companyId,
  status: outcome.status,
  message: row.message,
  tally,
});

export type SyncOutcome = { status: 'done'; message?: undefined } | { status: 'failed'; message: string };

/** Called in the finishing transaction, once per finished run. */
export type OnSyncFinished = (db: Db, run: FinishedRun) => Promise<void>;

export interface SyncRunSpec<Run> {
  db: Db;
  /** Takes the run: its row, or 'gone' (finished or removed) or 'busy' (another live run holds it). */
  claim(): Promise<Run | 'gone' | 'busy'>;
  /** The run's pages, from the cursor it stored; a `SyncFailed` ends it failed with its reason. */
  pages(run: Run): Promise<void>;
  /**
   * Any other error of the pages: the message that ends the run failed, or the error the queue gets
   * (the run left at its cursor, to resume when the job is tried again) once the sync noted it.
   * Without it every such error goes to the queue as it is.
   */
  onError?(run: Run, error: unknown): Promise<{ fail: string } | { retry: unknown }>;
  /** Writes the run's end on `tx` (status, message, when, its last counts) and answers its final tally. */
  finish(tx: Db, run: Run, outcome: SyncOutcome): Promise<FinishedRun>;
  /** Tells the browsers once the end is committed. */
  published?(run: Run, finished: FinishedRun): Promise<void>;
  onFinished?: OnSyncFinished;
}

/** Runs (or resumes) one run of a sync to its end; 'gone' and 'busy' as `claim` answered. */
export async function runSyncRun<Run>(spec: SyncRunSpec<Run>): Promise<'done' | 'failed' | 'gone' | 'busy'> {
  const claimed = await spec.claim();
  if (claimed === 'gone' || claimed === 'busy') return claimed as 'gone' | 'busy';
  const run = claimed as Run;

  async function finish(outcome: SyncOutcome) {
    const finished = await spec.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const out = await spec.finish(t, run, outcome);
      // the run's sync.finished event is written by its status update (the emitters of migration 0051),
      // in this transaction; `onFinished` is for what must commit with the end too
      await spec.onFinished?.(t, out);
      return out;
    });
    await spec.published?.(run, finished);
    return outcome.status;
  }

  try {
    await spec.pages(run);
    return await finish({ status: 'done' });
  } catch (error) {
    if (error instanceof SyncFailed) return finish({ status: 'failed', message: error.reason });
    const verdict = spec.onError ? await spec.onError(run, error) : { retry: error };
    if ('fail' in verdict) return finish({ status: 'failed', message: verdict.fail });
    throw verdict.retry;
  }
}

/**
 * The usual verdict on a provider's error: a permanent one (a wrong key, a refusal) ends the run
 * failed with its message; one that may pass, or an error of ours, is noted on the run («… (se
 * reintentará)») and goes to the queue, which retries the job: it resumes at its cursor.
 */
export async function retryOrFail(
  error: unknown,
  provider: { permanent: boolean; msg: string } | undefined,
  note: (message: string) => Promise<void>,
): Promise<{ fail: string } | { retry: unknown }> {
  if (provider?.permanent) return { fail: provider.msg };
  await note(provider ? `${provider.msg} (se reintentará)` : 'Error interno (se reintentará)');
  return { retry: error };
}

/** What a run's end sets: its status and when, and a failure's message (a done run keeps the one it had). */
export const endSet = (outcome: SyncOutcome) =>
  outcome.status === 'done' ? { status: 'done' as const, finishedAt: new Date() } : { status: 'failed' as const, message: outcome.message, finishedAt: new Date() };

/** Runs `fn` over items, `limit` at a time, answers in order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

/** The requests (or another count) a provider's client made since the last call: each commit adds its own to the run. */
export function requestMeter<K extends string = 'requests'>(stats: { [k in K]: number }, key: K = 'requests' as K): () => number {
  let seen = stats[key];
  return () => {
    const n = stats[key] - seen;
    seen = stats[key];
    return n;
  };
}

/** Publishes a run's progress at most every `everyMs` while it goes (a call without `throttle` always goes). */
export function throttledPublish(publish: (runId: string) => Promise<void>, everyMs: number) {
  const last = new Map<string, number>();
  return {
    async publish(runId: string, throttle = false) {
      const now = Date.now();
      if (throttle && now - (last.get(runId) ?? 0) < everyMs) return;
      last.set(runId, now);
      await publish(runId);
    },
    /** A finished run: its next publish goes at once. */
    forget(runId: string) {
      last.delete(runId);
    },
  };
}

/** What one page did: added to the run when its transaction commits. */
export interface PageTally {
  done: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: Array<{ item: string; msg: string }>;
}
export const pageTally = (): PageTally => ({ done: 0, created: 0, updated: 0, unchanged: 0, errors: [] });

/** The columns of a run that pages add their tally to. */
export interface TallyColumns {
  done: AnyPgColumn;
  created: AnyPgColumn;
  updated: AnyPgColumn;
  unchanged: AnyPgColumn;
  requests: AnyPgColumn;
  failedItems: AnyPgColumn;
  errors: AnyPgColumn;
}

/** Errors kept per run (the count goes on). */
export const MAX_RUN_ERRORS = 200;

/** The set of a run's update that adds a page's tally and its requests; its errors are appended, the first `MAX_RUN_ERRORS` kept. */
export function tallySet(run: TallyColumns, t: PageTally, requests: number) {
  return {
    done: sql`${run.done} + ${t.done}`,
    created: sql`${run.created} + ${t.created}`,
    updated: sql`${run.updated} + ${t.updated}`,
    unchanged: sql`${run.unchanged} + ${t.unchanged}`,
    requests: sql`${run.requests} + ${requests}`,
    failedItems: sql`${run.failedItems} + ${t.errors.length}`,
    errors: t.errors.length
      ? sql`(select coalesce(jsonb_agg(e), '[]'::jsonb) from (select e from jsonb_array_elements(${run.errors} || ${JSON.stringify(t.errors)}::jsonb) e limit ${MAX_RUN_ERRORS}) x)`
      : run.errors,
  };
}

/** Commits one page in one transaction: its writes (`work`, which fills the page's tally), then what the run keeps of it (`record`). */
export async function commitPage<T>(db: Db, t: T, work: (tx: Db, t: T) => Promise<void>, record: (tx: Db, t: T) => Promise<void>): Promise<T> {
  await db.transaction(async (tx) => {
    await work(tx as unknown as Db, t);
    await record(tx as unknown as Db, t);
  });
  return t;
}
