import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { privateDir, privateSecret, writePrivateFile } from '../lib/data-dir.js';
import { actingTransactions } from './actor.js';
import { ensureChatHolders } from './chat-holders.js';
import { ensureRowCounters } from './counters.js';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;

/** The rows of a raw statement, typed by the caller. */
export const rowsOf = async <T extends Record<string, unknown>>(db: Pick<Db, 'execute'>, query: Parameters<Db['execute']>[0]) => (await db.execute(query)).rows as T[];

/** A timestamp a row holds (text or Date) as the API's ISO string; null stays null. */
export const isoOf = <T extends string | Date | null>(at: T): T extends null ? null : string => (at === null ? null : new Date(at).toISOString()) as never;

export interface Database {
  kind: 'pglite' | 'postgres';
  pool: pg.Pool;
  db: Db;
  /** Where the embedded database listens, for `npm run invite` and psql while the server runs. */
  connectionString: string;
  close(): Promise<void>;
  /** PGlite only: writes the whole data directory to a tar file (the test suite's template). */
  dumpTo?(file: string): Promise<void>;
}

// bigint (count, sum) comes back as a string from pg: numbers are what the product needs.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/**
 * Pools whose connections are separate sessions (PostgreSQL), where a named prepared
 * statement is parsed and planned once per connection. Not PGlite: there every connection
 * reaches the one session, where a name prepared through another connection already exists.
 */
export const namedStatements = new WeakSet<object>();

/** A query config naming a fixed statement where the pool keeps it per connection (PostgreSQL), so it is planned once. */
export function statementOf(pool: object, name: string, text: string, values: unknown[]): { name?: string; text: string; values: unknown[] } {
  return namedStatements.has(pool) ? { name, text, values } : { text, values };
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');

export interface EmbeddedInfo {
  pid: number;
  host: string;
  port: number;
  /** The embedded server's password (DATA_DIR/embedded.key), which it asks of every connection. */
  password: string;
}

export function embeddedInfoFile(dataDir: string) {
  return path.join(dataDir, 'embedded.json');
}

/** The embedded database's password, kept beside the app key (mode 600; decision 0064). */
const embeddedPassword = (dataDir: string) => privateSecret(dataDir, 'embedded.key');

/** The running embedded server of this DATA_DIR, if there is one. */
export function readEmbeddedInfo(dataDir: string): EmbeddedInfo | undefined {
  const file = embeddedInfoFile(dataDir);
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as Omit<EmbeddedInfo, 'password'>;
    process.kill(info.pid, 0);
    return { ...info, password: embeddedPassword(dataDir) };
  } catch {
    return undefined;
  }
}

async function startEmbedded(
  dataDir: string | 'memory://',
  password: string,
  loadFrom?: string,
): Promise<{ host: string; port: number; stop(): Promise<void>; dump(file: string): Promise<void> }> {
  const worker = new Worker(new URL('./embedded-worker.mjs', import.meta.url), {
    // loopback only; every connection must give the password (embedded-worker.mjs)
    workerData: { dataDir, host: '127.0.0.1', port: 0, loadFrom, password },
  });
  const ready = await new Promise<{ host: string; port: number }>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (msg: { type: string; host: string; port: number; message?: string }) => {
      if (msg.type === 'ready') resolve(msg);
      if (msg.type === 'error') reject(new Error(`No se pudo iniciar la base de datos embebida: ${msg.message}`));
    });
  });
  return {
    ...ready,
    dump(file) {
      return new Promise<void>((resolve, reject) => {
        const onMessage = (msg: { type: string; message?: string }) => {
          if (msg.type !== 'dumped') return;
          worker.off('message', onMessage);
          if (msg.message) reject(new Error(msg.message));
          else resolve();
        };
        worker.on('message', onMessage);
        worker.postMessage({ type: 'dump', file });
      });
    },
    async stop() {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000);
        worker.on('message', (msg: { type: string }) => {
          if (msg.type === 'stopped') {
            clearTimeout(timer);
            resolve();
          }
        });
        worker.postMessage({ type: 'stop' });
      });
      await worker.terminate();
    },
  };
}

export interface StartOptions {
  databaseUrl?: string;
  /** Directory of the embedded database, or 'memory://' for a throwaway one (tests). */
  dataDir: string;
  /** PGlite only: start from this dumped data directory (a tar file written by `dumpTo`). */
  loadFrom?: string;
}

/**
 * Opens the product's database: PostgreSQL when DATABASE_URL is set, else PGlite in a
 * worker thread behind pglite-socket. Either way the rest of the server sees a `pg` pool.
 */
export async function openDatabase({ databaseUrl, dataDir, loadFrom }: StartOptions): Promise<Database> {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    pool.on('error', () => {});
    namedStatements.add(pool);
    return { kind: 'postgres', pool, db: actingTransactions(drizzle(pool, { schema })), connectionString: databaseUrl, close: () => pool.end() };
  }
  const memory = dataDir === 'memory://';
  let pgDir = dataDir;
  // a throwaway database gets a throwaway password: the same door, nothing kept
  let password = randomBytes(32).toString('base64url');
  if (!memory) {
    const running = readEmbeddedInfo(dataDir);
    if (running) {
      throw new Error(`Otro proceso (pid ${running.pid}) ya usa la base de datos embebida en ${dataDir}`);
    }
    // DATA_DIR and the data 700, the password 600: no other local user reads or reaches them (decision 0064)
    privateDir(dataDir);
    pgDir = path.join(dataDir, 'pglite');
    privateDir(pgDir);
    password = embeddedPassword(dataDir);
  }
  const embedded = await startEmbedded(pgDir, password, loadFrom);
  // without the password: it is printed (npm start) and logged; psql asks for it (DATA_DIR/embedded.key)
  const connectionString = `postgres://postgres@${embedded.host}:${embedded.port}/postgres`;
  if (!memory) {
    writePrivateFile(embeddedInfoFile(dataDir), JSON.stringify({ pid: process.pid, host: embedded.host, port: embedded.port }));
  }
  // One connection: PGlite runs one query at a time anyway, and pglite-socket interleaves
  // extended-protocol messages of concurrent connections (docs/decisions/0002-embedded-database.md).
  const pool = new pg.Pool({ host: embedded.host, port: embedded.port, user: 'postgres', database: 'postgres', password, max: 1, idleTimeoutMillis: 0 });
  pool.on('error', () => {});
  return {
    kind: 'pglite',
    pool,
    db: actingTransactions(drizzle(pool, { schema })),
    connectionString,
    dumpTo: (file) => embedded.dump(file),
    async close() {
      await pool.end();
      await embedded.stop();
      if (!memory) rmSync(embeddedInfoFile(dataDir), { force: true });
    },
  };
}

/** Applies pending migrations; an advisory lock keeps several servers from racing. */
export async function migrateDatabase(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock(727001)');
    await migrate(drizzle(client, { schema }), { migrationsFolder });
    await ensureRowCounters(client);
    await ensureChatHolders(client);
    await client.query('select pg_advisory_unlock(727001)');
  } finally {
    client.release();
  }
}
