/**
 * A load generator in its own process (as compare.ts runs autocannon: it does not share the
 * server's event loop) for calls that differ from one request to the next — a chat each, a
 * signed notification each — which autocannon's CLI cannot send: `connections` keep-alive
 * connections, each taking the next request of the list; every request once, or the list over
 * and over for `seconds`. Answers the rate, the latencies and the statuses it saw.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Fired {
  count: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  statuses: Record<string, number>;
}

/** Fires `calls` at `origin` from a child process; `seconds`: repeat the list that long, else each call once. */
export function fire(origin: string, calls: Call[], o: { connections?: number; seconds?: number } = {}): Promise<Fired> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-loadgen-'));
  const file = path.join(dir, 'calls.json');
  writeFileSync(file, JSON.stringify({ origin, calls, connections: o.connections ?? 10, seconds: o.seconds }));
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url), ['--child', file], { execArgv: ['--import', 'tsx'] });
    child.once('message', (m) => resolve(m as Fired));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code) reject(new Error(`loadgen: salió con ${code}`));
    });
  });
}

async function child(file: string) {
  const { origin, calls, connections, seconds } = JSON.parse(readFileSync(file, 'utf8')) as { origin: string; calls: Call[]; connections: number; seconds?: number };
  const url = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const one = (c: Call) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, method: c.method, path: c.path, headers: c.headers, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(c.body);
    });
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  const t0 = performance.now();
  const until = seconds ? t0 + seconds * 1000 : Number.POSITIVE_INFINITY;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (;;) {
        if (seconds ? performance.now() >= until : next >= calls.length) return;
        const c = calls[next++ % calls.length];
        const start = performance.now();
        const status = await one(c).catch(() => 0);
        times.push(performance.now() - start);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  const q = (x: number) => times[Math.min(times.length - 1, Math.floor(x * times.length))] ?? Number.NaN;
  const result: Fired = { count: times.length, seconds: elapsed, rps: times.length / elapsed, p50: q(0.5), p95: q(0.95), p99: q(0.99), statuses };
  process.send?.(result, () => process.exit(0));
}

if (process.argv[2] === '--child') await child(process.argv[3]);
