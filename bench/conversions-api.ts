/**
 * Meta's Conversions API for business messaging (issue 31, decision 0098) over real HTTP against the
 * local fake of the dataset's events endpoint (apps/server/test/fakes/meta-conversions.ts, which
 * checks each event as Meta does): EVENTS click-to-WhatsApp leads' orders paid in one statement
 * (the orders trigger writes `order.paid`; the spine's `conversions-api.record` writes the rows; the
 * `conversions-api.send` job sends them). Figures: the time from the payments to every event sent,
 * events/s, and the requests that reached Meta against the fewest its limit allows
 * (ceil(EVENTS / 1,000)); Meta's documented rate for the Graph API is far above either.
 *
 *   npm run conversions-api --workspace @mostrador/bench                 # PGlite (in memory)
 *   DATABASE_URL=postgres://…/empty_db npm run conversions-api --workspace @mostrador/bench
 *   EVENTS=20000 npm run conversions-api …                               # another size
 */
import { startFakeGraph } from '../apps/server/test/fakes/meta.js';
import { fakeConversions } from '../apps/server/test/fakes/meta-conversions.js';
import { benchCompany, startBench } from './start.js';

const EVENTS = Number(process.env.EVENTS ?? 5000);
const TOKEN = 'EAAGbenchConversionsApiToken00001';
const DATASET = '990011223344556';

const capi = fakeConversions(TOKEN, DATASET);
const fake = await startFakeGraph(TOKEN, capi.route);
process.env.GRAPH_API_URL = fake.url;
const { booted, address, token } = await startBench({ work: true });
const { pool } = booted.database;
const company = await benchCompany(booted, 'Bench conversiones');
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' };
const put = await fetch(`${address}/api/conversions-api/settings`, { method: 'PUT', headers, body: JSON.stringify({ enabled: true, datasetId: DATASET, accessToken: TOKEN }) });
if (!put.ok) throw new Error(`PUT settings: ${put.status} ${await put.text()}`);

const filling = performance.now();
await pool.query(`insert into channels (company_id, kind, provider_id, business_account_id) values ($1, 'whatsapp', '10990000' || floor(random() * 1e7)::bigint, '102290129340398')`, [company]);
await pool.query(
  `with l as (
     insert into leads (company_id, name, platform, status, platform_user_id, telefono)
     select $1, 'Cliente ' || i, 'whatsapp', 'sin-asignar', '519' || lpad(i::text, 8, '0'), '519' || lpad(i::text, 8, '0') from generate_series(1, $2::int) i
     returning id, telefono),
   r as (insert into lead_referrals (company_id, lead_id, platform, referral, created_at)
     select $1, l.id, 'whatsapp', jsonb_build_object('sourceType', 'ad', 'sourceId', '120220000000001', 'ctwaClid', 'ARAk-' || l.telefono), now() - interval '2 days' from l)
   insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, lead_id)
   select $1, 'CAPI-' || l.telefono, 'created', 'chat', 'Cliente', l.telefono, '{}'::jsonb, '[]'::jsonb, 99.9, 99.9, 'PEN', l.id from l`,
  [company, EVENTS],
);
console.log(`${EVENTS.toLocaleString('es')} leads de anuncio con su orden en ${((performance.now() - filling) / 1000).toFixed(1)} s`);

const started = performance.now();
await pool.query(`update orders set status = 'paid' where company_id = $1 and status = 'created'`, [company]);
let recordedAt = 0;
for (;;) {
  const [{ written, sent }] = (
    await pool.query<{ written: number; sent: number }>(
      `select count(*)::int as written, count(*) filter (where status = 'sent')::int as sent from conversion_events where company_id = $1`,
      [company],
    )
  ).rows;
  if (!recordedAt && written >= EVENTS) recordedAt = performance.now();
  if (sent >= EVENTS) break;
  if (performance.now() - started > 600_000) throw new Error(`sin terminar a los 10 minutos: ${written} escritos, ${sent} enviados`);
  await new Promise((r) => setTimeout(r, 100));
}
const seconds = (performance.now() - started) / 1000;
const calls = fake.requests.filter((r) => r.method === 'POST' && /\/events$/.test(r.path));
const fewest = Math.ceil(EVENTS / 1000);
const perRequest = calls.map((c) => (c.body as { data: unknown[] }).data.length);
const [{ dupes }] = (
  await pool.query<{ dupes: number }>(`select (count(*) - count(distinct event_id))::int as dupes from conversion_events where company_id = $1`, [company])
).rows;

