// The production start as CI tests it (decision 0065), exactly as the container image runs it:
// the tree copied without node_modules by .dockerignore's lines (the image's build context), the
// built SPA beside it (the image's COPY --from=build), then the Dockerfile's runtime-stage
// `RUN npm ci …` and `CMD` (`npm start` with NODE_ENV=production) on a fresh PostgreSQL
// database: /login must serve the SPA and /api/health answer; a request in flight when SIGTERM
// comes is answered, npm exits 0 and nothing is left behind.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, freePort, listening, requestInTwoParts, startProduct, until } from './product-process.js';

const root = path.resolve(import.meta.dirname, '..');
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const started = performance.now();
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

function fail(message: string): never {
  console.error(`check-production: ${message}`);
  process.exit(1);
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) fail(`${command} ${args.join(' ')} terminó con ${r.status ?? r.signal}`);
}

// the build stage: the SPA built (ensure-web-build builds it when missing or stale)
run('node', ['scripts/ensure-web-build.mjs'], root, { NODE_ENV: 'development', WEB_DIST: '' });

// the build context: everything but what .dockerignore leaves out
const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const left = (relative: string) =>
  ignored.some((pattern) => {
    if (pattern.startsWith('**/')) return relative.split(path.sep).includes(pattern.slice(3));
    if (pattern.startsWith('*.')) return relative.endsWith(pattern.slice(1));
    return relative === pattern || relative.startsWith(`${pattern}/`);
  });
const tree = mkdtempSync(path.join(tmpdir(), 'mostrador-prod-'));
cpSync(root, tree, { recursive: true, filter: (src) => src === root || !left(path.relative(root, src)) });
cpSync(path.join(root, 'apps/web/dist'), path.join(tree, 'apps/web/dist'), { recursive: true });

// the image's runtime stage, as the Dockerfile says it: its install line and its start command
const runtimeStage = readFileSync(path.join(root, 'Dockerfile'), 'utf8').split(/^FROM /m).at(-1) ?? '';
const install = /^RUN (npm ci [^&\n]+?)\s*(&&|$)/m.exec(runtimeStage)?.[1].split(/\s+/);
const command = JSON.parse(/^CMD (\[.*\])$/m.exec(runtimeStage)?.[1] ?? 'null') as string[] | null;
if (!install || command?.[0] !== 'npm') fail('el Dockerfile no tiene en su última etapa un `RUN npm ci …` y un `CMD ["npm", …]`');

let step = performance.now();
run(install[0], [...install.slice(1), '--loglevel=error'], tree, { NODE_ENV: 'production' });
console.log(`${install.join(' ')}: ${seconds(step)}`);
for (const dev of ['vite', 'typescript', 'vitest', '@playwright/test', 'drizzle-kit']) {
  if (existsSync(path.join(tree, 'node_modules', dev))) fail(`${dev} (dependencia de desarrollo) quedó instalada`);
}
const du = spawnSync('du', ['-sm', tree], { encoding: 'utf8' }).stdout.split('\t')[0];
const modules = spawnSync('du', ['-sm', path.join(tree, 'node_modules')], { encoding: 'utf8' }).stdout.split('\t')[0];
console.log(`árbol de producción: ${du} MB (node_modules ${modules} MB)`);

const database = await createDatabase(adminUrl, 'mostrador_prodcheck');

try {
  const port = await freePort();
  step = performance.now();
  const product = startProduct({
    cwd: tree,
    port,
    args: command.slice(1),
    env: { NODE_ENV: 'production', DATABASE_URL: database.url, JWT_SECRET: randomBytes(32).toString('hex'), PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  await product.ready(90_000);
  console.log(`arranque en producción (migraciones de una base nueva incluidas) hasta /api/health 200: ${seconds(step)}`);

  const login = await fetch(`${product.base}/login`);
  const html = await login.text();
  if (login.status !== 200 || !/<div id="root">/.test(html) || !/<script type="module"[^>]+\/assets\//.test(html)) {
    fail(`/login no sirve la SPA construida (${login.status}):\n${html.slice(0, 500)}\n${product.output()}`);
  }
  const health = await fetch(`${product.base}/api/health`);
  if (health.status !== 200) fail(`/api/health respondió ${health.status}`);

  // a request in flight when the signal comes must still be answered (a wrong password: 4xx, not a reset)
  const inFlight = requestInTwoParts(product.base, '/api/login', { email: 'nadie@example.com', password: 'x'.repeat(12), corporation: 'nadie' });
  await until(async () => product.received('/api/login'), (n) => n === 1, 20_000, 'que el servidor reciba la solicitud');
  const stopping = product.stop('SIGTERM');
  await until(() => listening(port), (open) => !open, 20_000, 'que el servidor deje de aceptar conexiones');
  const answer = await inFlight.finish();
  const stopped = await stopping;
  if (!answer.status || answer.status >= 500) fail(`la solicitud en curso no terminó bien: ${answer.status} ${answer.body}`);
  if (stopped.code !== 0 || stopped.survivors.length) {
    fail(`tras SIGTERM: salida ${stopped.code ?? stopped.signal}, procesos que siguen: ${stopped.survivors.join(', ') || 'ninguno'}\n${product.output()}`);
  }
  console.log(`SIGTERM: servidor drenado en ${stopped.serverDrainMs} ms, npm terminó a los ${stopped.drainMs} ms, sin procesos restantes`);
} finally {
  await database.drop();
  rmSync(tree, { recursive: true, force: true });
}
console.log(`check-production: bien (${seconds(started)})`);
