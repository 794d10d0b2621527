/**
 * What authentication costs per request. Every authenticated call reads its session, user,
 * membership and the role's permissions in ONE statement (decision 0023: nothing cached
 * across requests, so revocation is immediate). Prints, side by side in one run: an
 * authenticated no-op (`GET /api/auth`) and `GET /api/health` (no auth, `select 1`) under
 * autocannon (10 connections, its own process) with the statements each issued, the same
 * statements with the same parameters under pgbench (PostgreSQL only), and `POST /api/login`
 * (argon2id-bound).
 *
 *   npm run auth --workspace @mostrador/bench            # PGlite (in memory), no pgbench
 *   DATABASE_URL=postgres://… npm run auth --workspace @mostrador/bench
 */
import { cannon, measure, printTable } from './compare.js';
import { startBench } from './start.js';

const { booted, address, token, user } = await startBench();
const { pool } = booted.database;
const databaseUrl = booted.database.kind === 'postgres' ? process.env.DATABASE_URL : undefined;

console.log(`Mostrador auth bench on ${booted.database.kind} (node ${process.version}, 10 connections, ${process.env.BENCH_SECONDS ?? 10} s each)`);
const rows = [
  await measure(pool, databaseUrl, 'GET /api/health (select 1, no auth)', `${address}/api/health`),
  await measure(pool, databaseUrl, 'GET /api/auth (token+session+perm)', `${address}/api/auth?module=users&action=list`, {
    authorization: `Bearer ${token}`,
    'x-company-id': user.companyId,
  }),
];
const login = await cannon(
  `${address}/api/login`,
  { 'content-type': 'application/json' },
  { method: 'POST', connections: 4, body: JSON.stringify({ email: 'agente@demo.com', password: 'demo1234', corporation: 'demo' }) },
);
rows.push({ title: 'POST /api/login (argon2id, 4 conns)', http: login, note: 'argon2id' });
printTable(rows);
await booted.close();
