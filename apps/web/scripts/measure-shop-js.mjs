// Sums the gzip size of the JavaScript the public catalogue (/catalogo-digital, shop.html)
// loads before it is interactive: its entry and every chunk it imports statically. Run after
// the build (npm run size). Exits 1 above SHOP_JS_BUDGET_KB (default 100, issue 12's target).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, 'shop-manifest.json'), 'utf8'));
const seen = new Set();
const visit = (key) => {
  if (seen.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest`);
  seen.add(key);
  for (const dep of chunk.imports ?? []) visit(dep);
};
visit('shop.html');

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
console.table(rows);
const budget = Number(process.env.SHOP_JS_BUDGET_KB ?? 100);
console.log(`/catalogo-digital initial JS: ${(raw / 1024).toFixed(1)} kB raw, ${(gzip / 1024).toFixed(1)} kB gzip (budget ${budget} kB)`);
if (gzip / 1024 > budget) {
  console.error(`Over budget by ${(gzip / 1024 - budget).toFixed(1)} kB gzip`);
  process.exitCode = 1;
}