// the floor: the same statements the listener and the job issue (write the rows from a recordset,
// claim them in batches of 1,000, mark them sent), straight on the pool, for the same events again
const floorCompany = await benchCompany(booted, 'Bench conversiones piso');
const sample = (await pool.query<{ payload: object }>(`select payload from conversion_events where company_id = $1 limit 1`, [company])).rows[0].payload;
const floorRows = Array.from({ length: EVENTS }, (_, i) => ({ event_id: `purchase:order:floor-${i}`, event_name: 'Purchase', status: 'pending', payload: sample, value: 99.9, currency: 'PEN', event_time: new Date().toISOString() }));
const floorStarted = performance.now();
for (let from = 0; from < EVENTS; from += 500) {
  await pool.query(
    `insert into conversion_events (company_id, event_id, event_name, status, payload, value, currency, event_time, expires_at, next_attempt_at)
     select $1, x.event_id, x.event_name, x.status, x.payload, x.value, x.currency, x.event_time, now() + interval '5 days', x.event_time
       from jsonb_to_recordset($2::jsonb) as x(event_id text, event_name text, status text, payload jsonb, value numeric, currency text, event_time timestamptz)
     on conflict (company_id, event_id) do nothing`,
    [floorCompany, JSON.stringify(floorRows.slice(from, from + 500))],
  );
}
for (;;) {
  const { rows } = await pool.query<{ id: string }>(
    `update conversion_events e set next_attempt_at = now() + interval '300 seconds', attempts = e.attempts + 1
       from (select id from conversion_events where company_id = $1 and status = 'pending' and next_attempt_at <= now() order by next_attempt_at, id limit 1000 for update skip locked) d
      where e.company_id = $1 and e.id = d.id returning e.id::text`,
    [floorCompany],
  );
  if (!rows.length) break;
  await pool.query(`update conversion_events set status = 'sent', sent_at = now(), next_attempt_at = null, events_received = $3 where company_id = $1 and id = any($2::uuid[])`, [
    floorCompany,
    rows.map((r) => r.id),
    rows.length,
  ]);
}
const floorSeconds = (performance.now() - floorStarted) / 1000;

console.log(`
${EVENTS.toLocaleString('es')} compras a la API de conversiones (${booted.database.kind}, node ${process.version}):
  pagos → filas escritas por el oyente            ${((recordedAt - started) / 1000).toFixed(1)} s (${(EVENTS / ((recordedAt - started) / 1000)).toFixed(0)} eventos/s)
  pagos → todo enviado a Meta                     ${seconds.toFixed(1)} s (${(EVENTS / seconds).toFixed(0)} eventos/s)
  piso: las mismas sentencias, solas en el pool   ${floorSeconds.toFixed(1)} s (${(EVENTS / floorSeconds).toFixed(0)} eventos/s)
  peticiones a Meta                               ${calls.length} (el mínimo con el límite de 1.000 eventos por petición: ${fewest})
  eventos por petición                            ${perRequest.join(', ')}
  eventos recibidos por el falso (sin repetir)    ${new Set(capi.received.map((e) => e.event_id)).size}
  event_id repetidos en conversion_events         ${dupes}`);

await booted.close();
await fake.close();
// the requests are a figure beside their floor (a burst split across wake-up slots takes one more); what must hold: each event once
process.exit(capi.received.length === EVENTS && dupes === 0 && calls.length <= 2 * fewest ? 0 : 1);
