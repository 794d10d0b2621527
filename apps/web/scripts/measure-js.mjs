// Sums the gzip size of the JavaScript a page loads before it works: its entry chunks and
// every chunk they import statically (chunks fetched later on demand are not counted). Run
// after the build: `npm run size --workspace @mostrador/web`. Exits 1 when a page with a
// budget is over it.
//   /login             the staff app's entry and the login route   LOGIN_JS_BUDGET_KB (150, issue 2)
//   /chat              the entry, the signed-in shell and the inbox    no budget: a figure (issue 11)
//   /catalogo-digital  the public shop page (shop.html)                SHOP_JS_BUDGET_KB (100, issue 12)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const staff = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const shop = JSON.parse(readFileSync(join(dist, 'shop-manifest.json'), 'utf8'));

const pages = [
  { page: '/login', manifest: staff, roots: ['index.html', 'src/features/auth/login-page.tsx'], budget: Number(process.env.LOGIN_JS_BUDGET_KB ?? 150) },
  { page: '/chat', manifest: staff, roots: ['index.html', 'src/app/screen-routes.tsx', 'src/app/query-layout.tsx', 'src/features/chat/chat-page.tsx'] },
  { page: '/catalogo-digital', manifest: shop, roots: ['shop.html'], budget: Number(process.env.SHOP_JS_BUDGET_KB ?? 100) },
];

for (const { page, manifest, roots, budget } of pages) {
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
  console.table(rows.slice(0, 12));
  const kb = gzip / 1024;
  console.log(`${page} initial JS: ${(raw / 1024).toFixed(1)} kB raw, ${kb.toFixed(1)} kB gzip in ${rows.length} files${budget ? ` (budget ${budget} kB)` : ''}`);
  if (budget && kb > budget) {
    console.error(`${page}: over budget by ${(kb - budget).toFixed(1)} kB gzip`);
    process.exitCode = 1;
  }
}
