/**
 * The sending engine under faults (issue 13, decision 0041), on PostgreSQL, against a fake
 * WhatsApp line (apps/server/test/fakes/cloud-line.ts) that keeps the log of every message it
 * accepted and sends the `sent` status webhooks a real line sends.
 *
 * The API server runs in this process (no jobs); the jobs run in `npm run worker`-style child
 * processes, which this benchmark kills with SIGKILL. Four runs:
 *
 * 0. the floor: the WhatsApp client alone calling the fake line (no database), 64 at a time;
 * 1. pipeline throughput: a campaign of RECIPIENTS people in chunks of 1,000 with an unlimited
 *    line and WHATSAPP_THROUGHPUT at its maximum — sends per second, first to last (goal ≥ 2,000);
 * 2. faults: the same people, another campaign, paced at FAULT_RATE/s while the worker is
 *    killed (kill -9) KILLS times and PostgreSQL is restarted once; then reconciled against the
 *    line's log: duplicates (a person accepted twice) and losses (a person never accepted);
 * 3. a line limited to 80/s (Meta's default) and the engine at 80/s: the share of the limit reached;
 * 4. stop latency: a chunk stopped mid-send, three times — from the stop call to the line's
 *    last accepted message (goal ≤ 2 s).
 *
 *   ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres npm run campaign-faults --workspace @mostrador/bench
 *   RECIPIENTS=20000 KILLS=4 …   # a smaller run
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cloudLine } from '../apps/server/test/fakes/cloud-line.js';
import { DEMO_APP_SECRET, startFakeGraph } from '../apps/server/test/fakes/meta.js';
import { createGraphClient } from '../apps/server/src/integrations/meta/send.js';
import { benchCompany, startBench } from './start.js';

const RECIPIENTS = Number(process.env.RECIPIENTS ?? 100_000);
const KILLS = Number(process.env.KILLS ?? 10);
const FAULT_RATE = Number(process.env.FAULT_RATE ?? 1000);
const ADMIN_URL = process.env.ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_CLUSTER = process.env.PG_CLUSTER ?? '15 main';
const PG_RESTART = process.env.PG_RESTART !== '0';
/** Which runs: floor, pipeline, faults, limited (with the stop latency); all by default. */
const PHASES = new Set((process.env.PHASES ?? 'floor,pipeline,faults,limited').split(','));
const TOKEN = 'EAAGbenchCampaignToken0000000000000000';
const LINE = '199000000000041';
const WABA = '199290129340041';
const CHUNK = 1000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// a fresh database for this run
const dbName = `mostrador_bench_campaign_${Date.now()}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database ${dbName}`);
await admin.end();
const url = new URL(ADMIN_URL);
url.pathname = `/${dbName}`;
const DATABASE_URL = url.toString();

const line = cloudLine(TOKEN);
const fake = await startFakeGraph(TOKEN, line.route);
const env = {
  DATABASE_URL,
  SEND_PROVIDER: 'graph',
  GRAPH_API_URL: fake.url,
  SECRETS_KEY: 'bench-campaign-secrets-key-0123456789abcdef',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-bench',
  WORKERS: 'off',
  // a run outlasts the default 15-minute session token
  ACCESS_TOKEN_TTL: '86400',
};
Object.assign(process.env, env);
const { booted, address, token } = await startBench({ work: false });
const webhook = { url: `${address}/api/webhooks/whatsapp`, secret: DEMO_APP_SECRET, everyMs: 200 };
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
pool.on('error', () => undefined); // PostgreSQL restarts on purpose below
const q = async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => {
  for (let i = 0; ; i++) {
    try {
      return (await pool.query<T>(text, values)).rows;
    } catch (error) {
      if (i > 30) throw error;
      await sleep(1000);
    }
  }
};

const companyId = await benchCompany(booted, 'Bench campañas');
const api = async (method: string, p: string, body?: object) => {
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`${address}/api${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'x-company-id': companyId, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 500 && i < 30) throw new Error(JSON.stringify(json));
      if (res.status >= 400) throw Object.assign(new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`), { fatal: true });
      return json;
    } catch (error) {
      if ((error as { fatal?: boolean }).fatal || i >= 30) throw error;
      await sleep(1000);
    }
  }
};

