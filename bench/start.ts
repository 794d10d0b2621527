import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { boot } from '../apps/server/src/boot.js';
import { loadConfig } from '../apps/server/src/config.js';

/**
 * The product as a benchmark runs it: a fresh in-memory PGlite (or DATABASE_URL), the demo
 * tenant seeded, listening on a free port, and the demo admin signed in. `work`: this
 * process also runs the queue's jobs (the webhook benchmark); `env`: settings over the defaults.
 */
export async function startBench({ work = false, env = {} }: { work?: boolean; env?: Record<string, string> } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mostrador-bench-'));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-bench',
    PORT: '0',
    LOG_LEVEL: 'silent',
    // a benchmark measures the work, not the per-address limits (decision 0004): all from 127.0.0.1, far above them
    RATE_LIMIT_PUBLIC_READS: '100000000',
    RATE_LIMIT_PUBLIC_WRITES: '100000000',
    RATE_LIMIT_WEBHOOKS: '100000000',
    ...env,
  });
  const booted = await boot({ config, logger: false, work, dataDir: config.databaseUrl ? dataDir : 'memory://' });
  const address = await booted.app.listen({ port: 0, host: '127.0.0.1' });
  const { token, user } = await signIn(address);
  return { booted, address, token, user };
}

/** The demo admin signed in again (an access token lives 15 minutes: a long benchmark renews it). */
export async function signIn(address: string) {
  const login = await fetch(`${address}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.com', password: 'demo1234', corporation: 'demo' }),
  });
  return (await login.json()) as { token: string; user: { companyId: string } };
}

/** A fresh company of the demo corporation with the demo admin as its admin: each benchmark fills its own. */
export async function benchCompany(booted: Awaited<ReturnType<typeof startBench>>['booted'], name: string): Promise<string> {
  const { pool } = booted.database;
  const {
    rows: [company],
  } = await pool.query<{ id: string }>(
    `insert into companies (corporation_id, name, country)
     select id, $1 || ' ' || now()::text, 'PE' from corporations where slug = 'demo' returning id`,
    [name],
  );
  await pool.query(`insert into memberships (company_id, user_id, role, is_default) select $1, id, 'admin', false from users where email = 'admin@demo.com'`, [
    company.id,
  ]);
  return company.id;
}

/**
 * A bench request that gets no answer within `ms` fails naming itself, instead of the bench
 * waiting forever (seen once in stop 28, before a burst: which call it was could not be told).
 */
export function failUnansweredFetches(ms = 120_000) {
  const raw = globalThis.fetch;
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    try {
      return await raw(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(ms) });
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      throw new Error(`sin respuesta en ${ms / 1000} s: ${init?.method ?? 'GET'} ${String(input)}`, { cause: error });
    }
  }) as typeof fetch;
}
