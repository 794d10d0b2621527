/**
 * A WooCommerce store of 10,000 variable products (two variations each) synced into a fresh
 * company (issue 12, decision 0034) over real HTTP against the local fake of the REST API v3:
 * how long the first sync takes, how many requests it makes against the fewest the API allows
 * (lists of at most 100 per page, one variations list per variable product), and what a second
 * sync of the unchanged store does (goal: nothing written here, no write sent to the store).
 *
 *   npm run woocommerce-sync --workspace @mostrador/bench                 # PGlite (in memory)
 *   DATABASE_URL=postgres://…/empty_db npm run woocommerce-sync --workspace @mostrador/bench
 *   PRODUCTS=2000 npm run woocommerce-sync …                              # another size
 */
import { fillCatalogue, startFakeWoo } from '../apps/server/test/fakes/woocommerce.js';
import { benchCompany, startBench } from './start.js';

const PRODUCTS = Number(process.env.PRODUCTS ?? 10_000);
const VARIATIONS = 2;

const { booted, address, token } = await startBench({ work: true });
const company = await benchCompany(booted, 'Bench WooCommerce');
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' };
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${address}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
};

const woo = await startFakeWoo();
fillCatalogue(woo.store, PRODUCTS, VARIATIONS);
const store = (await api('POST', '/woocommerces', {
  name: 'Tienda benchmark',
  url: woo.url,
  country: 'PE',
  consumerKey: 'ck_test123',
  consumerSecret: 'cs_test456',
})) as { _id: string };

async function sync() {
  const before = { ...woo.store.stats };
  const started = performance.now();
  const { runs } = (await api('POST', '/ecommerces/sync-all', { storeId: store._id })) as { runs: Array<{ _id: string }> };
  let run: Record<string, unknown>;
  for (;;) {
    run = await api('GET', `/ecommerces/sync-runs/${runs[0]._id}`);
    if (run.status === 'done' || run.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const delta = Object.fromEntries(Object.entries(woo.store.stats).map(([k, v]) => [k, v - before[k as keyof typeof before]])) as typeof before;
  return { run, seconds, store: delta };
}

const first = await sync();
const second = await sync();

// the fewest requests the API allows for this catalogue: every list at 100 a page (categories,
// tags, attributes and their terms are a page or two each) and one variations list per product
const floor = Math.ceil(PRODUCTS / 100) + PRODUCTS * Math.ceil(VARIATIONS / 100);
const items = PRODUCTS * (1 + VARIATIONS);
const line = (label: string, r: Awaited<ReturnType<typeof sync>>) =>
  `${label.padEnd(8)} ${r.run.status}  ${r.seconds.toFixed(1).padStart(6)} s  ${Math.round(items / r.seconds)
    .toString()
    .padStart(6)} items/s  requests ${String(r.store.requests).padStart(6)} (floor ${floor}, ×${(r.store.requests / floor).toFixed(2)})  ` +
  `created ${r.run.created} updated ${r.run.updated} unchanged ${r.run.unchanged}  writes sent to the store ${r.store.writes} (run says ${r.run.storeWrites})  failed items ${r.run.failedItems}`;

console.log(`\nWooCommerce sync, ${PRODUCTS.toLocaleString('en')} products × ${VARIATIONS} variations (${items.toLocaleString('en')} items), ${booted.database.kind}`);
console.log(line('first', first));
console.log(line('second', second));
console.log(`second run's writes: here ${second.run.created as number + (second.run.updated as number)}, to the store ${second.store.writes} (goal 0 and 0)`);

await woo.close();
await booted.close();
process.exit(0);