await api('PUT', '/channels/whatsapp', { phoneNumberId: LINE, businessAccountId: WABA, accessToken: TOKEN });
await q(
  `insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, body, body_examples, variable_fields)
   values ($1, $2, '7999001', 'promo_bench', 'es_PE', 'MARKETING', 'APPROVED', 'Hola {{1}}, esta semana 2x1 en gaseosas.', '["María"]', '["nombre"]')`,
  [companyId, WABA],
);
const label = ((await api('POST', '/mostrador-labels', { name: 'Bench campañas', color: '#28156C' })) as { _id: string })._id;

// RECIPIENTS people with a WhatsApp chat each, in creation order
let t0 = performance.now();
for (let from = 0; from < RECIPIENTS; from += 20_000) {
  const to = Math.min(from + 20_000, RECIPIENTS) - 1;
  await q(
    `with people as (
       select i, 'Cliente ' || i as name, '519' || lpad((10000000 + i)::text, 8, '0') as phone,
              now() - interval '90 days' + make_interval(secs => i) as at
         from generate_series($2::int, $3::int) as i),
     cl as (
       insert into clean_leads (company_id, name, telefono, status, mostrador_labels, created_at, updated_at)
       select $1, name, phone, 'sin-asignar', jsonb_build_array($4::text), at, at from people returning id, name, telefono, created_at),
     l as (
       insert into leads (company_id, clean_lead_id, name, telefono, platform, status, platform_user_id, created_at, updated_at)
       select $1, id, name, telefono, 'whatsapp', 'sin-asignar', telefono, created_at, created_at from cl returning id, name, created_at)
     insert into chats (company_id, contact_name, platform, lead_id, status, unread_count, last_message_at, last_message_preview, created_at, updated_at)
     select $1, name, 'whatsapp', id, 'open', 0, to_char(created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'Hola', created_at, created_at from l`,
    [companyId, from, to, label],
  );
  process.stdout.write(`\rpersonas ${(to + 1).toLocaleString('es-PE')}`);
}
await q('analyze clean_leads; analyze leads; analyze chats');
console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
const segment = ((await api('POST', '/marketing-segments', { name: 'Bench todos', filters: { mostradorLabelIds: [label] } })) as { _id: string })._id;

async function campaign(name: string, chunkSize = CHUNK) {
  return ((await api('POST', '/marketing-campaigns', { name, segmentId: segment, channel: 'whatsapp', templateName: 'promo_bench', chunkSize, status: 'pending' })) as { _id: string })._id;
}
async function sendChunks(campaignId: string, pages: number, chunkSize = CHUNK) {
  const ids: string[] = [];
  for (let page = 0; page < pages; page++) {
    ids.push(((await api('POST', '/marketing-campaigns/send_chunk', { chunkPage: page, chunkSize, segment, campaign: campaignId })) as { chunk: { _id: string } }).chunk._id);
  }
  return ids;
}
const outbox = (campaignId: string) =>
  q<{ status: string; n: number }>(`select status, count(*)::int as n from send_recipients where dedupe_key = $1 group by 1`, [campaignId]).then(
    (rows) => Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>,
  );
async function waitDone(campaignId: string, total: number, label: string, onTick?: () => Promise<void>) {
  for (;;) {
    const counts = await outbox(campaignId);
    const settled = (counts.sent ?? 0) + (counts.failed ?? 0) + (counts.skipped ?? 0);
    process.stdout.write(`\r${label}: ${settled.toLocaleString('es-PE')} / ${total.toLocaleString('es-PE')}   `);
    if (settled >= total && !(counts.queued ?? 0) && !(counts.sending ?? 0)) return counts;
    if (onTick) await onTick();
    await sleep(500);
  }
}

