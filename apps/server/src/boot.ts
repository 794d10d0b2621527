import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type Config, loadConfig } from './config.js';
import { type Database, migrateDatabase, openDatabase } from './db/database.js';
import { createSecretBox } from './lib/secret-box.js';
import { ensureModulePermissions } from './modules/corporations/service.js';
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
    await app.realtime.start();
    await app.jobs.start({ work: options.work ?? config.workers === 'inline' });
    await app.mailer.dispatchPending();
    return {
      app,
      database,
      seeded,
      async close() {
        await app.jobs.stop();
        await app.realtime.stop();
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
