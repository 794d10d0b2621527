import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../src/config.js';
import { type Database, migrateDatabase, openDatabase } from '../src/db/database.js';
import { createSecretBox } from '../src/lib/secret-box.js';
import { ensureModulePermissions } from '../src/modules/corporations/service.js';
import { seedDemo } from '../src/seed/demo.js';
import { createDatabase } from '../../../scripts/product-process.js';
import { JWT_SECRET } from './helpers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated and seeded database every test app starts from (see `startTestApp`). */
    dbTemplate: { kind: 'pglite'; file: string } | { kind: 'postgres'; name: string };
  }
}

/** Migrations, the demo seed and the module permissions: what `boot` writes before serving. */
async function prepare(database: Database) {
  await migrateDatabase(database);
  const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET, LOG_LEVEL: 'silent' });
  await seedDemo(database.db, createSecretBox(config.secretsKey));
  await ensureModulePermissions(database.db);
}

/**
 * Migrating and seeding the demo tenant takes seconds per app, and the suite starts about
 * fifty of them. This runs it once: a PostgreSQL template database (`create database … template`
 * copies its files) or a dumped PGlite data directory that each test app loads.
 */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const { name, url, drop } = await createDatabase(adminUrl, 'mostrador_tpl');
    const database = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
    try {
      await prepare(database);
    } finally {
      await database.close();
    }
    project.provide('dbTemplate', { kind: 'postgres', name });
    return drop;
  }
  const file = path.join(tmpdir(), `mostrador-template-${randomBytes(6).toString('hex')}.tar`);
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await prepare(database);
    await database.dumpTo?.(file);
  } finally {
    await database.close();
  }
  project.provide('dbTemplate', { kind: 'pglite', file });
  return () => rmSync(file, { force: true });
}