const results: Array<[string, string]> = [];
// each figure is printed as soon as it is known (a later failure does not lose it)
const report = (run: string, result: string) => {
  results.push([run, result]);
  console.log(`\n${run}: ${result}`);
};
let worker: ChildProcess | undefined;
function startWorker(rate: number) {
  worker = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/worker.ts'], {
    cwd: root,
    env: { ...process.env, ...env, WHATSAPP_THROUGHPUT: String(rate), LOG_LEVEL: 'error', NODE_ENV: 'test' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
async function stopWorker(signal: NodeJS.Signals = 'SIGTERM') {
  const w = worker;
  if (!w || w.exitCode !== null) return;
  const exited = new Promise((r) => w.once('exit', r));
  w.kill(signal);
  await exited;
}
const byCallback = (ids: Set<string>) => line.log.filter((l) => l.callbackData && ids.has(l.callbackData));
const rate = (entries: Array<{ at: number }>) => {
  const ats = entries.map((e) => e.at).sort((a, b) => a - b);
  return ats.length > 1 ? (ats.length - 1) / ((ats[ats.length - 1] - ats[0]) / 1000) : 0;
};

// 0. the floor: the same WhatsApp client calling the same fake line, 64 at a time, nothing else (no database)
let floor = 0;
if (PHASES.has('floor')) {
  const client = createGraphClient(fake.url);
  const n = Math.min(RECIPIENTS, 20_000);
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < n) {
        const i = next++;
        await client.send({ channel: 'whatsapp', accountId: LINE, accessToken: TOKEN, to: `5198${String(i).padStart(7, '0')}` }, { kind: 'text', text: 'Hola' });
      }
    }),
  );
  floor = n / ((performance.now() - t) / 1000);
  report('floor: client → line, no database', `${n.toLocaleString('es-PE')} calls at ${floor.toFixed(0)}/s (64 in flight)`);
}

// 1. pipeline throughput, unlimited line (no status webhooks: the pipeline alone)
if (PHASES.has('pipeline')) {
  const id = await campaign('Bench rendimiento');
  startWorker(1_000_000);
  t0 = performance.now();
  await sendChunks(id, Math.ceil(RECIPIENTS / CHUNK));
  const counts = await waitDone(id, RECIPIENTS, 'rendimiento');
  const wall = (performance.now() - t0) / 1000;
  const ids = new Set((await q<{ id: string }>('select id from send_recipients where dedupe_key = $1', [id])).map((r) => r.id));
  const log = byCallback(ids);
  console.log();
  report('pipeline, unlimited line', `${RECIPIENTS.toLocaleString('es-PE')} sent in ${wall.toFixed(1)} s from the first send_chunk: ${(RECIPIENTS / wall).toFixed(0)}/s; first to last accepted ${rate(log).toFixed(0)}/s = ${((rate(log) / floor) * 100).toFixed(0)} % of the floor (goal ≥ 2,000/s); outbox ${JSON.stringify(counts)}`);
  await stopWorker();
}

