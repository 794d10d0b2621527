import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, embeddedInfoFile, openDatabase, readEmbeddedInfo } from '../src/db/database.js';
import { DurableNodeFS, durableStartParams } from '../src/db/durable-nodefs.mjs';

/**
 * The embedded database on a machine shared with other users (decision 0064). The attack:
 * another local process reads the port from DATA_DIR/embedded.json and connects to PGlite,
 * which trusts anyone — every tenant's data. And a power cut right after an acknowledged
 * message or order: PGlite ran with fsync off, and its file system dropped every fsync.
 */
let dataDir: string;
let database: Database;
const modeOf = (p: string) => (statSync(p).mode & 0o777).toString(8);

beforeAll(async () => {
  // a DATA_DIR someone made readable by everyone, as mkdir does with the usual umask
  dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'mostrador-embedded-')), 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  database = await openDatabase({ dataDir });
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const connect = async (password?: string) => {
  const info = readEmbeddedInfo(dataDir);
  if (!info) throw new Error('no embedded.json');
  const client = new pg.Client({ host: info.host, port: info.port, user: 'postgres', database: 'postgres', password, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query('select 1 as one')).rows[0];
  } finally {
    await client.end();
  }
};

describe('the embedded database keeps other local users out', () => {
  it('DATA_DIR and the data are mode 700, embedded.json and the password 600', () => {
    expect(modeOf(dataDir)).toBe('700');
    expect(modeOf(path.join(dataDir, 'pglite'))).toBe('700');
    expect(modeOf(embeddedInfoFile(dataDir))).toBe('600');
    expect(modeOf(path.join(dataDir, 'embedded.key'))).toBe('600');
    // what is printed and logged carries no password
    expect(database.connectionString).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(readFileSync(embeddedInfoFile(dataDir), 'utf8')).not.toContain(readFileSync(path.join(dataDir, 'embedded.key'), 'utf8'));
  });

  it('refuses a connection without the password or with a wrong one; the password of DATA_DIR/embedded.key gets in', async () => {
    await expect(connect()).rejects.toThrow();
    await expect(connect('no-es-la-clave')).rejects.toThrow(/contraseña de la base de datos embebida no es válida/);
    const info = readEmbeddedInfo(dataDir);
    expect(info?.host).toBe('127.0.0.1');
    expect(await connect(info?.password)).toEqual({ one: 1 });
    // the server's own pool goes on working beside them
    expect((await database.pool.query('select 2 as two')).rows[0]).toEqual({ two: 2 });
  });

  it('runs with fsync on, its WAL flushed by fsync()', async () => {
    const { rows } = await database.pool.query(`select name, setting from pg_settings where name in ('fsync', 'wal_sync_method') order by name`);
    expect(rows).toEqual([
      { name: 'fsync', setting: 'on' },
      { name: 'wal_sync_method', setting: 'fsync' },
    ]);
  });
});

describe('a commit on the embedded database is on the disk when it is acknowledged', () => {
  it('each commit reaches the disk with fsync; PGlite as it comes issues none', async () => {
    const syncsPerCommit = async (startParams?: string[]) => {
      const fs = new DurableNodeFS(mkdtempSync(path.join(tmpdir(), 'mostrador-fsync-')));
      const db = await PGlite.create({ fs, ...(startParams ? { startParams } : {}) });
      try {
        await db.exec('create table messages (id int primary key, body text)');
        const before = fs.syncs;
        for (let i = 0; i < 5; i++) await db.query('insert into messages values ($1, $2)', [i, 'Hola']);
        return (fs.syncs - before) / 5;
      } finally {
        await db.close();
      }
    };
    expect(await syncsPerCommit()).toBe(0);
    expect(await syncsPerCommit(durableStartParams)).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
