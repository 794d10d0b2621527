/**
 * Property tests generated from the contract (issue 10). Every route the app registers — each
 * operation of every standard resource (list with its filters, get, create, update, delete with
 * its body) and every custom call — gets requests built from its own zod schemas, mixed with
 * hostile values at any depth. For every request:
 *   - never a 5xx;
 *   - a 4xx carries `errors.msg`, a non-empty Spanish message (no zod or Fastify English);
 *   - a 4xx wrote nothing: no row of any tenant table of the company was inserted, changed or
 *     deleted (a trigger notes every write, `watchWrites`).
 * At the end another corporation's rows are byte-identical to before.
 *
 * Size: FUZZ_RUNS requests per route (default 3), seed FUZZ_SEED (fixed default, another one on
 * PostgreSQL: CI's two passes, PGlite and PostgreSQL, together try 6 different requests per route
 * in the time 3 take on each). A big run:
 * `npm run fuzz` (scripts/fuzz.mjs). Problems are appended to /tmp/fuzz-findings.md.
 */
import { resourceList } from '@mostrador/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { as, demo, login, type Signed, startTestApp, type TestApp } from '../helpers.js';
import {
  bodyValue,
  encodeQuery,
  fillPath,
  type IdPools,
  isSpanishMessage,
  paramsValue,
  queryValue,
  serialiseBody,
  describe as show,
} from './arbitraries.js';
import {
  apiRoutes,
  type Capture,
  type CapturedRoute,
  changedTables,
  fingerprint,
  paramNames,
  recordFinding,
  type TenantTable,
  tenantTables,
  watchWrites,
  type WriteWatch,
} from './harness.js';

const capture = vi.hoisted(() => ({ routes: [], errors: new Map() }) as Capture);
vi.mock('fastify', async (importOriginal) => {
  const { captureFastify } = await import('./harness.js');
  return captureFastify(await importOriginal<typeof import('fastify')>(), capture);
});

const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const SEED = Number(process.env.FUZZ_SEED ?? (process.env.TEST_DATABASE_URL ? 20_761_125 : 20_261_125));

let t: TestApp;
let admin: Signed;
let home: { companyId: string; corporationId: string };
let acmeOwner: { companyId: string; corporationId: string };
let tables: TenantTable[];
let pools: IdPools;
let acmeBefore: Record<string, string>;
let writes: WriteWatch;

const stats = {
  tried: 0,
  statuses: {} as Record<number, number>,
  fiveXX: 0,
  partialWrites: 0,
  nonSpanish: 0,
};

/** Routes are known only once the app is built: the describe blocks read them from here. */
const routes: CapturedRoute[] = [];

async function ids(sql: string, values: unknown[]): Promise<string[]> {
  return (await t.sql<{ id: string }>(sql, values)).map((r) => r.id);
}

/** Up to 15 ids of each tenant table of a company: what a client could know or guess. */
async function idsOf(companyId: string): Promise<string[]> {
  const out: string[] = [];
  for (const tb of tables) {
    if (tb.owner !== 'company_id') continue;
    const hasId = await t.sql(
      `select 1 from information_schema.columns where table_schema = 'public' and table_name = $1 and column_name = 'id' and data_type = 'uuid'`,
      [tb.name],
    );
    if (!hasId.length) continue;
    out.push(...(await ids(`select id::text as id from "${tb.name}" where company_id = $1 order by id limit 15`, [companyId])));
  }
  out.push(...(await ids('select user_id::text as id from memberships where company_id = $1', [companyId])));
  return [...new Set(out)];
}

// Built at collection time: the routes name the tests.
t = await startTestApp();
// the queue only enqueues: a job finishing mid-request would change rows the check compares
await t.app.jobs.stop();
await t.app.jobs.start({ work: false });
routes.push(...apiRoutes(capture));

