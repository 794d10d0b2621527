// `npm start` builds the SPA when its build is missing or older than its sources, so a
// fresh clone needs no separate build step and a pulled change is never served stale.
// Never in production (NODE_ENV=production): the build is made at build time (`npm run build`),
// the dev tooling it needs is not installed there (`npm ci --omit=dev`) and the server refuses
// to start without it; nor when WEB_DIST points at a build of the operator's own.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

if (process.env.NODE_ENV === 'production' || process.env.WEB_DIST) process.exit(0);

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'apps/web/dist/index.html');
const shop = path.join(root, 'apps/web/dist/shop.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/shop.html', 'apps/web/vite.config.ts', 'apps/web/vite.shop.config.ts', 'packages/contract/src'].map((p) =>
  path.join(root, p),
);

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(p).map((f) => newest(path.join(p, f))));
}

const stale = !existsSync(built) || !existsSync(shop) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
if (stale) {
  console.log('Construyendo el front end (apps/web)…');
  const r = spawnSync('npm', ['run', 'build', '--workspace', '@mostrador/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
