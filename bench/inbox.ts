/**
 * The chat inbox of a big company: 100,000 chats and 5,000,000 messages. How fast is the
 * first page of /chat, with and without filters, and a thread?
 *
 * Fills a fresh company in the database (server-side generate_series): one lead per chat over
 * the three platforms, statuses (five in seven chats open, one snoozed, one resolved) and agents spread, 50 messages per chat (alternating inbound
 * and outbound), the chats' last activity spread over a year. Then times over HTTP:
 * GET /api/chats/get_chats (first page; the tabs Mías and Sin asignar — the signed-in admin is
 * one of the ten agents, decision 0025 — by channel; unread only; by agent; a search), the tabs'
 * counts and GET /api/chats/:id/messages (the newest 50 of a thread). Prints p50/p99 of
 * sequential calls; on PostgreSQL also the first page and Mías under load beside pgbench running
 * the very statements they issued (bench/compare.ts).
 *
 *   DATABASE_URL=postgres://…/empty_db npm run inbox --workspace @mostrador/bench
 *   CHATS=10000 MESSAGES_PER_CHAT=20 npm run inbox --workspace @mostrador/bench   # PGlite, smaller
 */
import { measure, printTable } from './compare.js';
import { benchCompany, startBench } from './start.js';

const CHATS = Number(process.env.CHATS ?? 100_000);
const PER_CHAT = Number(process.env.MESSAGES_PER_CHAT ?? 50);
const { booted, address, token } = await startBench();
const { pool } = booted.database;

const company = { id: await benchCompany(booted, 'Bench inbox') };
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company.id };
const agents = (
  await pool.query<{ id: string }>(
    `insert into agentes (company_id, name) select $1, 'Agente ' || i from generate_series(1, 10) as i returning id`,
    [company.id],
  )
).rows.map((r) => r.id);

const started = performance.now();
const BATCH = 20_000;
for (let from = 0; from < CHATS; from += BATCH) {
  const to = Math.min(from + BATCH, CHATS) - 1;
  await pool.query(
    `with people as (
       select i, (array['whatsapp','facebook','instagram'])[1 + i % 3] as platform,
         (array['María','José','Lucía','Carlos','Rosa','Jorge','Ana','Luis','Carmen','Miguel'])[1 + i % 10] || ' ' ||
         (array['Quispe','Flores','Sánchez','Rodríguez','García','Mamani','Huamán','Chávez','Torres','Vargas','Rojas'])[1 + i % 11] || ' ' || i as name,
         now() - ((i * 317) % 31536000 || ' seconds')::interval as last_at
       from generate_series($2::int, $3::int) as i),
     new_leads as (
       insert into leads (company_id, name, telefono, platform, status, agente_id, platform_user_id, created_at, updated_at)
       select $1, name, '519' || lpad((i::bigint * 7919 % 100000000)::text, 8, '0'), platform,
         (array['sin-asignar','re-conectar','informado-al-agente','compra-realizada','compra-fallida'])[1 + i % 5],
         case when i % 5 = 0 then null else ($4::uuid[])[1 + i % 10] end, 'u' || i, last_at - interval '30 days', last_at
       from people returning id, name, platform, platform_user_id, updated_at)
     insert into chats (company_id, contact_name, platform, lead_id, status, snoozed_until, unread_count, last_message_at, last_message_preview, created_at, updated_at)
     select $1, name, platform, id,
       -- five in seven open, one snoozed (for a day), one resolved (decision 0076)
       (array['open','open','open','open','open','snoozed','closed'])[1 + substr(platform_user_id, 2)::int % 7],
       case when substr(platform_user_id, 2)::int % 7 = 5 then to_char((now() + interval '1 day') at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end,
       (substr(platform_user_id, 2)::int % 4),
       to_char(updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'Hola, ¿tienen stock?', updated_at - interval '30 days', updated_at
     from new_leads`,
    [company.id, from, to, agents],
  );
  process.stdout.write(`\rchats ${(to + 1).toLocaleString('es-PE')}`);
}
await pool.query(
  `insert into chat_windows (chat_id, company_id, last_inbound_at)
   select id, company_id, last_message_at::timestamptz from chats where company_id = $1`,
  [company.id],
);
console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);

// the signed-in admin is the fourth agent: their «Mías» holds a tenth of the assigned chats
const me = (await pool.query<{ id: string }>('select id from users where email = $1', ['admin@demo.com'])).rows[0].id;
await pool.query('update agentes set user_id = $1 where id = $2', [me, agents[3]]);

