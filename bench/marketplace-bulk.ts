/**
 * A 5,000-row bulk update of marketplace prices and stock (/marketplaces/lote, decision 0035)
 * against the local Seller Center fake over real HTTP: how long the preview and the apply take,
 * and how many requests reach the marketplace against its documented limits (feeds — ProductUpdate
 * — 50 back to back, then one every 2 minutes, 770 a day; 500–1,000 SKUs per ProductUpdate
 * recommended).
 *
 * A fresh company gets a Falabella account on the fake with ROWS SKUs (half as many products, two
 * sizes each), synced first; then a CSV (UTF-8, `;`) of ROWS rows — a new price for 60 %, a new stock
 * for 30 %, the rest as the marketplace has them, 10 SKUs the marketplace refuses — is previewed,
 * applied and followed until the job ends; then the same file again, where only the refused rows
 * still differ from the marketplace.
 *
 *   npm run marketplace-bulk --workspace @mostrador/bench                 # PGlite (in memory)
 *   DATABASE_URL=postgres://…/empty_db npm run marketplace-bulk --workspace @mostrador/bench
 *   ROWS=20000 npm run marketplace-bulk …                                 # another size
 */
import { startFakeSellerCenter } from '../apps/server/test/fakes/seller-center.js';
import { marketplaceDefaults } from '../apps/server/src/modules/marketplace/sources.js';
import { benchCompany, startBench } from './start.js';

const ROWS = Number(process.env.ROWS ?? 5_000);
const REFUSED = 10;
const USER = 'bench@tienda.pe';
const KEY = 'clave-del-benchmark';

// the fake finishes a feed on the second FeedStatus; ask every 100 ms (Seller Center itself takes seconds)
Object.assign(marketplaceDefaults, { feedPollMs: 100 });
const { booted, address, token } = await startBench({ work: true });
const company = await benchCompany(booted, 'Bench marketplaces');
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company };
const api = async (method: string, path: string, body?: unknown, type = 'application/json') => {
  const res = await fetch(`${address}/api${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': type } : {}) },
    body: body === undefined ? undefined : type === 'application/json' ? JSON.stringify(body) : (body as string),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
};
const waitFor = async (path: string) => {
  for (;;) {
    const run = await api('GET', path);
    if (run.status === 'done' || run.status === 'failed') return run;
    await new Promise((r) => setTimeout(r, 200));
  }
};

const fake = await startFakeSellerCenter({ userId: USER, apiKey: KEY, country: 'PE', feedPolls: 1 });
const products = Math.ceil(ROWS / 2);
for (let n = 1; n <= products; n++) {
  for (const size of ['M', 'L']) {
    fake.account.admin.product({ SellerSku: `B${n}-${size}`, ParentSku: `B${n}`, Name: `Producto ${n}`, Variation: size, Price: 50 + (n % 100), Quantity: n % 40 });
  }
}
const skus = [...fake.account.products.keys()].slice(0, ROWS);
for (const sku of skus.slice(0, REFUSED * 50).filter((_, i) => i % 50 === 0)) fake.account.admin.refuse(sku, "Field Price with value has a problem: Price is out of the allowed range");

const source = (await api('POST', '/marketplace-sources', { name: 'Falabella benchmark', platform: 'falabella', country: 'PE', apiUser: USER, apiKey: KEY, apiUrl: fake.url })) as { _id: string };
let t0 = performance.now();
const started = (await api('POST', `/marketplace-sources/${source._id}/sync`)) as { run: { _id: string } };
const synced = await waitFor(`/marketplace-sync-runs/${started.run._id}`);
const syncMs = performance.now() - t0;
if (synced.status !== 'done') throw new Error(`sync: ${JSON.stringify(synced)}`);

// the file: a new price for 60 % of the rows, a new stock for 30 %, the rest unchanged
const lines = ['sku;precio;stock'];
skus.forEach((sku, i) => {
  const p = fake.account.products.get(sku);
  if (!p) return;
  const price = i % 10 < 6 ? (p.Price + 1.5).toFixed(2).replace('.', ',') : '';
  const stock = i % 10 >= 6 && i % 10 < 9 ? String(p.Quantity + 3) : i % 10 === 9 ? String(p.Quantity) : '';
  lines.push(`${sku};${price};${stock}`);
});
const csv = `${lines.join('\r\n')}\r\n`;

const before = { requests: fake.account.stats.requests, feeds: fake.account.stats.feeds, byAction: { ...fake.account.stats.byAction } };
t0 = performance.now();
const preview = (await api('POST', `/marketplace-products/bulk/csv?sourceId=${source._id}`, csv, 'text/csv')) as Record<string, number> & { _id: string };
const previewMs = performance.now() - t0;
t0 = performance.now();
await api('POST', `/marketplace-products/bulk/${preview._id}/apply`);
const done = (await waitFor(`/marketplace-products/bulk/${preview._id}?status=refused`)) as Record<string, number> & { rows: unknown[] };
const applyMs = performance.now() - t0;
const calls = (action: string) => (fake.account.stats.byAction[action] ?? 0) - (before.byAction[action] ?? 0);
const feeds = fake.account.stats.feeds - before.feeds;
const requests = fake.account.stats.requests - before.requests;
const feedSizes = [...fake.account.feeds.values()].map((f) => f.records.length);

// the same file again: everything is as the marketplace has it, so nothing to send
const again = (await api('POST', `/marketplace-products/bulk/csv?sourceId=${source._id}`, csv, 'text/csv')) as Record<string, number>;

const row = (label: string, value: string | number, limit = '') => console.log(`| ${label} | ${value} | ${limit} |`);
console.log(`\nBulk update of ${ROWS} rows against the Seller Center fake (${booted.database.kind})\n`);
console.log('| | figure | documented limit |');
console.log('|---|---|---|');
row('sync of the account first (SKUs, GetProducts pages of 500)', `${(syncMs / 1000).toFixed(1)} s, ${synced.requests} requests`);
row('preview (CSV upload → every row old → new)', `${(previewMs / 1000).toFixed(2)} s`);
row('rows: change / unchanged / invalid', `${preview.changes} / ${preview.unchanged} / ${preview.invalid}`);
row('apply (job: values set, feeds sent and followed, rows settled)', `${(applyMs / 1000).toFixed(1)} s`);
row('rows sent / refused by the marketplace', `${done.sent} / ${done.refused}`);
row('requests to the marketplace while applying', requests);
row('ProductUpdate (feeds)', feeds, '50 back to back, then 1 per 2 min; 770 a day');
row('SKUs per feed', feedSizes.join(', '), '500–1,000 recommended');
row('FeedStatus', calls('FeedStatus'), 'reads: not published');
row('feeds refused by the limit (429)', fake.account.stats.feedLimited, '0 expected');
row('same file again: rows that change', again.changes, `only the ${done.refused} refused: the rest is sent`);
console.log('');

await fake.close();
await booted.close();
if (done.status !== 'done' || again.changes !== done.refused || fake.account.stats.feedLimited > 0) process.exit(1);
process.exit(0);
