/**
 * The public digital catalogue of a big shop (issue 12): 5,000 products, a third of them with
 * size/colour variants, all in the company's default catalogue. How fast does a customer's
 * phone get the first page of /catalogo-digital, a search, a category, the next pages?
 *
 * Fills a fresh company (server-side generate_series), then times over HTTP the public calls
 * the shop page makes (GET /api/catalogo-digital/:id and /:id/products): p50/p99 of
 * sequential calls; on PostgreSQL also the first page under load beside pgbench running the
 * very statements it issued (bench/compare.ts). The JS weight of the page is printed by
 * `npm run size --workspace @mostrador/web` (budget 100 kB gzip).
 *
 *   DATABASE_URL=postgres://…/empty_db npm run catalog --workspace @mostrador/bench
 *   PRODUCTS=1000 npm run catalog --workspace @mostrador/bench   # PGlite, smaller
 */
import { measure, printTable } from './compare.js';
import { benchCompany, startBench } from './start.js';

const PRODUCTS = Number(process.env.PRODUCTS ?? 5_000);
const { booted, address } = await startBench();
const { pool } = booted.database;
const company = await benchCompany(booted, 'Bench catálogo');

const started = performance.now();
const brands = (
  await pool.query<{ id: string }>(`insert into brands (company_id, name) select $1, 'Marca ' || i from generate_series(1, 40) as i returning id`, [company])
).rows.map((r) => r.id);
const categories = (
  await pool.query<{ id: string }>(`insert into categories (company_id, name) select $1, 'Categoría ' || i from generate_series(1, 25) as i returning id`, [company])
).rows.map((r) => r.id);
await pool.query(
  `insert into products (company_id, name, sku, price, stock, description, image_url, brand_id, category_id, variants)
   select $1,
     (array['Polo','Casaca','Zapatilla','Mochila','Gorra','Short','Vestido','Camisa','Pantalón','Chompa'])[1 + i % 10] || ' ' ||
       (array['básico','deportivo','clásico','urbano','premium','de verano','de invierno'])[1 + i % 7] || ' ' || i,
     'SKU-' || lpad(i::text, 6, '0'), round((19.9 + (i * 37 % 400))::numeric, 2), i % 50,
     'Producto de prueba número ' || i || ' con descripción para la ficha',
     '/api/product-images/polo-' || (array['1c57a5','f2c200','8b2c1d','2e7d32'])[1 + i % 4] || '.svg',
     ($2::uuid[])[1 + i % 40], ($3::uuid[])[1 + i % 25],
     case when i % 3 = 0 then (
       select jsonb_agg(jsonb_build_object('sku', 'SKU-' || lpad(i::text, 6, '0') || '-' || s, 'size', s, 'stock', (i + length(s)) % 9))
       from unnest(array['S','M','L','XL']) as s)
     end
   from generate_series(1, $4::int) as i`,
  [company, brands, categories, PRODUCTS],
);
const productIds = (await pool.query<{ id: string }>('select id from products where company_id = $1 order by name', [company])).rows.map((r) => r.id);
const {
  rows: [catalog],
} = await pool.query<{ id: string }>(
  `insert into catalogs (company_id, name, description, is_default, product_ids) values ($1, 'Catálogo general', 'Todo', true, $2::jsonb) returning id`,
  [company, JSON.stringify(productIds)],
);
await pool.query('analyze products; analyze catalogs; analyze brands; analyze categories');
console.log(`${PRODUCTS.toLocaleString('es-PE')} products in one default catalogue (${((performance.now() - started) / 1000).toFixed(1)} s)`);

async function timed(title: string, url: string, n = 60) {
  const times: number[] = [];
  let body: { totalDocs?: number; payload?: unknown[] } = {};
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(`${address}${url}`);
    body = (await res.json()) as typeof body;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    if (i >= 5) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  const total = body.totalDocs === undefined ? '' : `totalDocs ${body.totalDocs.toLocaleString('es-PE')}, `;
  console.log(`${title.padEnd(40)} p50 ${p(0.5).padStart(7)} ms  p99 ${p(0.99).padStart(7)} ms  (${total}${body.payload?.length ?? '–'} rows)`);
}

console.log(`\n/catalogo-digital on ${booted.database.kind} (node ${process.version}); no sign-in, as a customer's phone asks`);
await timed('the catalogue (name, filters)', `/api/catalogo-digital/${catalog.id}`);
await timed('first page of products (24)', `/api/catalogo-digital/${catalog.id}/products`);
await timed('page 50', `/api/catalogo-digital/${catalog.id}/products?page=50`);
await timed('search "zapatilla urbano"', `/api/catalogo-digital/${catalog.id}/products?filter=zapatilla%20urbano`);
await timed('one category', `/api/catalogo-digital/${catalog.id}/products?categoryId=${categories[3]}`);
await timed('one brand and one category', `/api/catalogo-digital/${catalog.id}/products?brandId=${brands[7]}&categoryId=${categories[7]}`);

if (booted.database.kind === 'postgres' && process.env.DATABASE_URL) {
  console.log(`\n10 connections, ${process.env.BENCH_SECONDS ?? 10} s each; pgbench: the statements each call issued, same parameters`);
  printTable([
    await measure(pool, process.env.DATABASE_URL, 'GET /api/catalogo-digital/:id/products', `${address}/api/catalogo-digital/${catalog.id}/products`),
    await measure(pool, process.env.DATABASE_URL, 'the same, search', `${address}/api/catalogo-digital/${catalog.id}/products?filter=zapatilla%20urbano`),
  ]);
}
await booted.close();
