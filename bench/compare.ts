/**
 * Side-by-side figures (issue 10, decision 0023): an HTTP call under autocannon against the
 * very SQL statements it issues, captured from the server's pool during one call and replayed
 * by pgbench with the same parameters, in the same run, on the same database.
 *
 * autocannon runs in its own process (the CLI), so the load generator does not share the
 * server's event loop; pgbench runs `-n -c 10 -j 2 -T <s> -f <file>`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = 10;

export interface Captured {
  text: string;
  values: unknown[];
}

/** The statements the server's pool runs while `work` runs (text and parameters). */
export async function capture(pool: pg.Pool, work: () => Promise<unknown>): Promise<Captured[]> {
  const seen: Captured[] = [];
  const original = pool.query;
  pool.query = function (this: pg.Pool, ...args: unknown[]) {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
    if (typeof first === 'string') seen.push({ text: first, values: Array.isArray(second) ? second : [] });
    else seen.push({ text: first.text, values: first.values ?? (Array.isArray(second) ? second : []) });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pool.query;
  try {
    await work();
  } finally {
    pool.query = original;
  }
  return seen;
}

/**
 * Every statement any connection of the pool runs while `work` runs, transactions' own
 * included (`capture` sees only `pool.query`): the client's query method is wrapped.
 */
export async function captureAll(work: () => Promise<unknown>): Promise<Captured[]> {
  const seen: Captured[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
    if (typeof first === 'string') seen.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first.text === 'string') seen.push({ text: first.text, values: first.values ?? (Array.isArray(second) ? second : []) });
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return seen;
}

/** A SQL literal of a parameter, as pg would send it. */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Date) return `'${v.toISOString()}'`;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `'{${v.map((x) => `"${String(x).replace(/["\\]/g, '\\$&')}"`).join(',')}}'`;
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return `'${s.replace(/'/g, "''")}'`;
}

/** The statement with its parameters inlined ($10 before $1). */
export function inline({ text, values }: Captured): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1])).replace(/\s+/g, ' ').trim();
}

export interface Rate {
  rps: number;
  p50: number;
  p99: number;
  avg: number;
  errors: number;
}

/**
 * The load generator: autocannon (node, in its own process), or wrk (C, one thread) with
 * `LOADGEN=wrk` when it is installed (`apt-get install wrk`). On 2 cores the generator shares
 * the CPU with node and PostgreSQL: autocannon takes most of a core at 5,000 req/s, wrk a
 * fraction of one, as pgbench's own client does, so wrk's figure is nearer what the server alone
 * can do.
 */
export const LOADGEN = process.env.LOADGEN === 'wrk' ? 'wrk' : 'autocannon';

/** The load generator at 10 connections. */
export async function cannon(url: string, headers: Record<string, string> = {}, request: { method?: string; body?: string; connections?: number } = {}): Promise<Rate> {
  if (LOADGEN === 'wrk') return wrk(url, headers, request);
  const args = ['-c', String(request.connections ?? CONNECTIONS), '-d', String(DURATION), '-j'];
  if (request.method) args.push('-m', request.method);
  if (request.body) args.push('-b', request.body);
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  const bin = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');
  const { stdout } = await run(bin, args, { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number; average: number };
    non2xx: number;
    errors: number;
  };
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, avg: r.latency.average, errors: r.non2xx + r.errors };
}

/** wrk (C, own process, one thread) at 10 connections: method, body and headers through its Lua script. */
async function wrk(url: string, headers: Record<string, string>, request: { method?: string; body?: string; connections?: number }): Promise<Rate> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-wrk-'));
  const script = path.join(dir, 'request.lua');
  const lua = (v: string) => JSON.stringify(v);
  const lines = [`wrk.method = ${lua(request.method ?? 'GET')}`];
  if (request.body) lines.push(`wrk.body = ${lua(request.body)}`);
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[${lua(k)}] = ${lua(v)}`);
  writeFileSync(script, `${lines.join('\n')}\n`);
  const connections = request.connections ?? CONNECTIONS;
  const { stdout } = await run('wrk', ['-t', '1', '-c', String(connections), '-d', `${DURATION}s`, '--latency', '-s', script, url], { maxBuffer: 16 * 1024 * 1024 });
  const ms = (label: string) => {
    const m = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)\\b`, 'm').exec(stdout);
    if (!m) return Number.NaN;
    const n = Number(m[1]);
    return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
  };
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0) + [...stdout.matchAll(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/g)].reduce((n, m) => n + Number(m[1]) + Number(m[2]) + Number(m[3]) + Number(m[4]), 0);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0), p50: ms('50%'), p99: ms('99%'), avg: ms('Latency'), errors };
}

