/**
 * What the contract fuzz and the tenant matrix share: the app's routes as Fastify registered them
 * (with their zod schemas), company fingerprints for "nothing was written", and the findings file.
 *
 * Routes are captured by an `onRoute` hook added to every Fastify instance the app creates: the
 * test file mocks `fastify` with `captureFastify` (vi.mock must sit in the test file itself).
 */
import { appendFileSync } from 'node:fs';
import { type Resource, resourceList, tableNameOf } from '@mostrador/contract';
import type { FastifyError, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { TestApp } from '../helpers.js';

export interface CapturedRoute {
  method: string;
  url: string;
  schema: { params?: z.ZodType; querystring?: z.ZodType; body?: z.ZodType };
  isPublic: boolean;
  /** 5xx statuses the route declares as an answer of its own (readiness' 503 when not ready), not a crash. */
  declared5xx: number[];
  /** The standard resource whose generic route this is, and its operation. */
  resource?: Resource;
  operation?: 'list' | 'get' | 'create' | 'update' | 'delete';
}

export interface Capture {
  routes: RouteOptions[];
  /** The last unhandled error per request id: the stack of a 5xx. */
  errors: Map<string, Error>;
}

/** Wraps Fastify's factory so every instance reports its routes and errors to `capture`. */
export function captureFastify(mod: typeof import('fastify'), capture: Capture) {
  const factory = mod.default as unknown as (opts?: object) => FastifyInstance;
  const wrapped = Object.assign((opts?: object) => {
    const app = factory(opts);
    app.addHook('onRoute', (r) => {
      capture.routes.push(r);
    });
    app.addHook('onError', async (request: FastifyRequest, _reply, error: FastifyError) => {
      capture.errors.set(request.id, error);
    });
    return app;
  }, factory);
  return { ...mod, default: wrapped, fastify: wrapped };
}

/** Routes a client calls: the API's, without the docs, the SSE stream and HEAD twins. */
export function apiRoutes(capture: Capture): CapturedRoute[] {
  const out: CapturedRoute[] = [];
  const seen = new Set<string>();
  for (const r of capture.routes) {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      if (!r.url.startsWith('/api/') || r.url.startsWith('/api/docs')) continue;
      // a server-sent events stream never ends: inject would wait for ever
      if (r.url === '/api/events') continue;
      const key = `${method} ${r.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const schema = (r.schema ?? {}) as CapturedRoute['schema'];
      const route: CapturedRoute = {
        method,
        url: r.url,
        schema: {
          params: schema.params,
          querystring: schema.querystring,
          body: schema.body,
        },
        isPublic: Boolean((r.config as { public?: boolean } | undefined)?.public),
        declared5xx: Object.keys((schema as { response?: object }).response ?? {})
          .map(Number)
          .filter((n) => n >= 500),
      };
      for (const resource of resourceList) {
        const base = `/api/${resource.path}`;
        if (r.url === base && method === 'GET') Object.assign(route, { resource, operation: 'list' });
        if (r.url === base && method === 'POST') Object.assign(route, { resource, operation: 'create' });
        if (r.url === `${base}/:id` && method === 'GET') Object.assign(route, { resource, operation: 'get' });
        if (r.url === `${base}/:id` && method === 'PUT') Object.assign(route, { resource, operation: 'update' });
        if (r.url === `${base}/:id` && method === 'DELETE') Object.assign(route, { resource, operation: 'delete' });
      }
      out.push(route);
    }
  }
  return out;
}

export const paramNames = (url: string) => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);

// ---------------------------------------------------------------------------------------------
// Fingerprints

export interface TenantTable {
  name: string;
  /** The column that says whose a row is. */
  owner: 'company_id' | 'corporation_id' | 'id';
}

/** Every table holding rows of a company (or of its corporation), read from the database. */
export async function tenantTables(t: TestApp): Promise<TenantTable[]> {
  const rows = await t.sql<{ table_name: string; column_name: string }>(
    `select c.table_name, c.column_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = 'public' and c.column_name in ('company_id', 'corporation_id')
        -- the spine's outbox (decision 0068): its rows are written by the changes of the tables
        -- checked here, in their transactions, and marked delivered by the dispatcher on its own clock
        and c.table_name <> 'domain_events'
        -- the audit log (decision 0072) records attempts too (a failed sign-in is a 401 with its
        -- row, by design); test/audit-log.test.ts checks that a refused write leaves no row
        and c.table_name <> 'audit_log'
      order by c.table_name`,
  );
  const byTable = new Map<string, Set<string>>();
  for (const r of rows) (byTable.get(r.table_name) ?? byTable.set(r.table_name, new Set()).get(r.table_name))?.add(r.column_name);
  const out: TenantTable[] = [];
  for (const [name, cols] of byTable)
    out.push({
      name,
      owner: cols.has('company_id') ? 'company_id' : 'corporation_id',
    });
  out.push({ name: 'companies', owner: 'id' });
  return out;
}

/**
 * Per table: row count and a hash of the full rows of the company (its corporation for
 * corporation-wide tables). Equal fingerprints: not one byte of those rows changed.
 */
export async function fingerprint(
  t: TestApp,
  tables: TenantTable[],
  owner: { companyId: string; corporationId: string },
): Promise<Record<string, string>> {
  if (!tables.length) return {};
  const parts = tables.map((tb) => {
    const value = tb.owner === 'corporation_id' ? '$2' : '$1';
    return `select '${tb.name}' as t, count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h
              from "${tb.name}" x where x.${tb.owner}::text = ${value}::text`;
  });
  const text = parts.join(' union all ');
  const values = text.includes('$2') ? [owner.companyId, owner.corporationId] : [owner.companyId];
  const rows = await t.sql<{ t: string; n: number; h: string }>(text.includes('$1') ? text : `${text} and $1::text is not null`, values);
  return Object.fromEntries(rows.map((r) => [r.t, `${r.n}:${r.h}`]));
}

/**
 * Every row written in the tenant tables, noted by a trigger as it happens: what a 4xx must not
 * leave behind. A write rolled back is no note (the note rolls back with it), an update that
 * changes nothing is none either. Far cheaper than hashing a company's rows around each request,
 * so the fuzz and the tenant matrix check every request; the fingerprint stays for the final
 * "another corporation byte-identical" check.
 */
export async function watchWrites(t: TestApp, tables: TenantTable[]) {
  await t.sql('create unlogged table if not exists test_row_writes (tbl text not null, owner text)');
  await t.sql(`create or replace function test_note_write() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        insert into test_row_writes values (tg_table_name, to_jsonb(old) ->> tg_argv[0]);
      elsif tg_op = 'INSERT' then
        insert into test_row_writes values (tg_table_name, to_jsonb(new) ->> tg_argv[0]);
      elsif to_jsonb(old) is distinct from to_jsonb(new) then
        insert into test_row_writes values (tg_table_name, to_jsonb(new) ->> tg_argv[0]), (tg_table_name, to_jsonb(old) ->> tg_argv[0]);
      end if;
      return null;
    end $$`);
  for (const tb of tables) {
    await t.sql(`drop trigger if exists test_watch on "${tb.name}"`);
    await t.sql(
      `create trigger test_watch after insert or update or delete on "${tb.name}" for each row execute function test_note_write('${tb.owner}')`,
    );
  }
  return {
    /** The tables written for the owner since the last call (and forgets every note). */
    async since(owner: { companyId: string; corporationId: string }): Promise<string[]> {
      const rows = await t.sql<{ tbl: string; owner: string | null }>('delete from test_row_writes returning tbl, owner');
      return [...new Set(rows.filter((r) => r.owner === owner.companyId || r.owner === owner.corporationId).map((r) => r.tbl))].sort();
    },
    /**
     * The tables written for the owner since the last call, forgetting only the owner's notes: the
     * tenant matrix asks it for the other corporation after every request (none may ever be
     * written from A), while A's notes stay for `since`.
     */
    async of(owner: { companyId: string; corporationId: string }): Promise<string[]> {
      const rows = await t.sql<{ tbl: string }>('delete from test_row_writes where owner = any($1) returning tbl', [
        [owner.companyId, owner.corporationId],
      ]);
      return [...new Set(rows.map((r) => r.tbl))].sort();
    },
  };
}

export type WriteWatch = Awaited<ReturnType<typeof watchWrites>>;

export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
}

/** The table of a standard resource. */
export const tableOf = (r: Resource) => tableNameOf(r.key);

// ---------------------------------------------------------------------------------------------
// Findings

export const FINDINGS = process.env.FUZZ_FINDINGS ?? '/tmp/fuzz-findings.md';

export function recordFinding(lines: Record<string, string | number | undefined>) {
  const text = Object.entries(lines)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `- ${k}: ${String(v).replaceAll('\n', '\n    ')}`)
    .join('\n');
  try {
    appendFileSync(FINDINGS, `\n### ${new Date().toISOString()}\n${text}\n`);
  } catch {
    // the findings file is a convenience for the team; the test's own failure says the same
  }
}
