import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { readinessChecks } from '@mostrador/contract';
import type { Database } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { DriveStorage } from '../drive/storage.js';
import { HEARTBEAT_SECONDS } from '../../jobs/queue.js';

type Checks = z.infer<typeof readinessChecks>;
type Check = keyof Checks;

/** A worker is alive while its last beat is younger than this (three beats: one missed is not an outage). */
export const WORKER_STALE_SECONDS = 3 * HEARTBEAT_SECONDS;

/**
 * The newest migration this build ships: drizzle's migrator applies every journal entry whose
 * `when` is after the newest `created_at` in drizzle.__drizzle_migrations, so the database has
 * them all exactly when that newest `created_at` is at least this one.
 */
const journal = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../db/migrations/meta/_journal.json'), 'utf8')) as {
  entries: { when: number }[];
};
const newestMigration = Math.max(...journal.entries.map((e) => e.when));

/** What each failing check means to an operator, and what to do (the 503's message). */
const failures: Record<Check, string> = {
  database: 'la base de datos no responde',
  migrations: 'la base de datos no tiene todas las migraciones de esta versión (reinicia el servidor para que las aplique)',
  queue: 'la cola de trabajos (pg-boss) no está iniciada o su esquema no responde',
  storage: 'el almacenamiento de archivos no responde: la carpeta DATA_DIR/drive no se puede escribir, o el bucket S3_BUCKET no responde o rechaza las credenciales (el log dice qué contestó)',
  worker: `ningún worker procesa trabajos: no hay latido de un worker en los últimos ${WORKER_STALE_SECONDS} s (WORKERS=inline en el servidor o procesos npm run worker)`,
};

/**
 * Whether this process can take traffic (decision 0066): the database answers, it has every
 * migration of this build, the job queue is started here and its schema answers, some process —
 * this one with WORKERS=inline, or a separate `npm run worker` — works jobs, and Drive's store
 * answers (the disk can be written, the S3 bucket answers; decision 0105). The
 * answer names states only: no host, pid, count or version an attacker could use.
 */
export async function readiness(
  database: Pick<Database, 'pool'>,
  jobs: Pick<JobQueue, 'started'>,
  storage: Pick<DriveStorage, 'check'>,
): Promise<{ checks: Checks; failing: string[] }> {
  const checks: Checks = { database: 'error', migrations: 'error', queue: 'error', worker: 'error', storage: 'error' };
  const passes = async (check: Check, probe: () => Promise<boolean>) => {
    checks[check] = (await probe().catch(() => false)) ? 'ok' : 'error';
  };
  // the store answers apart from the database: asked at the same time
  const stored = passes('storage', () => storage.check());
  await passes('database', async () => (await database.pool.query('select 1')).rowCount === 1);
  // nothing else can answer without the database: the rest stay failing, only the database is named
  if (checks.database === 'ok') {
    await passes('migrations', async () => {
      const { rows } = await database.pool.query<{ newest: number | null }>('select max(created_at) as newest from drizzle.__drizzle_migrations');
      return Number(rows[0]?.newest ?? 0) >= newestMigration;
    });
    await passes('queue', async () => jobs.started && (await database.pool.query('select version from pgboss.version')).rowCount === 1);
    await passes('worker', async () => {
      const { rows } = await database.pool.query<{ alive: boolean }>(
        'select exists (select 1 from worker_heartbeats where seen_at > now() - make_interval(secs => $1)) as alive',
        [WORKER_STALE_SECONDS],
      );
      return rows[0]?.alive === true;
    });
  }
  await stored;
  const failing = checks.database === 'ok' ? (Object.keys(checks) as Check[]).filter((c) => checks[c] === 'error') : ['database' as const];
  return { checks, failing: failing.map((c) => failures[c]) };
}
