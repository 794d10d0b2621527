import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { PgBoss } from 'pg-boss';
import type { Database } from '../db/database.js';
import { type QueueCatalogue, queueCatalogue } from './catalogue.js';

export type JobHandler<T> = (data: T) => Promise<void>;

/** How long a stop waits for the jobs running in this process (within boot.ts's SHUTDOWN_TIMEOUT_MS). */
export const JOBS_DRAIN_MS = 10_000;

/** Jobs a worker takes per fetch. */
const WORK_BATCH = 20;

/**
 * How often a process that works jobs says so in `worker_heartbeats` (decision 0066). Readiness
 * counts a worker alive for three intervals after its last beat: one missed beat (a long GC, a
 * busy database) is not an outage.
 */
export const HEARTBEAT_SECONDS = 15;

type QueueOptions = { expireInSeconds?: number; lanes?: number };

/**
 * The job queue: pg-boss on the product's own database (ARCHITECTURE §6), sharing its
 * pool so the embedded database keeps a single connection. Handlers are registered by
 * modules; `start({ work: false })` lets an API server only enqueue while `npm run worker`
 * processes run the handlers. Only the queues of `catalogue` (catalogue.ts: the product's; a
 * test passes its own) may be defined, with the options and schedule written there.
 */
export function createJobQueue(database: Database, log: { error: (obj: unknown, msg?: string) => void }, catalogue: QueueCatalogue = queueCatalogue) {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.pool.query(text, values as unknown[]) },
    schema: 'pgboss',
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  const handlers = new Map<string, JobHandler<unknown>>();
  const queueOptions = new Map<string, QueueOptions>();
  const schedules = new Map<string, { cron: string; data: object; onStart?: boolean }>();
  let started = false;
  const afterBatch: Array<() => void> = [];
  /** This process's row in worker_heartbeats while it works jobs. */
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let heartbeat: NodeJS.Timeout | undefined;
  // one statement: this process's beat, and the rows of processes gone for a day (killed without a stop)
  const beat = () =>
    database.pool.query(
      `with gone as (delete from worker_heartbeats where seen_at < now() - interval '1 day')
       insert into worker_heartbeats (id) values ($1) on conflict (id) do update set seen_at = now()`,
      [workerId],
    );

  const entryOf = (name: string) => {
    const entry = Object.hasOwn(catalogue, name) ? catalogue[name] : undefined;
    if (!entry) throw new Error(`La cola ${name} no está en el catálogo (jobs/catalogue.ts)`);
    return entry;
  };

  return {
    /**
     * Declares a queue of the catalogue and what processes its jobs, with the catalogue's options:
     * `expireInSeconds`, how long a job may stay active before it is tried again (pg-boss's default
     * is 15 minutes; a job whose worker was killed waits that long) — short for quick jobs;
     * `lanes`, how many batches this process works at once (default 1): for a queue whose jobs
     * wait on the database more than they use the CPU, and whose handlers are safe side by side
     * (the webhooks': a lock per person). Options given here must be the catalogue's.
     */
    define<T>(name: string, handler: JobHandler<T>, options: QueueOptions = {}) {
      const entry = entryOf(name);
      for (const key of ['expireInSeconds', 'lanes'] as const) {
        if (options[key] !== undefined && options[key] !== entry[key]) throw new Error(`La cola ${name} no tiene ${key}=${options[key]} en el catálogo (jobs/catalogue.ts)`);
      }
      handlers.set(name, handler as JobHandler<unknown>);
      // only the options written: pg-boss keeps its own default for the others
      queueOptions.set(name, Object.fromEntries(Object.entries({ expireInSeconds: entry.expireInSeconds, lanes: entry.lanes }).filter(([, v]) => v !== undefined)));
    },
    /**
     * Runs a defined queue on the catalogue's schedule (a cron expression, UTC; `onStart` as
     * written there). pg-boss keeps the schedule in the database and one process sends each
     * occurrence, however many run. A cron or `onStart` given here must be the catalogue's (the
     * schedule is written once, there).
     */
    every(name: string, cron?: string, data: object = {}, options: { onStart?: boolean } = {}) {
      if (!handlers.has(name)) throw new Error(`Cola desconocida: ${name}`);
      const schedule = entryOf(name).schedule;
      if (!schedule) throw new Error(`La cola ${name} no tiene programación en el catálogo (jobs/catalogue.ts)`);
      if ((cron !== undefined && cron !== schedule.cron) || (options.onStart !== undefined && options.onStart !== Boolean(schedule.onStart))) {
        throw new Error(`La programación de ${name} es la del catálogo (jobs/catalogue.ts): ${schedule.cron}`);
      }
      schedules.set(name, { cron: schedule.cron, data, onStart: schedule.onStart });
    },
    /** Called after each batch of jobs this process worked (the spine's wake: what the jobs committed reaches its listeners now, not at the next poll). */
    afterJobs(fn: () => void) {
      afterBatch.push(fn);
    },
    /** The queues defined in this process, and the ones scheduled (the catalogue's test reads them). */
    get defined(): string[] {
      return [...handlers.keys()];
    },
    get scheduled(): string[] {
      return [...schedules.keys()];
    },
    async start({ work }: { work: boolean }) {
      await boss.start();
      started = true;
      for (const [name, handler] of handlers) {
        const { lanes = 1, ...options } = queueOptions.get(name) ?? {};
        await boss.createQueue(name, { retryLimit: 5, retryDelay: 30, retryBackoff: true, ...options });
        // a database made before the option: the queue takes it now
        if (options.expireInSeconds) await boss.updateQueue(name, options);
        const schedule = schedules.get(name);
        if (schedule) await boss.schedule(name, schedule.cron, schedule.data);
        // `onStart`: a worker that starts (after a crash, a deploy) runs it once now, not at the next tick
        if (schedule?.onStart && work) await boss.send(name, schedule.data, { singletonKey: 'on-start', singletonSeconds: 10 });
        if (work) {
          // Batches of 20 fetched back to back while the backlog lasts (a burst of webhooks is
          // processed at once, not one job per poll); a failed job is failed alone, so the
          // queue retries it without redoing the rest of its batch.
          await boss.work<unknown>(name, { pollingIntervalSeconds: 1, batchSize: WORK_BATCH, burstWhenBatchFull: true, localConcurrency: lanes }, async (jobs) => {
            for (const job of jobs) {
              try {
                await handler(job.data);
              } catch (error) {
                log.error({ err: error, queue: name, job: job.id }, 'trabajo fallido');
                await boss.fail(name, job.id, { message: String(error).slice(0, 2000) });
              }
            }
            for (const fn of afterBatch) fn();
          });
        }
      }
      if (work) {
        // the first beat before start answers: a server working jobs inline is ready at once
        await beat();
        heartbeat = setInterval(() => beat().catch((error) => log.error({ err: error }, 'latido del worker fallido')), HEARTBEAT_SECONDS * 1000);
        heartbeat.unref();
      }
    },
    /** Whether pg-boss is started in this process (readiness, decision 0066). */
    get started() {
      return started;
    },
    /**
     * Queues a job. `singletonKey` with `singletonSeconds`: at most one job of that key per slot of
     * that many seconds (a debounce: the others sent in the slot are dropped, `null` returned).
     */
    async send(name: string, data: object, options: { singletonKey?: string; singletonSeconds?: number; startAfter?: number } = {}) {
      if (!handlers.has(name)) throw new Error(`Cola desconocida: ${name}`);
      if (!started) throw new Error(`La cola no está iniciada: ${name}`);
      return boss.send(name, data, options);
    },
    async stop() {
      clearInterval(heartbeat);
      // jobs running here get JOBS_DRAIN_MS to finish; pg-boss then fails the rest, so they are retried
      if (started) await boss.stop({ graceful: true, timeout: JOBS_DRAIN_MS, close: false });
      started = false;
      if (heartbeat) {
        heartbeat = undefined;
        // a worker that stops cleanly (its jobs drained) is gone at once, not three intervals later
        await database.pool.query('delete from worker_heartbeats where id = $1', [workerId]).catch(() => {});
      }
    },
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;
