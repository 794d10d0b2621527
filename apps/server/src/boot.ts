import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type Config, loadConfig } from './config.js';
import { type Database, migrateDatabase, openDatabase } from './db/database.js';
import { createSecretBox } from './lib/secret-box.js';
import { ensureModulePermissions } from './modules/corporations/service.js';
import { storageOf } from './modules/drive/storage-of.js';
import { seedDemo } from './seed/demo.js';

export interface Booted {
  app: FastifyInstance;
  database: Database;
  seeded: boolean;
  close(): Promise<void>;
}

/** Opens the database, migrates, seeds on first run and builds the app: shared by server and tests. */
export async function boot(
  options: { config?: Config; logger?: boolean | object; work?: boolean; dataDir?: string; databaseUrl?: string; loadFrom?: string } = {},
): Promise<Booted> {
  const config = options.config ?? loadConfig();
  const database = await openDatabase({
    databaseUrl: options.databaseUrl ?? config.databaseUrl,
    dataDir: options.dataDir ?? config.dataDir,
    loadFrom: options.loadFrom,
  });
  try {
    await migrateDatabase(database);
    const seeded = config.seed ? await seedDemo(database.db, createSecretBox(config.secretsKey)) : false;
    await ensureModulePermissions(database.db);
    const app = await buildApp({ config, database, logger: options.logger });
    // Drive's store answers (decision 0105): a bucket that does not is said now, in the log, and
    // /api/health/ready says it until it does (the server still starts: chats work without files)
    if (!(await storageOf(config, app.log).check())) {
      app.log.error(
        config.storage.kind === 's3'
          ? `S3: el bucket ${config.storage.bucket} no responde o rechaza las credenciales: Drive no sube ni sirve archivos hasta que responda`
          : `Drive: no se puede escribir en ${config.dataDir}/drive`,
      );
    }
    await app.realtime.start();
    const work = options.work ?? config.workers === 'inline';
    await app.jobs.start({ work });
    // the processes that work jobs deliver the spine's events too (one at a time holds its lease)
    if (work) await app.spine.start();
    await app.mailer.dispatchPending();
    return {
      app,
      database,
      seeded,
      async close() {
        // HTTP first: no new requests, the running ones finish (they may still queue jobs) and
        // the open event streams end; then the jobs running here finish or are handed back
        // (jobs/queue.ts), and the database closes last (the embedded one flushes to DATA_DIR)
        // Fastify closes the idle keep-alive connections once, as the stop begins; one whose
        // request was still running stays open after its answer until the client drops it (72 s
        // on the server's side), so each is closed as it falls idle
        const reap = setInterval(() => app.server.closeIdleConnections(), 100);
        try {
          await app.close();
        } finally {
          clearInterval(reap);
        }
        // the spine's round in flight finishes (its listeners may still queue jobs), then the jobs stop
        await app.spine.stop();
        await app.jobs.stop();
        await app.realtime.stop();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

/** How long a stop may drain before the process exits anyway (jobs get JOBS_DRAIN_MS of it). */
export const SHUTDOWN_TIMEOUT_MS = 20_000;

/**
 * SIGTERM (docker stop, systemd, an orchestrator) or SIGINT (Ctrl-C) to the server or the worker:
 * close as above and exit 0. A second signal, or a drain longer than SHUTDOWN_TIMEOUT_MS, exits
 * at once with 1. `npm start` and `npm run worker` exec their node, so npm forwards the signal
 * to this process and nothing outlives it (decision 0065).
 */
export function closeOnSignals(booted: Booted, timeoutMs = SHUTDOWN_TIMEOUT_MS): void {
  const log = booted.app.log;
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn({ signal }, 'segunda señal: se sale sin esperar lo que sigue en curso');
      process.exit(1);
    }
    closing = true;
    const started = performance.now();
    log.info({ signal }, 'deteniendo: no se aceptan solicitudes nuevas; terminan las que están en curso y los trabajos');
    setTimeout(() => {
      log.error({ timeoutMs }, 'la detención tardó demasiado: se sale sin esperar lo que sigue en curso');
      process.exit(1);
    }, timeoutMs).unref();
    booted.close().then(
      () => {
        log.info({ drainMs: Math.round(performance.now() - started) }, 'detenido');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'error al detener');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
