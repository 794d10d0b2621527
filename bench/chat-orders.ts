/**
 * Orders built in the chat (issue 30, decision 0088): how fast does «Crear pedido» answer, and
 * what does it cost beside the floor — the same transaction's SQL (the two products locked in id
 * order, their stock taken, the order, its note in the thread, its idempotency row, its audit row)
 * run by pgbench in the same run, on the same database?
 *
 * Fills a fresh company (2,000 products, a WhatsApp chat with its lead), then: sequential
 * `POST /api/chats/:id/orders` p50/p99; on PostgreSQL, 10 connections of the call (each a new
 * order: no Idempotency-Key) beside pgbench of the statements (a random code and key per
 * transaction, as the server makes them).
 *
 *   DATABASE_URL=postgres://…/empty_db npm run chat-orders --workspace @mostrador/bench
 *   npm run chat-orders --workspace @mostrador/bench          # PGlite, sequential only
 */
import { cannon, pgbench, printTable } from './compare.js';
import { benchCompany, startBench } from './start.js';

const PRODUCTS = Number(process.env.PRODUCTS ?? 2_000);
const { booted, address, token } = await startBench();
const { pool } = booted.database;
const company = await benchCompany(booted, 'Bench pedidos en el chat');

await pool.query(
  `insert into products (company_id, name, sku, price, stock)
   select $1, 'Producto ' || i, 'CO-' || lpad(i::text, 6, '0'), round((9.9 + (i * 37 % 300))::numeric, 2), 100000000
   from generate_series(1, $2::int) as i`,
  [company, PRODUCTS],
);
const products = (await pool.query<{ id: string }>('select id from products where company_id = $1 order by sku limit 2', [company])).rows.map((r) => r.id);
const {
  rows: [lead],
} = await pool.query<{ id: string }>(`insert into leads (company_id, name, platform, status, telefono) values ($1, 'Cliente de prueba', 'whatsapp', 'sin-asignar', '51987654321') returning id`, [company]);
const {
  rows: [chat],
} = await pool.query<{ id: string }>(`insert into chats (company_id, contact_name, platform, lead_id, status) values ($1, 'Cliente de prueba', 'whatsapp', $2, 'open') returning id`, [
  company,
  lead.id,
]);
await pool.query('analyze products; analyze orders');

const headers = { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' };
const body = JSON.stringify({
  customer: { name: 'Cliente de prueba', telefono: '987654321' },
  items: [
    { productId: products[0], quantity: 1 },
    { productId: products[1], quantity: 2 },
  ],
});
const url = `${address}/api/chats/${chat.id}/orders`;

const times: number[] = [];
for (let i = 0; i < 205; i++) {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers, body });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`POST ${url}: ${res.status}`);
  if (i >= 5) times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
console.log(`\n«Crear pedido» on ${booted.database.kind} (node ${process.version}), ${PRODUCTS.toLocaleString('es-PE')} products, 2 lines`);
console.log(`sequential POST /api/chats/:id/orders   p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  (200 orders)`);

if (booted.database.kind === 'postgres' && process.env.DATABASE_URL) {
  // the floor: the call's transaction as SQL, a fresh code and key per transaction
  const [a, b] = [...products].sort();
  const floor = [
    'BEGIN',
    `select pg_advisory_xact_lock(hashtextextended('order-key:${company}:' || md5(random()::text), 0))`,
    `select id, name, sku, price, stock, image_url, variants from products where company_id = '${company}' and id in ('${a}'::uuid, '${b}'::uuid) order by id for update`,
    `select id, name from colors where company_id = '${company}'`,
    `update products set stock = stock - 1, variants = null, updated_at = now() where company_id = '${company}' and id = '${a}'`,
    `update products set stock = stock - 2, variants = null, updated_at = now() where company_id = '${company}' and id = '${b}'`,
    `with o as (insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id, chat_id)
       values ('${company}', 'B-' || substr(md5(random()::text), 1, 12), 'created', 'chat', 'Cliente de prueba', '51987654321', '{"name":"Cliente de prueba","telefono":"51987654321"}',
               '[{"sku":"CO-000001","name":"Producto 1","quantity":1,"unitPrice":46.9,"total":46.9},{"sku":"CO-000002","name":"Producto 2","quantity":2,"unitPrice":83.9,"total":167.8}]',
               214.7, 214.7, 'PEN', '${lead.id}', '${chat.id}') returning id),
     n as (insert into chat_messages (company_id, chat_id, direction, kind, text, content, provider_message_id, status, sent_at)
       select '${company}', '${chat.id}', 'in', 'system', 'Pedido creado en el chat', '{"system":{"type":"order"}}', 'bench-order:' || o.id, 'received', now() from o),
     r as (insert into order_requests (company_id, key, request_hash, order_id, response)
       select '${company}', 'bench:' || md5(random()::text), md5(random()::text), o.id, 'sealed' from o)
     insert into audit_log (company_id, actor, action, entity, entity_id, changes) select '${company}', '{"type":"user"}', 'create', 'orders', o.id::text, '{}' from o`,
    'COMMIT',
  ];
  console.log(`\n10 connections, ${process.env.BENCH_SECONDS ?? 10} s each; pgbench: the call's transaction as SQL (a new code and key each time)`);
  printTable([
    {
      title: 'POST /api/chats/:id/orders',
      http: await cannon(url, headers, { method: 'POST', body }),
      sql: await pgbench(process.env.DATABASE_URL, floor.map((s) => s.replace(/\s+/g, ' '))),
      // the call's own statements run in a transaction's client, which capture() does not see: the floor's are counted
      queries: floor.length,
    },
  ]);
}
await booted.close();
