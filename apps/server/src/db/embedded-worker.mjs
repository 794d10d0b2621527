// Runs PGlite in a worker thread behind pglite-socket, so the API's event loop never
// blocks on a query and the server talks `pg` exactly as it does to PostgreSQL.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DurableNodeFS, durableStartParams } from './durable-nodefs.mjs';

const { dataDir, host = '127.0.0.1', port = 0, loadFrom, password } = workerData;

const PROTOCOL_3 = 196608;
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
/** AuthenticationCleartextPassword: loopback only, where reading it takes root, who reads the key file anyway. */
const ASK_PASSWORD = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);
const digest = (b) => createHash('sha256').update(b).digest();

/** A FATAL ErrorResponse with SQLSTATE `code`, as PostgreSQL refuses a login. */
function fatal(code, message) {
  const fields = Buffer.concat([
    ...['SFATAL', 'VFATAL', `C${code}`, `M${message}`].map((f) => Buffer.from(`${f}\0`)),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head[0] = 0x45;
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}

/**
 * Reads a client's startup and asks for the password before PGlite sees a byte (decision 0064):
 * pglite-socket has no authentication, and PGlite trusts whoever reaches the socket. Resolves
 * with the bytes to hand on (the startup message) once the password matched; null when it did not.
 */
function authenticate(socket, expected) {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    let startup = null;
    const finish = (result, reply) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onGone);
      socket.off('close', onGone);
      if (!result) {
        if (reply && socket.writable) socket.end(reply);
        else socket.destroy();
      }
      resolve(result);
    };
    const onGone = () => finish(null);
    const timer = setTimeout(() => finish(null, fatal('08P01', 'sin autenticación en 10 s')), 10_000);
    const onData = (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!startup) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          const code = buffer.readInt32BE(4);
          if (length < 8 || length > 10_000) return finish(null);
          if (buffer.length < length) return;
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          // no TLS on loopback: the client goes on in the clear, as psql does with sslmode=prefer
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write('N');
            continue;
          }
          // a CancelRequest (PGlite cannot cancel) or anything else: nothing to do with it
          if (code !== PROTOCOL_3) return finish(null);
          startup = Buffer.from(message);
          socket.write(ASK_PASSWORD);
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer[0] !== 0x70 || length < 5 || length > 10_000) return finish(null, fatal('28P01', 'la base de datos embebida pide su contraseña (DATA_DIR/embedded.key)'));
        if (buffer.length < 1 + length) return;
        const given = buffer.subarray(5, length).toString('utf8').replace(/\0$/, '');
        const rest = buffer.subarray(1 + length);
        if (!timingSafeEqual(digest(given), digest(expected))) {
          return finish(null, fatal('28P01', 'la contraseña de la base de datos embebida no es válida (DATA_DIR/embedded.key)'));
        }
        return finish(Buffer.concat([startup, rest]));
      }
    };
    socket.on('data', onData);
    socket.on('error', onGone);
    socket.on('close', onGone);
  });
}

/** pglite-socket's server with the password asked first; then its own handler takes the connection. */
class PasswordSocketServer extends PGLiteSocketServer {
  // pinned @electric-sql/pglite-socket 0.2.17: every accepted socket goes through handleConnection
  async handleConnection(socket) {
    const accepted = await authenticate(socket, password);
    if (!accepted) return;
    socket.pause();
    socket.unshift(accepted);
    const attached = super.handleConnection(socket);
    // the handler listens to 'data' by now: what the client sent waits in the stream until resumed
    socket.resume();
    await attached;
  }
}

try {
  // pg_trgm: the trigram indexes that make list searches (ILIKE '%…%') fast, as on PostgreSQL
  // loadFrom: a data directory dumped earlier (the test suite's migrated and seeded template)
  const loadDataDir = loadFrom ? new Blob([await readFile(loadFrom)]) : undefined;
  // on disk: a commit is on the disk before it is acknowledged (decision 0064); in memory there is no disk
  const durable = dataDir !== 'memory://' ? { fs: new DurableNodeFS(dataDir), startParams: durableStartParams } : { dataDir };
  const db = await PGlite.create({ ...durable, extensions: { pg_trgm }, loadDataDir });
  const server = new PasswordSocketServer({ db, host, port, maxConnections: 4 });
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
