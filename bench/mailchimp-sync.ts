/**
 * A Mailchimp labels sync of 50,000 people (issue 15, decision 0051) over real HTTP against the
 * local fake of the Marketing API (apps/server/test/fakes/mailchimp.ts), each answer delayed as a
 * far server would (LATENCY_MS, default 50): the product's own path — a segment labelled with
 * set_mostrador_labels_massive and hasToSendToMailchimp, the `mailchimp.sync-labels` job — and
 * how long it takes, the requests made beside the floor (an upsert and a tags call per person),
 * the most requests in flight at once as the fake counted them (Mailchimp allows 10) and its 429s.
 *
 *   npm run mailchimp-sync --workspace @mostrador/bench                  # PGlite (in memory)
 *   DATABASE_URL=postgres://…/empty_db npm run mailchimp-sync --workspace @mostrador/bench
 *   PEOPLE=5000 LATENCY_MS=20 npm run mailchimp-sync …                   # another size
 */
import { startFakeMailchimp } from '../apps/server/test/fakes/mailchimp.js';
import { benchCompany, startBench } from './start.js';

const PEOPLE = Number(process.env.PEOPLE ?? 50_000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);
const KEY = 'benchbenchbench0000-us21';
const LIST = 'bench00001';

const fake = await startFakeMailchimp({ latencyMs: LATENCY_MS });
fake.keys.set(KEY, new Map([[LIST, 'Audiencia benchmark']]));
// startBench reads the environment: the app's Mailchimp is the fake
process.env.MAILCHIMP_API_URL = fake.template;
const { booted, address, token } = await startBench({ work: true });
const company = await benchCompany(booted, 'Bench Mailchimp');
const headers = { authorization: `Bearer ${token}`, 'x-company-id': company, 'content-type': 'application/json' };
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${address}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
};

await api('POST', '/mailchimps', { name: 'Benchmark', serverPrefix: 'us21', listId: LIST, apiKey: KEY });
const group = (await api('POST', '/mostrador-labels', { name: 'Clientes', color: '#1976d2' })) as { _id: string };
const sent = (await api('POST', '/mostrador-labels', { name: 'Boletín de junio', color: '#9c27b0' })) as { _id: string };
// the people: one in 50 without e-mail, one in 100 opted out; every one with the group's label
await booted.database.pool.query(
  `insert into clean_leads (company_id, name, email, telefono, status, mostrador_labels, opt_out)
   select $1, 'Cliente ' || g, case when g % 50 = 0 then null else 'cliente' || g || '@correo-bench.pe' end, (51900000000 + g)::text,
          'sin-asignar', jsonb_build_array($2::text), g % 100 = 1
     from generate_series(1, $3::int) g`,
  [company, group._id, PEOPLE],
);
const segment = (await api('POST', '/marketing-segments', { name: 'Clientes', filters: { mostradorLabelIds: [group._id] } })) as { _id: string };

fake.reset();
const started = performance.now();
const { mailchimpSyncId } = (await api('POST', '/clean-leads/set_mostrador_labels_massive', {
  segmentId: segment._id,
  mostradorLabelIds: [sent._id],
  hasToSendToMailchimp: true,
})) as { mailchimpSyncId: string };
let sync: Record<string, number | string>;
let lastShown = 0;
for (;;) {
  sync = (await api('GET', `/mailchimp/syncs/${mailchimpSyncId}`)) as typeof sync;
  if (sync.status === 'done' || sync.status === 'failed') break;
  if (performance.now() - lastShown > 30_000) {
    lastShown = performance.now();
    console.log(`  … ${sync.done} of ${sync.total} after ${((performance.now() - started) / 1000).toFixed(0)} s, ${fake.maxInFlight} at most in flight`);
  }
  await new Promise((r) => setTimeout(r, 250));
}
const seconds = (performance.now() - started) / 1000;
const floor = 2 * Number(sync.ok) + Number(sync.failed);
const ideal = (floor * LATENCY_MS) / 1000 / 10;

console.log(`\nMailchimp labels sync, ${PEOPLE.toLocaleString('en')} people, ${LATENCY_MS} ms per request at the fake, ${booted.database.kind}`);
console.log(
  `${sync.status}  ${seconds.toFixed(1)} s  ${Math.round(Number(sync.done) / seconds)} contacts/s  ` +
    `ok ${sync.ok} error ${sync.failed} skipped ${sync.skipped}  requests ${fake.requests.length} (sync counted ${sync.requests}; floor ${floor})`,
);
console.log(`most requests in flight at once: ${fake.maxInFlight} (Mailchimp's limit 10); 429s answered: ${fake.tooMany}`);
console.log(`floor at 10 connections and ${LATENCY_MS} ms: ${ideal.toFixed(1)} s → ${((ideal / seconds) * 100).toFixed(0)} % of it reached`);

await booted.close();
await fake.close();
process.exit(0);
