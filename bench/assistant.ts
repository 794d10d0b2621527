/**
 * «Sugerir respuesta» (issue 30, decision 0087): how well the matcher finds the products a
 * customer's message mentions, and how fast a suggestion is answered on a big catalogue.
 *
 * 1. Precision and recall on fixtures/assistant-messages.json: 200 Peruvian-Spanish customer
 *    messages (and 43 more, `heldout`, written after the matcher was tuned on the 200 and reported
 *    apart: their first run is the honest figure, decision 0087; three general fixes followed it) against the demo catalogue (Demo Perú: 38 products, clothes in sizes and colours),
 *    each labelled with the products a person would expect offered — typos, no accents, sizes,
 *    colours, quantities, several products, SKUs written, messages naming nothing («aceptan
 *    yape?»), and a few naming a kind of product («tienen chocolates?»), which a name matcher
 *    cannot resolve and counts against recall. A product is counted once per message (its
 *    variants are one product). Variant accuracy: of the messages that ask a size or colour, those
 *    whose entries all have that size and colour.
 * 2. Latency: a fresh company with the demo catalogue plus generated products up to PRODUCTS
 *    (default 5,000; a third with size/colour variants), each fixture message an inbound message,
 *    and POST /api/chats/:id/messages/:messageId/suggestion over HTTP with the embedded engine,
 *    sequential: the first call (the company's index built) apart, then p50/p95/p99 of the rest;
 *    and the matcher alone in process.
 *
 *   npm run assistant --workspace @mostrador/bench
 *   DATABASE_URL=postgres://…/empty_db npm run assistant --workspace @mostrador/bench
 */
import { readFileSync } from 'node:fs';
import { catalogueIndex } from '../apps/server/src/modules/assistant/catalogue-index.js';
import { matchIndex, matchProducts } from '../apps/server/src/modules/assistant/matcher.js';
import { benchCompany, startBench } from './start.js';

interface Labelled {
  text: string;
  expected: string[];
  variant?: { size?: string; color?: string };
  /** Written after the matcher was tuned on the others, and not tuned on. */
  heldout?: boolean;
}
const fixtures = JSON.parse(readFileSync(new URL('./fixtures/assistant-messages.json', import.meta.url), 'utf8')) as Labelled[];
/** 150 more, written by someone who never saw the matcher, after its last change (decision 0087): the honest figure. */
const blind = JSON.parse(readFileSync(new URL('./fixtures/assistant-heldout-2.json', import.meta.url), 'utf8')) as Labelled[];
const PRODUCTS = Number(process.env.PRODUCTS ?? 5_000);
const VERBOSE = process.env.VERBOSE === '1';

const { booted, address, token } = await startBench();
const { pool } = booted.database;
const db = booted.database.db;
const {
  rows: [peru],
} = await pool.query<{ id: string }>(`select id from companies where name = 'Demo Perú'`);

