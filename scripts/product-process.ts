// The product run as an operator runs it: `npm start` as a child process on a port of its own
// (and a database of its own), stopped with a signal. Shared by the server test of stopping (apps/server/test/stop.test.ts)
// and the production check CI runs (scripts/check-production.ts).
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';

/**
 * Reads until `ok` holds — work a job or a fake finishes later — and answers the value; after
 * `ms` fails naming `what` and the last value read.
 */
export async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000, what = 'la espera'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`no se cumplió a tiempo: ${what} (${JSON.stringify(value)?.slice(0, 2000)})`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A new PostgreSQL database beside `adminUrl` (a copy of `template` when given): its name, URL and what drops it. */
export async function createDatabase(adminUrl: string, prefix: string, template?: string) {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Every process below `pid` (from /proc), so a test can tell none outlived the stop. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // the parent is the 4th field of /proc/<pid>/stat, after the command in parentheses
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)?.push(Number(entry));
    } catch {
      // the process ended while we read
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** Whether something accepts connections on the port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * `npm <args>` (default `npm start`) in `cwd` with `env` on top of this process's, on `port`.
 * `ready()` waits until /api/health answers 200 (or the process ends: then it throws with its output).
 */
export function startProduct({ cwd, env = {}, port, args = ['start'] }: { cwd: string; env?: Record<string, string>; port: number; args?: string[] }) {
  const child = spawn('npm', args, {
    cwd,
    env: { ...process.env, INIT_CWD: cwd, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    base,
    exited,
    output: () => output,
    /** How many requests to `url` the server has logged as arriving (its log at LOG_LEVEL info). */
    received: (url: string) => output.split('\n').filter((l) => l.includes(`"url":"${url}"`) && l.includes('"msg":"incoming request"')).length,
    async ready(timeoutMs = 180_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      let ended = false;
      exited.then(() => (ended = true));
      while (Date.now() < deadline) {
        if (ended) throw new Error(`el producto terminó antes de estar listo:\n${output}`);
        const status = await fetch(`${base}/api/health`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) return;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`el producto no respondió /api/health en ${timeoutMs} ms:\n${output}`);
    },
    /**
     * Sends `signal` to the npm process and waits for it to end: its exit, how long it took from the
     * signal to npm's exit (and the server's own drain), and which processes below it outlived it.
     */
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const tree = descendantsOf(child.pid as number);
      const started = performance.now();
      child.kill(signal);
      const exit = await exited;
      const drainMs = Math.round(performance.now() - started);
      // a helper process (tsx's esbuild service) ends when its parent's pipe closes, a moment after it
      const deadline = Date.now() + 5000;
      while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const survivors = tree.filter(alive).map((pid) => `${pid} ${commandOf(pid)}`);
      // the server's own figure, from its log: signal to everything closed, before node and npm exit
      const serverDrainMs = Number(/"drainMs":(\d+)/.exec(output)?.[1] ?? Number.NaN);
      return { ...exit, drainMs, serverDrainMs, tree, survivors };
    },
  };
}

/**
 * A request still in flight: its headers and the first half of its JSON body go now, the rest
 * when `finish()` is called; `finish()` answers the response's status and body. Its connection
 * is kept alive as a browser keeps it (no timeout of its own): the server must close it.
 */
export function requestInTwoParts(base: string, path: string, payload: unknown, headers: Record<string, string> = {}) {
  const body = Buffer.from(JSON.stringify(payload));
  const half = Math.floor(body.length / 2);
  const agent = new http.Agent({ keepAlive: true });
  const req = http.request(`${base}${path}`, {
    agent,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers },
  });
  const response = new Promise<{ status?: number; body: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
    });
    req.once('error', reject);
  });
  // headers and half the body now: the server has taken the request and waits for the rest
  req.flushHeaders();
  req.write(body.subarray(0, half));
  return {
    finish() {
      req.end(body.subarray(half));
      return response;
    },
  };
}

/** An open stream of GET `path` (Server-Sent Events): `ended` settles when the server ends it. */
export function openStream(base: string, path: string, headers: Record<string, string>): Promise<{ ended: Promise<'ended'> }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${path} respondió ${res.statusCode}`));
      const ended = new Promise<'ended'>((r) => {
        res.once('end', () => r('ended'));
        res.once('close', () => r('ended'));
      });
      res.resume();
      resolve({ ended });
    });
    req.once('error', reject);
  });
}