// 2. faults: kill -9 the worker KILLS times, restart PostgreSQL once, then reconcile with the line's log
// (from here the line sends its status webhooks, which is how a killed worker's claimed rows are settled)
line.webhook = webhook;
if (PHASES.has('faults')) {
  const id = await campaign('Bench fallas');
  startWorker(FAULT_RATE);
  await sendChunks(id, Math.ceil(RECIPIENTS / CHUNK));
  let kills = 0;
  let restarted = false;
  let nextFault = Date.now() + 4000;
  t0 = performance.now();
  const counts = await waitDone(id, RECIPIENTS, 'fallas', async () => {
    if (Date.now() < nextFault) return;
    if (kills < KILLS) {
      await stopWorker('SIGKILL');
      kills++;
      if (PG_RESTART && kills === Math.ceil(KILLS / 2) && !restarted) {
        execSync(`pg_ctlcluster ${PG_CLUSTER} restart`, { stdio: 'ignore' });
        restarted = true;
      }
      await sleep(500);
      startWorker(FAULT_RATE);
      nextFault = Date.now() + 3000 + Math.random() * 5000;
    }
  });
  const wall = (performance.now() - t0) / 1000;
  await sleep(3000); // the last status webhooks
  const rows = await q<{ id: string; phone: string; status: string }>('select id, phone, status from send_recipients where dedupe_key = $1', [id]);
  const ids = new Set(rows.map((r) => r.id));
  const log = byCallback(ids);
  const perPerson = new Map<string, number>();
  for (const l of log) perPerson.set(l.callbackData as string, (perPerson.get(l.callbackData as string) ?? 0) + 1);
  const duplicates = [...perPerson.values()].filter((n) => n > 1).reduce((a, n) => a + n - 1, 0);
  const lost = rows.filter((r) => r.status !== 'skipped' && !perPerson.has(r.id)).length;
  if (duplicates && process.env.SENDING_TRACE) {
    const twice = [...perPerson.entries()].filter(([, n]) => n > 1).slice(0, 5).map(([cb]) => cb);
    for (const cb of twice) {
      const ats = log.filter((l) => l.callbackData === cb).map((l) => l.at);
      const [m] = await q('select r.attempts, r.status, m.provider_message_id, m.status as ms from send_recipients r left join chat_messages m on m.id = r.id where r.id = $1', [cb]);
      console.log('\nduplicado', cb, ats.map((a) => new Date(a).toISOString().slice(11, 23)).join(' → '), JSON.stringify(m));
    }
  }
  const wrong = rows.filter((r) => r.status !== 'sent').length;
  console.log();
  report(
    'faults',
    `${RECIPIENTS.toLocaleString('es-PE')} people, ${kills} × kill -9 of the worker, PostgreSQL restarted ${restarted ? 'once' : 'never'}: finished in ${wall.toFixed(1)} s; line log ${log.length.toLocaleString('es-PE')} accepted → duplicates ${duplicates}, lost ${lost}; outbox not sent: ${wrong}; ${JSON.stringify(counts)}`,
  );
  await stopWorker();
}

// 3. a line limited to 80/s and the engine at 80/s
if (PHASES.has('limited')) {
  line.ratePerSecond = 80;
  const id = await campaign('Bench límite 80', 1000);
  startWorker(80);
  const refusedBefore = line.refused.throughput;
  await sendChunks(id, 2);
  await waitDone(id, 2000, 'límite 80/s');
  const ids = new Set((await q<{ id: string }>('select id from send_recipients where dedupe_key = $1', [id])).map((r) => r.id));
  const achieved = rate(byCallback(ids));
  console.log();
  report('limited line (80/s)', `2,000 sent at ${achieved.toFixed(1)}/s = ${((achieved / 80) * 100).toFixed(1)} % of the limit (goal ≥ 95 %); refused by the line: ${line.refused.throughput - refusedBefore}`);

  // 4. stop latency, three times, on the same line
  const latencies: number[] = [];
  const sid = await campaign('Bench detener', 1000);
  await sendChunks(sid, 1);
  const sids = async () => new Set((await q<{ id: string }>('select id from send_recipients where dedupe_key = $1', [sid])).map((r) => r.id));
  for (let round = 0; round < 3; round++) {
    await sleep(3000);
    const asked = Date.now();
    await api('POST', '/marketing-campaigns/stop_manually_chunk', { campaignId: sid, chunkPage: 0 });
    await sleep(3000);
    const last = Math.max(...byCallback(await sids()).map((l) => l.at));
    latencies.push(Math.max(0, last - asked));
    await api('POST', '/marketing-campaigns/resume_chunk', { campaignId: sid, chunkPage: 0 });
  }
  report('stop latency', `${latencies.map((l) => `${l} ms`).join(', ')} from the stop call to the line's last accepted message (goal ≤ 2,000 ms)`);
  await stopWorker();
}

console.log('\n| run | result |\n|---|---|');
for (const [k, v] of results) console.log(`| ${k} | ${v} |`);
line.close();
await pool.end();
await booted.close();
await fake.close();
const cleanup = new pg.Client({ connectionString: ADMIN_URL });
await cleanup.connect();
await cleanup.query(`drop database if exists ${dbName} with (force)`);
await cleanup.end();
process.exit(0);
