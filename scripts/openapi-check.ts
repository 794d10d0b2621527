// The API's OpenAPI document as CI checks it (`npm run lint`, decision 0074): the app built on an
// in-memory PGlite database as the tests build it, GET /api/docs/json written to a temp file,
// `redocly lint` with the committed redocly.yaml (any error fails, and so does any ambiguous pair
// of paths the config does not allow by name), then openapi-typescript writes the client's types
// (apps/server/test/openapi/generated.d.ts, not committed) and tsc checks the typed client calls
// of apps/server/test/openapi against them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { migrateDatabase, openDatabase } from '../apps/server/src/db/database.js';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const started = performance.now();
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

function fail(message: string): never {
  console.error(`openapi-check: ${message}`);
  process.exit(1);
}

/** The document the server answers, with no session: the app on a fresh in-memory database, no demo. */
async function documentJson(dataDir: string): Promise<string> {
  const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'openapi-check-openapi-check-openapi-check', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED: 'false' });
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateDatabase(database);
    const app = await buildApp({ config, database, logger: false });
    try {
      const res = await app.inject('/api/docs/json');
      if (res.statusCode !== 200) fail(`GET /api/docs/json respondió ${res.statusCode}: ${res.body.slice(0, 500)}`);
      return res.body;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

/** The ambiguous pairs redocly.yaml allows, each `allowed-ambiguity: <path> | <path>` in its comments. */
function allowedAmbiguities(): Set<string> {
  const pairs = new Set<string>();
  for (const line of readFileSync(path.join(root, 'redocly.yaml'), 'utf8').split('\n')) {
    const m = /allowed-ambiguity:\s*(\S+)\s*\|\s*(\S+)/.exec(line);
    if (m) pairs.add([m[1], m[2]].sort().join(' | '));
  }
  return pairs;
}

const work = mkdtempSync(path.join(tmpdir(), 'mostrador-openapi-'));
try {
  const built = performance.now();
  const json = await documentJson(work);
  const file = path.join(work, 'openapi.json');
  writeFileSync(file, json);
  const doc = JSON.parse(json) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(`openapi-check: OpenAPI ${doc.openapi}, ${Object.keys(doc.paths).length} rutas, ${operations} operaciones (${seconds(built)})`);

  // redocly: errors fail; an ambiguous pair of paths fails unless redocly.yaml allows it by name
  const linted = performance.now();
  const lint = spawnSync(bin('redocly'), ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json', '--max-problems', '100000'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const out = lint.stdout.slice(lint.stdout.indexOf('{'));
  let problems: Problem[];
  try {
    problems = (JSON.parse(out) as { problems: Problem[] }).problems;
  } catch {
    fail(`redocly lint no respondió un informe (${lint.status}): ${lint.stderr || lint.stdout}`);
  }
  const allowed = allowedAmbiguities();
  const failing = problems.filter((p) => {
    if (p.severity === 'error') return true;
    if (p.ruleId !== 'no-ambiguous-paths') return false;
    const pair = [...p.message.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort().join(' | ');
    return !allowed.has(pair);
  });
  const warnings = problems.filter((p) => p.severity === 'warn').length;
  if (failing.length) {
    for (const p of failing.slice(0, 50)) console.error(`  ${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`);
    fail(`redocly lint: ${failing.length} problemas (de ${problems.length}); el documento se escribió en ${file}`);
  }
  console.log(`openapi-check: redocly lint sin errores (${warnings} advertencias permitidas) (${seconds(linted)})`);

  // openapi-typescript writes the client's types; the typed calls must compile against them
  const typed = performance.now();
  const generated = path.join(root, 'apps/server/test/openapi/generated.d.ts');
  const gen = spawnSync(bin('openapi-typescript'), [file, '--output', generated], { encoding: 'utf8' });
  if (gen.status !== 0) fail(`openapi-typescript: ${gen.stderr || gen.stdout}`);
  const tsc = spawnSync(bin('tsc'), ['-p', path.join(root, 'apps/server/test/openapi')], { encoding: 'utf8' });
  if (tsc.status !== 0) fail(`el cliente tipado no compila contra los tipos generados:\n${tsc.stdout}${tsc.stderr}`);
  console.log(`openapi-check: tipos generados y cliente tipado compilado (${seconds(typed)}); total ${seconds(started)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
