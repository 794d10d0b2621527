// Sums the gzip size of the JavaScript /login loads first: the entry chunk, the lazy
// login route, and every chunk they import statically (what the browser fetches before
// the form works; chunks fetched later on demand are not counted). Run after `vite build`:
//   npm run size --workspace @mostrador/web
// Exits 1 above the budget: LOGIN_JS_BUDGET_KB (default 150, the target).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const roots = ['index.html', 'src/features/auth/login-page.tsx'];
const seen = new Set();
const visit = (key) => {
  if (seen.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest`);
  seen.add(key);
  for (const dep of chunk.imports ?? []) visit(dep);
};
for (const root of roots) visit(root);

let raw = 0;
let gzip = 0;
const rows = [];
for (const key of seen) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) continue;
  const bytes = readFileSync(join(dist, file));
  const gz = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzip += gz;
  rows.push({ file, kB: +(bytes.length / 1024).toFixed(1), gzipKB: +(gz / 1024).toFixed(1) });
}
rows.sort((a, b) => b.gzipKB - a.gzipKB);
console.table(rows);
const budget = Number(process.env.LOGIN_JS_BUDGET_KB ?? 150);
console.log(`/login initial JS: ${(raw / 1024).toFixed(1)} kB raw, ${(gzip / 1024).toFixed(1)} kB gzip (budget ${budget} kB)`);
if (gzip / 1024 > budget) {
  console.error(`Over budget by ${(gzip / 1024 - budget).toFixed(1)} kB gzip`);
  process.exitCode = 1;
}
