// The big contract fuzz (issue 10): apps/server/test/fuzz/contract-fuzz.test.ts with many
// requests per route and a random (or given) seed. Prints the requests tried, the statuses and
// the 5xx seen; problems are appended to /tmp/fuzz-findings.md (FUZZ_FINDINGS to change).
//   npm run fuzz                       # 200 requests per route, random seed, PGlite
//   npm run fuzz -- --runs 1000 --seed 42
//   TEST_DATABASE_URL=postgres://… npm run fuzz   # on PostgreSQL
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const runs = option('runs', process.env.FUZZ_RUNS ?? '200');
const seed = option('seed', process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31)));
console.log(`Fuzz del contrato: ${runs} solicitudes por ruta, semilla ${seed}${process.env.TEST_DATABASE_URL ? ', PostgreSQL' : ', PGlite'}`);
console.log(`Repetir exactamente: npm run fuzz -- --runs ${runs} --seed ${seed}`);

const child = spawn('npx', ['vitest', 'run', '--project', 'server', 'apps/server/test/fuzz/contract-fuzz.test.ts'], {
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed, FORCE_COLOR: '0' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let summary = '';
let failed = [];
const read = (chunk) => {
  for (const line of chunk.toString().split('\n')) {
    if (line.includes('FUZZ SUMMARY')) summary = line.slice(line.indexOf('FUZZ SUMMARY'));
    if (/^\s*(×|✗|FAIL)\s/.test(line) || line.includes(' FAIL ')) failed.push(line.trim());
  }
  if (process.env.FUZZ_VERBOSE) process.stdout.write(chunk);
};
child.stdout.on('data', read);
child.stderr.on('data', read);
child.on('close', (code) => {
  failed = [...new Set(failed)];
  console.log(summary || 'Sin resumen: la suite no llegó al final (FUZZ_VERBOSE=1 para ver su salida)');
  if (failed.length) console.log(`Casos fallidos (${failed.length}):\n  ${failed.join('\n  ')}`);
  console.log(`Hallazgos: ${process.env.FUZZ_FINDINGS ?? '/tmp/fuzz-findings.md'}`);
  process.exit(code ?? 1);
});
