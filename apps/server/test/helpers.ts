import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoginResponse } from '@mostrador/contract';
import type pg from 'pg';
import { inject } from 'vitest';
import { type Booted, boot } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import { inviteStatement } from '../src/modules/corporations/invites.js';
import { createDatabase } from '../../../scripts/product-process.js';

export { until } from '../../../scripts/product-process.js';

export const JWT_SECRET = 'test-secret-test-secret-test-secret-test-secret';

export interface TestApp extends Booted {
  /** Which database the suite runs on: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set. */
  kind: 'pglite' | 'postgres';
  sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
}

/**
 * On PostgreSQL (TEST_DATABASE_URL), a new database beside it, copied from the suite's migrated
 * and seeded template (test/template.ts), and what drops it; on PGlite, no URL and nothing to drop.
 */
export async function createTestDatabase(): Promise<{ databaseUrl?: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { drop: async () => {} };
  const template = inject('dbTemplate');
  const { url, drop } = await createDatabase(adminUrl, 'mostrador_test', template?.kind === 'postgres' ? template.name : undefined);
  return { databaseUrl: url, drop };
}

/**
 * A fresh product on a fresh database: in-memory PGlite, or a new PostgreSQL database created
 * beside TEST_DATABASE_URL and dropped afterwards. Migrated and seeded with the demo tenant.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const template = inject('dbTemplate');
  const { databaseUrl, drop: dropDatabase } = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mostrador-test-'));
  const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const loadFrom = !databaseUrl && template?.kind === 'pglite' ? template.file : undefined;
  const booted = await boot({ config, logger: false, work: true, databaseUrl, dataDir: databaseUrl ? dataDir : 'memory://', loadFrom });
  return {
    ...booted,
    kind: databaseUrl ? 'postgres' : 'pglite',
    async sql(text, values) {
      const { rows } = await booted.database.pool.query(text, values);
      return rows;
    },
    async close() {
      await booted.close();
      await dropDatabase();
    },
  };
}

export const demo = {
  admin: { email: 'admin@demo.com', password: 'demo1234', corporation: 'demo' },
  agent: { email: 'agente@demo.com', password: 'demo1234', corporation: 'demo' },
  acme: { email: 'admin@acme.com', password: 'demo1234', corporation: 'acme' },
};

export interface Signed {
  token: string;
  cookie: string;
  user: LoginResponse['user'];
  /** Company id by name, from the user's memberships. */
  company(name: string): string;
}

export function cookieOf(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

export async function login(t: TestApp, who: { email: string; password: string; corporation: string }): Promise<Signed> {
  const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: who });
  if (res.statusCode !== 200) throw new Error(`login failed ${res.statusCode} ${res.body}`);
  const body = res.json() as LoginResponse;
  return {
    token: body.token,
    cookie: cookieOf(res.headers['set-cookie']),
    user: body.user,
    company(name) {
      const m = body.user.corporation.companies.find((c) => c.company.name === name);
      if (!m) throw new Error(`no membership in ${name}`);
      return m.company._id;
    },
  };
}

/** Headers of an authenticated call in a company. */
export function as(s: Signed, companyId = s.user.companyId) {
  return { authorization: `Bearer ${s.token}`, 'x-company-id': companyId };
}

/** A registration link's token, as `npm run invite` makes one. */
export async function inviteToken(t: TestApp, expiresInMinutes = 60): Promise<string> {
  const { secret, sql } = inviteStatement(expiresInMinutes, 'test');
  await t.sql(sql);
  return secret;
}


/** A stand-in SPA build (WEB_DIST), so `npm start` does not run vite in the server suite. */
export function fakeWebDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Mostrador</title>');
  writeFileSync(path.join(dir, 'shop.html'), '<!doctype html><title>Tienda</title>');
  return dir;
}
