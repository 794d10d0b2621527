/**
 * What durable commits cost on the embedded database (decision 0064): single-row commits (a
 * webhook's intake, an order) on a file-backed PGlite as it comes (fsync off, and its file
 * system drops every fsync) and as the product runs it (db/durable-nodefs.mjs: fsync on, the
 * WAL flushed by a real fsync). Prints commits per second and fsyncs per commit.
 *
 *   npm run embedded-fsync --workspace @mostrador/bench        # COMMITS=1000 for another size
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DurableNodeFS, durableStartParams } from '../apps/server/src/db/durable-nodefs.mjs';

const COMMITS = Number(process.env.COMMITS ?? 500);
console.log(`\n${COMMITS} single-row commits on a file-backed PGlite (node ${process.version}, ${tmpdir()})`);
for (const durable of [false, true]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-fsync-'));
  const fs = new DurableNodeFS(dir);
  const db = await PGlite.create({ fs, ...(durable ? { startParams: durableStartParams } : {}) });
  await db.exec('create table webhook_events (id serial primary key, body jsonb not null, received_at timestamptz default now())');
  const syncs = fs.syncs;
  const t0 = performance.now();
  for (let i = 0; i < COMMITS; i++) await db.query('insert into webhook_events (body) values ($1)', [{ entry: [{ id: String(i), text: 'Hola, consulta '.repeat(10) }] }]);
  const seconds = (performance.now() - t0) / 1000;
  const fsync = (await db.query<{ fsync: string }>('show fsync')).rows[0].fsync;
  console.log(`${durable ? 'durable (product)' : 'PGlite as it comes'}  fsync=${fsync}  ${Math.round(COMMITS / seconds)} commits/s  ${((fs.syncs - syncs) / COMMITS).toFixed(2)} fsyncs/commit`);
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