beforeAll(async () => {
  const acme = await login(t, demo.acme);
  admin = await login(t, demo.admin);
  home = {
    companyId: admin.user.companyId,
    corporationId: admin.user.corporation._id,
  };
  acmeOwner = {
    companyId: acme.user.companyId,
    corporationId: acme.user.corporation._id,
  };
  tables = await tenantTables(t);
  const chile = admin.company('Demo Chile');
  pools = {
    // never the caller, their company or the corporation's other company: deleting those is allowed and ends the run
    home: (await idsOf(home.companyId)).filter((id) => ![admin.user._id, home.companyId, chile].includes(id)),
    other: [...(await idsOf(acmeOwner.companyId)), acmeOwner.companyId, acmeOwner.corporationId],
  };
  acmeBefore = await fingerprint(t, tables, acmeOwner);
  writes = await watchWrites(t, tables);
}, 180_000);

afterAll(async () => {
  const statuses = Object.entries(stats.statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  console.log(
    `FUZZ SUMMARY requests tried: ${stats.tried}, statuses: ${statuses}, 5xx: ${stats.fiveXX}, partial writes: ${stats.partialWrites}, non-Spanish 4xx: ${stats.nonSpanish} (seed ${SEED}, ${RUNS} per route, ${routes.length} routes)`,
  );
  await t?.close();
});

/** A fresh session for calls that end the one they are sent with (logout). */
async function headersFor(route: CapturedRoute): Promise<Record<string, string>> {
  if (route.url === '/api/logout') return as(await login(t, demo.admin), home.companyId);
  return as(admin, home.companyId);
}

interface Generated {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  mode: 'json' | 'broken' | 'text';
}

function requestArb(route: CapturedRoute): fc.Arbitrary<Generated> {
  const examples = (route.operation === 'create' || route.operation === 'update' ? route.resource?.examples : undefined) as
    | Array<Record<string, unknown>>
    | undefined;
  const deleteExamples =
    route.operation === 'delete' && route.resource?.deleteBody
      ? (route.resource.examples as Array<Record<string, unknown>>).map((e) =>
          Object.fromEntries(Object.keys(route.resource?.deleteBody?.shape ?? {}).map((k) => [k, e[k]])),
        )
      : undefined;
  const sendsBody = route.method !== 'GET';
  return fc.record({
    params: paramsValue(route.schema.params, paramNames(route.url), pools),
    query: queryValue(route.schema.querystring, pools),
    body: sendsBody ? bodyValue(route.schema.body, pools, examples ?? deleteExamples ?? []) : fc.constant(undefined),
    mode: sendsBody
      ? fc.oneof({ weight: 12, arbitrary: fc.constant('json' as const) }, fc.constant('broken' as const), fc.constant('text' as const))
      : fc.constant('json' as const),
  });
}

async function send(route: CapturedRoute, g: Generated) {
  const url = fillPath(route.url, g.params) + encodeQuery(g.query);
  const headers: Record<string, string> = await headersFor(route);
  let payload: string | undefined;
  if (g.mode === 'broken') {
    payload = '{"name": "Ana", "items": [1, 2';
    headers['content-type'] = 'application/json';
  } else if (g.mode === 'text') {
    payload = typeof g.body === 'string' ? g.body : 'nombre=Ana';
    headers['content-type'] = 'text/plain';
  } else {
    payload = serialiseBody(g.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
  }
  const res = await t.app.inject({
    method: route.method as 'GET',
    url,
    headers,
    payload,
  });
  return { url, payload, res };
}

/** Whether the admin's session still works (a call may legitimately end it). */
async function ensureSession() {
  const res = await t.app.inject({
    url: '/api/permissions',
    headers: as(admin, home.companyId),
  });
  if (res.statusCode === 401) admin = await login(t, demo.admin);
}

async function checkOne(route: CapturedRoute, g: Generated): Promise<void> {
  await writes.since(home);
  const { url, payload, res } = await send(route, g);
  stats.tried++;
  stats.statuses[res.statusCode] = (stats.statuses[res.statusCode] ?? 0) + 1;
  const problems: string[] = [];
  let stack: string | undefined;
  // a 5xx the route declares (GET /api/health/ready's 503 while no worker runs) is its answer, not a crash
  if (res.statusCode >= 500 && !route.declared5xx.includes(res.statusCode)) {
    stats.fiveXX++;
    problems.push(`${res.statusCode} (5xx)`);
    const err = [...capture.errors.values()].at(-1);
    stack = err?.stack?.split('\n').slice(0, 8).join('\n');
  }
  if (res.statusCode >= 400 && res.statusCode < 500) {
    let msg: unknown;
    try {
      msg = res.json().errors?.msg;
    } catch {
      msg = undefined;
    }
    if (!isSpanishMessage(msg)) {
      stats.nonSpanish++;
      problems.push(`4xx without a Spanish errors.msg: ${JSON.stringify(msg)}`);
    }
    const changed = await writes.since(home);
    if (changed.length) {
      stats.partialWrites++;
      problems.push(`partial write on a ${res.statusCode}: ${changed.join(', ')}`);
    }
  }
  capture.errors.clear();
  if (res.statusCode < 300 || res.statusCode === 401) await ensureSession();
  if (problems.length) {
    const finding = {
      route: `${route.method} ${route.url}`,
      problem: problems.join('; '),
      request: `${route.method} ${show(url, 300)}`,
      body: g.mode === 'json' ? show(g.body) : `${g.mode}: ${show(payload)}`,
      status: res.statusCode,
      response: res.body.slice(0, 400),
      stack,
    };
    recordFinding({ source: 'contract-fuzz', ...finding });
    throw new Error(`${finding.problem}\n${finding.request}\nbody: ${finding.body}\nresponse: ${finding.response}${stack ? `\n${stack}` : ''}`);
  }
}

describe('contract fuzz', () => {
  it('covers every operation of every standard resource and the custom calls', () => {
    for (const r of resourceList) {
      for (const op of r.operations) {
        expect(
          routes.some((x) => x.resource?.key === r.key && x.operation === op),
          `${r.key} ${op}`,
        ).toBe(true);
      }
    }
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'POST /api/login',
      'GET /api/auth',
      'GET /api/users',
      'PUT /api/users/:id',
      'PUT /api/users/:id/update-password',
      'POST /api/register',
      'GET /api/companies',
      'GET /api/groups/:id/users',
      'PUT /api/groups/:id/users',
      'GET /api/leads/all',
      'POST /api/leads/send-to-audience',
      'POST /api/chats/send_massive_message',
      'GET /api/chats/get_chats',
      'GET /api/channels',
    ]) {
      expect(urls, expected).toContain(expected);
    }
    expect(urls.some((u) => u.includes('/clean-leads/set_'))).toBe(true);
    expect(urls.some((u) => u.includes('get-by-'))).toBe(true);
  });

  it('notices a write of the company, and neither a rolled-back one nor one of another company', async () => {
    await writes.since(home);
    const rename = (suffix: string) => `update companies set name = name || '${suffix}' where id = '${home.companyId}'`;
    await t.sql(`do $$ begin ${rename(' y')}; raise exception 'no'; end $$`).catch(() => undefined);
    await t.sql(`update companies set name = name where id = '${home.companyId}'`);
    await t.sql(`update companies set name = name || ' z' where id = '${acmeOwner.companyId}'`);
    await t.sql(`update companies set name = left(name, -2) where id = '${acmeOwner.companyId}'`);
    expect(await writes.since(home)).toEqual([]);
    await t.sql(rename(' x'));
    await t.sql(`update companies set name = left(name, -2) where id = '${home.companyId}'`);
    expect(await writes.since(home)).toEqual(['companies']);
    expect(await writes.since(home)).toEqual([]);
  });

  // one property per route, each with its own seed (a new route does not reshuffle the others)
  it.each(routes.map((route, i) => [`${route.method} ${route.url}`, route, i] as const))(
    '%s',
    async (_, route, i) => {
      const out = await fc.check(
        fc.asyncProperty(requestArb(route), (g) => checkOne(route, g)),
        { numRuns: RUNS, seed: SEED + i, endOnFailure: true },
      );
      // the counterexample is reported by checkOne's message: fast-check's own would print 100k characters
      if (out.failed) throw new Error((out.errorInstance as Error | undefined)?.message ?? 'falló');
    },
    600_000,
  );

  it('left the other corporation byte-identical', async () => {
    const changed = changedTables(acmeBefore, await fingerprint(t, tables, acmeOwner));
    if (changed.length)
      recordFinding({
        source: 'contract-fuzz',
        problem: `another corporation's rows changed: ${changed.join(', ')}`,
      });
    expect(changed).toEqual([]);
  });
});