const chatIds = (await pool.query<{ id: string }>('select id from chats where company_id = $1 order by id', [company.id])).rows.map((r) => r.id);
const msgStart = performance.now();
const CHAT_BATCH = Math.max(1, Math.floor(200_000 / PER_CHAT));
for (let from = 0; from < chatIds.length; from += CHAT_BATCH) {
  const ids = chatIds.slice(from, from + CHAT_BATCH);
  await pool.query(
    `insert into chat_messages (company_id, chat_id, direction, kind, text, provider_message_id, status, sent_at, created_at, updated_at)
     select $1, c.id, case when n % 2 = 0 then 'in' else 'out' end, 'text',
       case when n % 2 = 0 then 'Hola, quisiera saber el precio del producto ' || n else 'Claro, le envío el detalle: S/ ' || (n * 7 % 300) end,
       'wamid.B' || replace(c.id::text, '-', '') || n, case when n % 2 = 0 then 'received' else 'read' end,
       c.last_message_at::timestamptz - ((${PER_CHAT} - n) || ' minutes')::interval, now(), now()
     from chats c cross join generate_series(1, ${PER_CHAT}) as n
     where c.company_id = $1 and c.id = any($2::uuid[])`,
    [company.id, ids],
  );
  process.stdout.write(`\rmessages ${Math.min((from + CHAT_BATCH) * PER_CHAT, chatIds.length * PER_CHAT).toLocaleString('es-PE')}`);
}
await pool.query('analyze leads; analyze chats; analyze chat_messages; analyze chat_windows');
console.log(`  (${((performance.now() - msgStart) / 1000).toFixed(1)} s)`);

async function timed(title: string, url: string, n = 60) {
  const times: number[] = [];
  let body: { totalDocs?: number; payload?: unknown[] } = {};
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(`${address}${url}`, { headers });
    body = (await res.json()) as typeof body;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    if (i >= 5) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  const total = body.totalDocs === undefined ? '' : `totalDocs ${body.totalDocs.toLocaleString('es-PE')}, `;
  console.log(`${title.padEnd(42)} p50 ${p(0.5).padStart(7)} ms  p99 ${p(0.99).padStart(7)} ms  (${total}${body.payload?.length} rows)`);
}

console.log(
  `\n/chat on ${booted.database.kind}: ${CHATS.toLocaleString('es-PE')} chats, ${(CHATS * PER_CHAT).toLocaleString('es-PE')} messages in one company (node ${process.version})`,
);
await timed('inbox first page (10, newest activity)', '/api/chats/get_chats');
await timed('inbox, Mías (the admin’s agent)', '/api/chats/get_chats?view=mine');
await timed('inbox, Sin asignar', '/api/chats/get_chats?view=unassigned');
await timed('the tabs’ counts (Mías, Sin asignar, Todas)', '/api/chats/counts', 20);
// what /chat asks by default (decision 0076): the open chats, and the counts per status
await timed('inbox, Abiertos', '/api/chats/get_chats?status=open');
await timed('inbox, Abiertos · Mías', '/api/chats/get_chats?status=open&view=mine');
await timed('inbox, Pospuestos', '/api/chats/get_chats?status=snoozed');
await timed('counts under Abiertos (tabs + byStatus)', '/api/chats/counts?status=open', 20);
await timed('inbox, WhatsApp only', '/api/chats/get_chats?platform=whatsapp');
await timed('inbox, unread only', '/api/chats/get_chats?unread=true');
await timed('inbox, one agent', `/api/chats/get_chats?agenteId=${agents[3]}`);
await timed('inbox, search "Quispe 4323"', '/api/chats/get_chats?filter=Quispe%204323', 10);
// the spec's page half-way down the inbox (a deferred join: decision 0036), and the same chats by cursor
const DEEP = Math.max(2, Math.floor(CHATS / 10 / 2));
await timed(`inbox page ${DEEP.toLocaleString('es-PE')} (offset ${((DEEP - 1) * 10).toLocaleString('es-PE')})`, `/api/chats/get_chats?page=${DEEP}`, 10);
const before = (await (await fetch(`${address}/api/chats/get_chats?page=${DEEP - 1}`, { headers })).json()) as { nextCursor?: string };
if (before.nextCursor) await timed('the same page by cursor', `/api/chats/get_chats?cursor=${before.nextCursor}`);
await timed('recent_chats', '/api/chats/recent_chats');
await timed('thread: newest 50 messages', `/api/chats/${chatIds[Math.floor(chatIds.length / 2)]}/messages`);
if (booted.database.kind === 'postgres' && process.env.DATABASE_URL) {
  console.log(`\n10 connections, ${process.env.BENCH_SECONDS ?? 10} s each; pgbench: the statements each call issued, same parameters`);
  printTable([
    await measure(pool, process.env.DATABASE_URL, 'GET /api/chats/get_chats (first page)', `${address}/api/chats/get_chats`, headers),
    await measure(pool, process.env.DATABASE_URL, 'GET /api/chats/get_chats?view=mine', `${address}/api/chats/get_chats?view=mine`, headers),
  ]);
}
await booted.close();
