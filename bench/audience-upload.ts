/**
 * A Facebook custom audience of 100,000 people uploaded from a label (issue 15, decision 0048) over
 * real HTTP against the local fake of the Marketing API (apps/server/test/fakes/meta-audiences.ts,
 * which checks the token, the hashes, the 10,000-row limit and the upload session): the time
 * from «Subir» to the send finished, the requests that reached Meta against the fewest its limit
 * allows (one create + ceil(people / 10,000) batches), and that every person became a member.
 *
 *   npm run audience-upload --workspace @mostrador/bench                 # PGlite (in memory)
 *   DATABASE_URL=postgres://…/empty_db npm run audience-upload --workspace @mostrador/bench
 *   PEOPLE=20000 npm run audience-upload …                               # another size
 */

import { startFakeGraph } from '../apps/server/test/fakes/meta.js';
import { fakeAdAccount } from '../apps/server/test/fakes/meta-ads.js';
import { fakeAudiences, sha256 } from '../apps/server/test/fakes/meta-audiences.js';
import { benchCompany, startBench } from './start.js';

const PEOPLE = Number(process.env.PEOPLE ?? 100_000);
const TOKEN = 'EAAGbenchAudienceUploadToken0001';
const ACCOUNT = 'act_9988776655';

const meta = fakeAudiences(TOKEN, ACCOUNT);
const ads = fakeAdAccount(TOKEN, ACCOUNT);
const fake = await startFakeGraph(TOKEN, (c, a) => meta.route(c, a) || ads.route(c, a));
process.env.GRAPH_API_URL = fake.url;
const { booted, address, token } = await startBench({ work: true });
const { pool } = booted.database;
const company = await benchCompany(booted, 'Bench audiencias');
const headers = {
  authorization: `Bearer ${token}`,
  'x-company-id': company,
  'content-type': 'application/json',
};
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${address}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
};

await api('PUT', '/meta-ads/account', {
  adAccountId: ACCOUNT,
  accessToken: TOKEN,
});
const label = (await api('POST', '/mostrador-labels', {
  name: 'Clientes benchmark',
  color: '#28156C',
})) as { _id: string };
const filled = performance.now();
// e-mails with stray capitals and spaces, a mobile for two in three
await pool.query(
  `insert into clean_leads (company_id, name, status, mostrador_labels, details, email, telefono)
   select $1, 'Persona ' || i, 'sin-asignar', $2::jsonb, '[]'::jsonb, ' Cliente.' || i || '@Correo.PE', case when i % 3 <> 0 then '9' || lpad(i::text, 8, '0') end
     from generate_series(1, ${PEOPLE}) as i`,
  [company, JSON.stringify([label._id])],
);
console.log(`${PEOPLE.toLocaleString('es')} personas con la etiqueta en ${((performance.now() - filled) / 1000).toFixed(1)} s`);
// the fake checks each hash is one of these people's normalised e-mails or phones
meta.known = new Map();
for (let i = 1; i <= PEOPLE; i++) {
  const email = `cliente.${i}@correo.pe`;
  meta.known.set(sha256(email), email);
  if (i % 3 !== 0) meta.known.set(sha256(`519${String(i).padStart(8, '0')}`), `519${String(i).padStart(8, '0')}`);
}
const audience = (await api('POST', '/facebook-audiences', {
  name: 'Audiencia benchmark',
})) as { _id: string };

const requestsBefore = fake.requests.length;
const started = performance.now();
const asked = (await api('POST', '/clean-leads/send-to-audience', {
  audienceId: audience._id,
  mostradorLabels: [label._id],
})) as { sendId: string; count: number };
const accepted = performance.now() - started;
type Send = {
  status: string;
  sent: number;
  received: number;
  invalid: number;
  skipped: number;
  batchesDone: number;
  batchesTotal: number;
  reason: string | null;
};
let send: Send | undefined;
for (;;) {
  const overview = (await api('GET', '/facebook-audiences/overview')) as {
    payload: Array<{ _id: string; members: number; lastSend: Send | null }>;
  };
  send = overview.payload.find((a) => a._id === audience._id)?.lastSend ?? undefined;
  if (send && send.status !== 'queued' && send.status !== 'uploading') break;
  await new Promise((r) => setTimeout(r, 100));
}
const seconds = (performance.now() - started) / 1000;
const calls = fake.requests.slice(requestsBefore).filter((r) => r.method === 'POST');
const users = calls.filter((r) => /\/users$/.test(r.path));
const creates = calls.filter((r) => /\/customaudiences$/.test(r.path));
const [{ n: members }] = (await pool.query<{ n: number }>('select count(*)::int as n from audience_members where audience_id = $1', [audience._id])).rows;
const fewest = 1 + Math.ceil(PEOPLE / 10_000);

console.log(`
Subida de ${PEOPLE.toLocaleString('es')} personas a una audiencia nueva (${booted.database.kind}):
  POST /clean-leads/send-to-audience respondió en  ${accepted.toFixed(0)} ms (${asked.count.toLocaleString('es')} registros)
  hasta «Terminado»                               ${seconds.toFixed(1)} s (${(PEOPLE / seconds).toFixed(0)} personas/s)
  estado                                          ${send?.status}${send?.reason ? ` (${send.reason})` : ''}
  peticiones a Meta                               ${calls.length} (1 creación + ${users.length} lotes; el mínimo que permite el límite de 10.000 filas: ${fewest})
  creaciones de audiencia                         ${creates.length}
  filas por lote                                  ${users.map((u) => (u.body as { payload: { data: unknown[] } }).payload.data.length).join(', ')}
  sesiones de subida                              ${new Set(meta.batches.map((b) => b.sessionId)).size}
  subidos / recibidos / inválidos / omitidos      ${send?.sent} / ${send?.received} / ${send?.invalid} / ${send?.skipped}
  lotes                                           ${send?.batchesDone} de ${send?.batchesTotal}
  miembros marcados                               ${members}
  hashes que no son de un valor normalizado       ${meta.unknown.length}
  llamadas rechazadas por Meta                    ${meta.refused.length}`);

await booted.close();
await fake.close();
process.exit(send?.status === 'finished' && members === PEOPLE && calls.length === fewest ? 0 : 1);
