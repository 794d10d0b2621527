/**
 * CSAT surveys (issue 31, decision 0100): how many resolutions a second does the `csat.ask`
 * listener take, and how close is it to the database's own rate for the same statements?
 *
 * A fresh company with a WhatsApp line (the sandbox provider: nothing leaves the machine), the
 * survey on, and RESOLUTIONS (2,000) resolved WhatsApp chats whose customers wrote an hour ago.
 * Their `chat.resolved` events are handed to the listener as the spine hands a round (ROUND, 100):
 *  1. resolutions a second and ms per resolution (p50/p99 of the rounds ÷ their size), statements
 *     per resolution (claim, the chat service's send, the outcome) — every survey sent once;
 *  2. the same events handed again (a replay): nothing sent again, and how fast that is;
 *  3. the floor: the statements one resolution issued (captured from every connection), replayed by
 *     pgbench -n -c 1 -j 1 (one lane, as the listener) in the same run, and by -c 10 for the ceiling.
 *     A replayed script re-claims a row that exists (its insert does nothing), so the floor is, if
 *     anything, a little cheaper than the first pass.
 *
 *   DATABASE_URL=postgres://…/db npm run csat --workspace @mostrador/bench     # PostgreSQL (pgbench needs it)
 *   RESOLUTIONS=500 npm run csat --workspace @mostrador/bench                 # PGlite, no pgbench
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DomainEvent } from '@mostrador/contract';
import { createChatService } from '../apps/server/src/modules/chats/service.js';
import { askForCsat, type CsatDeps } from '../apps/server/src/modules/csat/surveys.js';
import { captureAll, DURATION, inline } from './compare.js';
import { benchCompany, failUnansweredFetches, startBench } from './start.js';

const RESOLUTIONS = Number(process.env.RESOLUTIONS ?? 2000);
const ROUND = Number(process.env.ROUND ?? 100);
failUnansweredFetches();
const { booted, user } = await startBench();
const { pool } = booted.database;
const app = booted.app;
const databaseUrl = booted.database.kind === 'postgres' ? process.env.DATABASE_URL : undefined;
const chats = createChatService({ db: booted.database.db, secrets: app.secrets, realtime: app.realtime, jobs: app.jobs, config: app.settings, log: app.log });
const deps: CsatDeps = { db: booted.database.db, log: { warn: () => {} }, send: (companyId, chatId, content, messageId) => chats.send(companyId, chatId, content, { messageId }) };
const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? 0;

const company = await benchCompany(booted, 'Bench CSAT');
await pool.query(`insert into channels (company_id, kind, provider_id) values ($1, 'whatsapp', $2)`, [company, `bench-csat-${Date.now()}`]);
await pool.query(`insert into csat_settings (company_id, enabled, style, question, enabled_at) values ($1, true, 'buttons', '¿Cómo te atendimos?', now() - interval '1 day')`, [company]);
const seeded = performance.now();
const rows = (
  await pool.query<{ chat: string; lead: string }>(
    `with l as (insert into leads (company_id, name, telefono, platform, status)
                select $1, 'Cliente ' || g, '519' || lpad(g::text, 8, '0'), 'whatsapp', 'sin-asignar' from generate_series(1, $2::int) g returning id),
          c as (insert into chats (company_id, contact_name, platform, lead_id, status) select $1, 'Cliente', 'whatsapp', id, 'closed' from l returning id, lead_id),
          w as (insert into chat_windows (chat_id, company_id, last_inbound_at, last_arrived_at) select id, $1, now() - interval '1 hour', now() - interval '1 hour' from c)
     select c.id::text as chat, c.lead_id::text as lead from c`,
    [company, RESOLUTIONS],
  )
).rows;
await pool.query('analyze chats');
await pool.query('analyze csat_surveys');
console.log(`${RESOLUTIONS} chats resueltos sembrados en ${((performance.now() - seeded) / 1000).toFixed(1)} s (${booted.database.kind}, node ${process.version})`);

const eventOf = (c: { chat: string; lead: string }, i: number): DomainEvent =>
  ({
    id: crypto.randomUUID(),
    position: i + 1,
    type: 'chat.resolved',
    version: 1,
    companyId: company,
    aggregate: { type: 'chat', id: c.chat },
    actor: { type: 'user', id: (user as { _id?: string })._id ?? 'bench' },
    payload: { chatId: c.chat, leadId: c.lead },
    occurredAt: new Date().toISOString(),
  }) as DomainEvent;
const events = rows.map(eventOf);

// one resolution first, alone: its statements are the floor's script
const [first, ...rest] = events;
const script = await captureAll(() => askForCsat(deps, [first as DomainEvent]));

async function pass(list: DomainEvent[]) {
  const per: number[] = [];
  let sent = 0;
  let statements = 0;
  const t0 = performance.now();
  for (let i = 0; i < list.length; i += ROUND) {
    const round = list.slice(i, i + ROUND);
    const r0 = performance.now();
    const seen = await captureAll(async () => {
      sent += await askForCsat(deps, round);
    });
    statements += seen.length;
    const ms = performance.now() - r0;
    for (const _ of round) per.push(ms / round.length);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { per, sent, statements, rate: list.length / seconds };
}

const firstPass = await pass(rest);
const [{ n: surveys }] = (await pool.query<{ n: number }>(`select count(*)::int as n from csat_surveys where company_id = $1 and status = 'sent'`, [company])).rows;
const [{ n: messages }] = (await pool.query<{ n: number }>(`select count(*)::int as n from chat_messages where company_id = $1 and kind = 'interactive' and direction = 'out'`, [company])).rows;
console.log(`\ncsat.ask: ${rest.length} resoluciones en rondas de ${ROUND}`);
console.log(`  ${firstPass.rate.toFixed(0)} resoluciones/s · por resolución p50 ${pct(firstPass.per, 50).toFixed(2)} ms, p99 ${pct(firstPass.per, 99).toFixed(2)} ms · ${(firstPass.statements / rest.length).toFixed(1)} sentencias por resolución`);
console.log(`  encuestas enviadas: ${surveys} de ${RESOLUTIONS} (mensajes: ${messages}; duplicadas: ${messages - surveys})`);

const again = await pass(rest);
console.log(`  la misma ronda otra vez (evento repetido): ${again.rate.toFixed(0)} resoluciones/s, ${again.sent} enviadas de nuevo, ${(again.statements / rest.length).toFixed(2)} sentencias por resolución`);

const run = promisify(execFile);
async function pgbench(statements: string[], clients: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mostrador-pgbench-'));
  const file = path.join(dir, 'csat.sql');
  writeFileSync(file, `${statements.map((s) => `${s};`).join('\n')}\n`);
  const url = new URL(databaseUrl as string);
  const host = url.searchParams.get('host') ?? url.hostname;
  const args = ['-n', '-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(DURATION), '-f', file, '-h', host, '-p', url.port || '5432', '-U', url.username || 'postgres', url.pathname.slice(1)];
  const { stdout } = await run('pgbench', args, { maxBuffer: 16 * 1024 * 1024 });
  return {
    tps: Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? /tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0),
    avg: Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? 0),
    failed: Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0),
  };
}

console.log(`\nPiso: las ${script.length} sentencias de una resolución (captadas de todas las conexiones), por pgbench ${DURATION} s`);
if (!databaseUrl) console.log('  n/a: pgbench necesita PostgreSQL (DATABASE_URL)');
else {
  const statements = script.map(inline).filter((s) => s.length > 0);
  const one = await pgbench(statements, 1);
  const ten = await pgbench(statements, 10);
  console.log(`  pgbench -c 1: ${one.tps.toFixed(0)} tps (${one.avg.toFixed(2)} ms) → el oyente da ${((firstPass.rate / one.tps) * 100).toFixed(0)} % del piso de un carril${one.failed ? ` (${one.failed} fallidas)` : ''}`);
  console.log(`  pgbench -c 10: ${ten.tps.toFixed(0)} tps (${ten.avg.toFixed(2)} ms): el techo de la base con 10 conexiones${ten.failed ? ` (${ten.failed} fallidas)` : ''}`);
}
await booted.close();
process.exit(0);
