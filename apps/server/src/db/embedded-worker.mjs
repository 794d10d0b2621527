// Runs PGlite in a worker thread behind pglite-socket, so the API's event loop never
// blocks on a query and the server talks `pg` exactly as it does to PostgreSQL.
import { readFile, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, host = '127.0.0.1', port = 0, loadFrom } = workerData;

try {
  // pg_trgm: the trigram indexes that make list searches (ILIKE '%…%') fast, as on PostgreSQL
  // loadFrom: a data directory dumped earlier (the test suite's migrated and seeded template)
  const loadDataDir = loadFrom ? new Blob([await readFile(loadFrom)]) : undefined;
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm }, loadDataDir });
  const server = new PGLiteSocketServer({ db, host, port, maxConnections: 4 });
  await server.start();
  const [, actualPort] = server.getServerConn().split(':');
  parentPort.postMessage({ type: 'ready', host, port: Number(actualPort) });
  parentPort.on('message', async (msg) => {
    if (msg?.type === 'dump') {
      try {
        const tar = await db.dumpDataDir('none');
        await writeFile(msg.file, Buffer.from(await tar.arrayBuffer()));
        parentPort.postMessage({ type: 'dumped' });
      } catch (error) {
        parentPort.postMessage({ type: 'dumped', message: String(error?.stack ?? error) });
      }
      return;
    }
    if (msg?.type !== 'stop') return;
    try {
      await server.stop();
      await db.close();
    } finally {
      parentPort.postMessage({ type: 'stopped' });
    }
  });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: String(error?.stack ?? error) });
}