// 1. precision and recall on the demo catalogue
const skuOf = new Map((await pool.query<{ id: string; sku: string }>('select id, sku from products where company_id = $1', [peru.id])).rows.map((r) => [r.id, r.sku]));
async function evaluate(title: string, rows: Labelled[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let exact = 0;
  let variantAsked = 0;
  let variantRight = 0;
  let silentRight = 0;
  let silent = 0;
  for (const f of rows) {
    const found = await matchProducts(db, peru.id, f.text);
    const got = new Set(found.map((p) => skuOf.get(p.productId) ?? p.sku));
    const want = new Set(f.expected);
    const hits = [...got].filter((s) => want.has(s)).length;
    tp += hits;
    fp += got.size - hits;
    fn += want.size - hits;
    if (hits === got.size && hits === want.size) exact++;
    if (!want.size) {
      silent++;
      if (!got.size) silentRight++;
    }
    if (f.variant) {
      variantAsked++;
      const entries = found.filter((p) => skuOf.get(p.productId) === f.expected[0]);
      if (entries.length && entries.every((p) => p.variant && (!f.variant?.size || p.variant.size === f.variant.size) && (!f.variant?.color || p.variant.color === f.variant.color))) variantRight++;
    }
    if (VERBOSE && (hits !== got.size || hits !== want.size)) console.log(`  ✗ «${f.text}» expected [${[...want]}] got [${[...got]}]`);
  }
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  console.log(`\n${title} (${rows.length} messages, ${skuOf.size} products)`);
  console.log(`  precision ${precision.toFixed(3)}  recall ${recall.toFixed(3)}  F1 ${((2 * precision * recall) / (precision + recall)).toFixed(3)}  (tp ${tp}, fp ${fp}, fn ${fn})`);
  console.log(`  messages answered exactly ${exact}/${rows.length}; naming nothing and answered nothing ${silentRight}/${silent}; size/colour right ${variantRight}/${variantAsked}`);
}
await evaluate('Matching on the demo catalogue: the set written with the matcher', fixtures.filter((f) => !f.heldout));
await evaluate('Matching on the demo catalogue: the first held-out set (43, held out at first; tuned on since, decision 0087)', fixtures.filter((f) => f.heldout));
await evaluate('Matching on the demo catalogue: written blind to the matcher (assistant-heldout-2.json)', blind);

// 2. a suggestion's latency at PRODUCTS products
const company = await benchCompany(booted, 'Bench asistente');
await pool.query(`insert into colors (company_id, name, hex) select $1, name, hex from colors where company_id = $2`, [company, peru.id]);
await pool.query(`insert into respuestas_rapidas (company_id, atajo, texto) select $1, atajo, texto from respuestas_rapidas where company_id = $2`, [company, peru.id]);
const colorIds = (await pool.query<{ id: string }>('select id from colors where company_id = $1', [company])).rows.map((r) => r.id);
// the demo catalogue, its variants' colours mapped to the new company's
await pool.query(
  `insert into products (company_id, name, sku, price, stock, description, variants)
   select $1, p.name, p.sku, p.price, p.stock, p.description,
     (select jsonb_agg(case when v ? 'colorId' then jsonb_set(v, '{colorId}', to_jsonb(nc.id)) else v end)
        from jsonb_array_elements(p.variants) v
        left join colors oc on oc.id::text = v->>'colorId' left join colors nc on nc.company_id = $1 and nc.name = oc.name)
   from products p where p.company_id = $2`,
  [company, peru.id],
);
await pool.query(
  `insert into products (company_id, name, sku, price, stock, variants)
   select $1,
     (array['Galletas','Gaseosa','Jugo','Yogurt','Queso','Detergente','Shampoo','Cuaderno','Lapicero','Casaca','Short','Medias','Toalla','Vaso','Plato',
            'Olla','Sartén','Cargador','Audífonos','Cable','Vestido','Camisa','Pantalón','Chompa','Sandalias','Botas','Correa','Billetera','Lentes','Reloj'])[1 + i % 30]
       || ' ' || (array['Inti','Cumbre','Pacífico','Nazca','Sierra','Selva','Misti','Paracas','Tumbes','Cusco','Huascarán','Titicaca'])[1 + (i / 30) % 12]
       || ' ' || (array['clásico','premium','light','familiar','mini','infantil','extra','natural','original','de vidrio','de acero','reforzado'])[1 + (i / 7) % 12]
       || ' ' || (10 + i % 90) * 5,
     'GEN-' || lpad(i::text, 6, '0'), round((4.9 + (i * 37 % 300))::numeric, 2), i % 40,
     case when i % 3 = 0 then (
       select jsonb_agg(jsonb_build_object('sku', 'GEN-' || lpad(i::text, 6, '0') || '-' || s || '-' || ci, 'size', s, 'colorId', ($2::text[])[ci], 'stock', (i + ci + length(s)) % 9))
       from unnest(array['S','M','L','XL']) as s, generate_series(1, 2) as ci)
     end
   from generate_series(1, $3::int) as i`,
  [company, colorIds, PRODUCTS - skuOf.size],
);
const total = (await pool.query<{ n: number }>('select count(*)::int as n from products where company_id = $1', [company])).rows[0].n;
const ids: Array<{ chat: string; message: string }> = [];
for (const [i, f] of fixtures.entries()) {
  const {
    rows: [chat],
  } = await pool.query<{ id: string }>(
    `insert into chats (company_id, contact_name, platform, status, unread_count, created_at, updated_at) values ($1, $2, 'whatsapp', 'open', 1, now(), now()) returning id`,
    [company, `Cliente ${i + 1}`],
  );
  const {
    rows: [message],
  } = await pool.query<{ id: string }>(
    `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at) values ($1, $2, 'in', 'text', $3, 'received', now()) returning id`,
    [company, chat.id, f.text],
  );
  ids.push({ chat: chat.id, message: message.id });
}
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company };
const call = async (at: { chat: string; message: string }) => {
  const started = performance.now();
  const res = await fetch(`${address}/api/chats/${at.chat}/messages/${at.message}/suggestion`, { method: 'POST', headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`suggestion: ${res.status}`);
  return performance.now() - started;
};
const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];
const cold = await call(ids[0]);
const times: number[] = [];
for (let round = 0; round < 3; round++) for (const at of ids) times.push(await call(at));
const index = await catalogueIndex(db, company);
const matchTimes: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const f of fixtures) {
    const started = performance.now();
    matchIndex(index, f.text, 'PEN');
    matchTimes.push(performance.now() - started);
  }
}
console.log(`\nA suggestion over HTTP, embedded engine, ${total.toLocaleString('en')} products (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
console.log(`  first call (index built): ${cold.toFixed(1)} ms`);
console.log(`  ${times.length} calls: p50 ${pct(times, 0.5).toFixed(1)} ms  p95 ${pct(times, 0.95).toFixed(1)} ms  p99 ${pct(times, 0.99).toFixed(1)} ms  max ${Math.max(...times).toFixed(1)} ms`);
console.log(`  the matcher alone: p50 ${pct(matchTimes, 0.5).toFixed(3)} ms  p95 ${pct(matchTimes, 0.95).toFixed(3)} ms`);
await booted.close();
process.exit(0);
