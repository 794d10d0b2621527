/**
 * What authentication costs per request: every authenticated call checks its session and
 * membership in the database (so revocation is immediate). Prints latency and throughput of
 * an authenticated no-op (`GET /api/auth`), of `GET /api/health` (no auth) for comparison,
 * and of `POST /api/login` (argon2id-bound), on PGlite, or on PostgreSQL with DATABASE_URL.
 *
 *   npm run auth --workspace @mostrador/bench            # PGlite (in memory)
 *   DATABASE_URL=postgres://… npm run auth --workspace @mostrador/bench
 */
import autocannon from 'autocannon';
import { startBench } from './start.js';

const { booted, address, token, user } = await startBench();

async function run(title: string, opts: autocannon.Options) {
  const r = await autocannon({ connections: 10, duration: 5, ...opts });
  console.log(
    `${title.padEnd(34)} p50 ${String(r.latency.p50).padStart(5)} ms  p99 ${String(r.latency.p99).padStart(5)} ms  ${Math.round(r.requests.average)
      .toString()
      .padStart(6)} req/s  errors ${r.non2xx + r.errors}`,
  );
}

console.log(`Mostrador auth bench on ${booted.database.kind} (node ${process.version}, 10 connections, 5 s each)`);
await run('GET /api/health (no auth)', { url: `${address}/api/health` });
await run('GET /api/auth (token+session+perm)', {
  url: `${address}/api/auth?module=users&action=list`,
  headers: { authorization: `Bearer ${token}`, 'x-company-id': user.companyId },
});
await run('POST /api/login (argon2id)', {
  url: `${address}/api/login`,
  method: 'POST',
  connections: 4,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'agente@demo.com', password: 'demo1234', corporation: 'demo' }),
});
await booted.close();
