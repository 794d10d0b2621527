import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig, repoRoot } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import * as schema from '../src/db/schema.js';
import { catalogueTable, queueCatalogue } from '../src/jobs/catalogue.js';
import { createJobQueue } from '../src/jobs/queue.js';
import { JWT_SECRET } from './helpers.js';

/**
 * The catalogue of queues (jobs/catalogue.ts, issue 27) is the product's: the app, built as the
 * server and the worker build it (analysis on, so its schedule too), defines exactly its queues and
 * schedules exactly the ones it gives a cron; the queue refuses any other; docs/OPERATIONS.md shows it.
 * No database is reached: defining and scheduling only record, pg-boss starts with `start`.
 */
const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:9/none', connectionTimeoutMillis: 100 });
pool.on('error', () => {});
const database = { kind: 'postgres', pool, db: drizzle(pool, { schema }), connectionString: '', close: () => pool.end() } as unknown as Database;
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', JWT_SECRET, LOG_LEVEL: 'silent', ANALYSIS: 'on' }), database, logger: false });
});
afterAll(async () => {
  await pool.end();
});

const names = Object.keys(queueCatalogue).sort();

describe('the queue catalogue', () => {
  it('names every queue the built app defines, and every queue it names is defined by some module', () => {
    expect([...app.jobs.defined].sort()).toEqual(names);
  });

  it('schedules exactly the queues it gives a cron', () => {
    const scheduled = Object.entries(queueCatalogue)
      .filter(([, q]) => 'schedule' in q)
      .map(([name]) => name)
      .sort();
    expect([...app.jobs.scheduled].sort()).toEqual(scheduled);
  });

  it("names each queue's module by its folder", () => {
    for (const [name, q] of Object.entries(queueCatalogue)) {
      const folder = q.module === 'mail' ? 'apps/server/src/mail' : `apps/server/src/modules/${q.module}`;
      expect(existsSync(path.join(repoRoot, folder)), `${name}: ${folder}`).toBe(true);
    }
  });

  it('is the table of docs/OPERATIONS.md (npm run jobs -- --write)', () => {
    const operations = readFileSync(path.join(repoRoot, 'docs/OPERATIONS.md'), 'utf8');
    expect(operations, 'docs/OPERATIONS.md está desactualizado: ejecuta `npm run jobs -- --write`').toContain(`<!-- jobs:begin -->\n${catalogueTable()}\n<!-- jobs:end -->`);
  });
});

describe('a queue outside the catalogue, or unlike it', () => {
  const queue = createJobQueue(database, { error: () => {} });
  const nothing = async () => {};

  it('is refused when defined or scheduled', () => {
    expect(() => queue.define('metrics.folds', nothing)).toThrow(/no está en el catálogo/);
    expect(() => queue.define('toString', nothing)).toThrow(/no está en el catálogo/);
  });

  it('takes its options from the catalogue, and refuses others', () => {
    expect(() => queue.define('metrics.fold', nothing, { expireInSeconds: 60 })).toThrow(/catálogo/);
    expect(() => queue.define('webhook.process', nothing, { lanes: 1 })).toThrow(/catálogo/);
    queue.define('webhook.process', nothing, { expireInSeconds: 60, lanes: 4 });
    queue.define('metrics.fold', nothing);
    expect(queue.defined).toEqual(['webhook.process', 'metrics.fold']);
  });

  it("is scheduled on the catalogue's cron only", () => {
    expect(() => queue.every('webhook.process')).toThrow(/no tiene programación/);
    expect(() => queue.every('metrics.fold', '*/5 * * * *')).toThrow(/del catálogo/);
    expect(() => queue.every('metrics.fold', '* * * * *', {}, { onStart: true })).toThrow(/del catálogo/);
    queue.every('metrics.fold', '* * * * *');
    queue.every('metrics.fold');
    expect(queue.scheduled).toEqual(['metrics.fold']);
  });
});