/**
 * pgbench of a script of statements (one transaction = one request's statements), parameters
 * inlined. `simple`: parsed and planned on every run (pgbench's default, as the brief asks);
 * `prepared`: planned once per connection, as the server's named statements are.
 */
export async function pgbench(databaseUrl: string, statements: string[], mode: 'simple' | 'prepared' = 'simple'): Promise<Rate> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-pgbench-'));
  const file = path.join(dir, 'request.sql');
  // pgbench reads one statement per line (a backslash command or SQL ending in ;)
  writeFileSync(file, `${statements.map((s) => (s.startsWith('\\') ? s : `${s};`)).join('\n')}\n`);
  const url = new URL(databaseUrl);
  // the same way in as the server's pool: a Unix socket's folder (`?host=/var/run/postgresql`) or TCP
  const host = url.searchParams.get('host') ?? url.hostname;
  const args = ['-n', '-M', mode, '-c', String(CONNECTIONS), '-j', '2', '-T', String(DURATION), '-f', file, '-h', host, '-p', url.port || '5432', '-U', url.username || 'postgres', url.pathname.slice(1)];
  const { stdout } = await run('pgbench', args, { maxBuffer: 16 * 1024 * 1024 });
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? /tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const avg = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? 0);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  return { rps: tps, p50: Number.NaN, p99: Number.NaN, avg, errors: failed };
}

export interface Row {
  title: string;
  http?: Rate;
  sql?: Rate;
  prepared?: Rate;
  queries?: number;
  note?: string;
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));

/** The table: req/s and latency of the call, its statements per call, pgbench tps of them, and the ratio. */
export function printTable(rows: Row[]) {
  const head = ['', 'HTTP req/s', 'p50 ms', 'p99 ms', 'queries/req', 'pgbench tps', 'pgbench ms', 'HTTP/pgbench', 'pgbench -M prepared tps', 'HTTP/prepared'];
  const body = rows.map((r) => [
    r.title,
    fmt(r.http?.rps),
    fmt(r.http?.p50, 1),
    fmt(r.http?.p99, 1),
    r.queries === undefined ? '–' : String(r.queries),
    fmt(r.sql?.rps),
    fmt(r.sql?.avg, 2),
    r.http && r.sql?.rps ? `${((100 * r.http.rps) / r.sql.rps).toFixed(0)} %` : (r.note ?? '–'),
    fmt(r.prepared?.rps),
    r.http && r.prepared?.rps ? `${((100 * r.http.rps) / r.prepared.rps).toFixed(0)} %` : '–',
  ]);
  console.log(`HTTP load by ${LOADGEN}`);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const b of body) console.log(line(b));
  for (const r of rows) if ((r.http?.errors ?? 0) > 0 || (r.sql?.errors ?? 0) > 0) console.log(`  ${r.title}: ${r.http?.errors ?? 0} HTTP errors, ${r.sql?.errors ?? 0} pgbench failures`);
}

/**
 * One target: its statements captured during one call (after a warm-up call), then
 * autocannon on the call and pgbench on the statements, one after the other.
 */
export async function measure(
  pool: pg.Pool,
  databaseUrl: string | undefined,
  title: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<Row> {
  const call = async () => {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${title}: ${res.status}`);
  };
  try {
    await call();
  } catch (error) {
    return { title, note: `n/a (${(error as Error).message})` };
  }
  // calls still running from the previous target (autocannon leaves them behind) would be
  // captured too: wait for an idle pool, and keep the fewest statements of three calls
  while (pool.totalCount > pool.idleCount || pool.waitingCount > 0) await new Promise((r) => setTimeout(r, 50));
  const tries = [await capture(pool, call), await capture(pool, call), await capture(pool, call)];
  const statements = tries.reduce((a, b) => (b.length < a.length ? b : a));
  const http = await cannon(url, headers);
  const sql = databaseUrl ? await pgbench(databaseUrl, statements.map(inline)) : undefined;
  const prepared = databaseUrl ? await pgbench(databaseUrl, statements.map(inline), 'prepared') : undefined;
  return { title, http, sql, prepared, queries: statements.length };
}
