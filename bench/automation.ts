/**
 * Automation rules (issue 29, decision 0077): what do rules cost each event, and how fast do due
 * timers fire?
 *
 * - Rule evaluation: a company with RULES (200) enabled rules on `message.received`, each with two
 *   conditions (text contains, channel), one of them matching. EVENTS customer messages are handed
 *   to the engine as the spine hands a round (50): statements per event (the rules and what they
 *   see of the round's chats are one statement each for the round), and per event the time of the
 *   whole round ÷ events against the floor: the round's context statement alone, in the same run.
 * - Timers: TIMERS (100,000) due timers of a timer rule (no conditions, a note as its action) on as
 *   many chats, fired by `fireTimers` as the `automation.timers` job does: timers a second, and the
 *   runs and notes written (each exactly once: duplicates and losses are counted).
 *
 * - Timers across kill -9 (DATABASE_URL only): TIMERS more, fired by a worker process that is
 *   killed with SIGKILL CRASHES (5) times and started again: duplicates, losses, the last one's lag.
 *
 *   DATABASE_URL=postgres://…/empty_db npm run automation --workspace @mostrador/bench
 *   TIMERS=10000 npm run automation --workspace @mostrador/bench          # PGlite, smaller
 */
import type { DomainEvent } from '@mostrador/contract';
import pg from 'pg';
import { engineDepsOf } from '../apps/server/src/modules/automation/deps.js';
import { contextOf, contextsOf, runRules } from '../apps/server/src/modules/automation/engine.js';
import { fireTimers } from '../apps/server/src/modules/automation/timers.js';
import { benchCompany, failUnansweredFetches, startBench } from './start.js';

const RULES = Number(process.env.RULES ?? 200);
const EVENTS = Number(process.env.EVENTS ?? 500);
const TIMERS = Number(process.env.TIMERS ?? 100_000);
failUnansweredFetches();
const { booted } = await startBench();
const { pool } = booted.database;
const deps = engineDepsOf(booted.app as never);

let statements = 0;
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
  statements++;
  return clientQuery.apply(this, args);
};
const pct = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

// ——— rule evaluation ———
const company = await benchCompany(booted, 'Bench reglas');
const [label] = (await pool.query<{ id: string }>(`insert into mostrador_labels (company_id, name, color) values ($1, 'Cotización', '#1e90ff') returning id::text`, [company])).rows;
await pool.query(
  `insert into automation_rules (company_id, name, enabled, position, trigger_event, match, conditions, actions)
   select $1, 'Regla ' || g, true, g, 'message.received', 'all',
          jsonb_build_array(jsonb_build_object('field', 'text', 'op', 'contains', 'value', case when g = $2 then 'precio' else 'palabra' || g end),
                            jsonb_build_object('field', 'channel', 'op', 'is', 'value', 'whatsapp')),
          jsonb_build_array(jsonb_build_object('type', 'add_label', 'labelId', $3::text))
     from generate_series(1, $2::int) g`,
  [company, RULES, label.id],
);
const chats = (
  await pool.query<{ chat: string; lead: string; message: string }>(
    `with l as (insert into leads (company_id, name, platform, status) select $1, 'Cliente ' || g, 'whatsapp', 'sin-asignar' from generate_series(1, $2::int) g returning id),
          c as (insert into chats (company_id, contact_name, platform, lead_id, status) select $1, 'Cliente', 'whatsapp', id, 'open' from l returning id, lead_id)
     , m as (insert into chat_messages (company_id, chat_id, direction, kind, text, status)
             select $1, c.id, 'in', 'text', case when random() < 0.1 then '¿Cuál es el precio?' else 'Hola, buenas tardes' end, 'received' from c returning id, chat_id)
     select c.id::text as chat, c.lead_id::text as lead, m.id::text as message from c join m on m.chat_id = c.id`,
    [company, EVENTS],
  )
).rows;
const events: DomainEvent[] = chats.map((c, i) => ({
  id: crypto.randomUUID(),
  position: i + 1,
  type: 'message.received',
  version: 1,
  companyId: company,
  aggregate: { type: 'chat', id: c.chat },
  actor: { type: 'provider', id: 'whatsapp' },
  payload: { chatId: c.chat, leadId: c.lead, messageId: c.message, channel: 'whatsapp', kind: 'text' },
  occurredAt: new Date().toISOString(),
})) as DomainEvent[];

// the floor: the one statement the engine needs, what the rules see of a round of 50 events, alone, per event
const floor: number[] = [];
for (let i = 0; i < chats.length; i += 50) {
  const round = chats.slice(i, i + 50);
  const t0 = performance.now();
  await contextsOf(
    deps.db,
    round.map((c) => ({ companyId: company, chatId: c.chat, messageId: c.message })),
  );
  const ms = performance.now() - t0;
  for (const _ of round) floor.push(ms / round.length);
}
// the engine, a round of 50 events at a time as the spine hands them
const per: number[] = [];
const before = statements;
let ran = 0;
for (let i = 0; i < events.length; i += 50) {
  const round = events.slice(i, i + 50);
  const t0 = performance.now();
  ran += await runRules(deps, round);
  const ms = performance.now() - t0;
  for (const _ of round) per.push(ms / round.length);
}
const spent = statements - before;
const matched = chats.length ? ran : 0;
console.log(`\nReglas: ${RULES} reglas activas en message.received, ${events.length} eventos en rondas de 50 (${matched} con su regla cumplida)`);
console.log(`  sentencias por evento: ${(spent / events.length).toFixed(2)} (las que corrieron su regla suman su ejecución y su acción)`);
console.log(`  por evento: p50 ${pct(per, 50).toFixed(2)} ms, p99 ${pct(per, 99).toFixed(2)} ms`);
console.log(`  piso (la sentencia del contexto de la ronda sola, por evento): p50 ${pct(floor, 50).toFixed(2)} ms, p99 ${pct(floor, 99).toFixed(2)} ms → ${(pct(per, 50) / pct(floor, 50)).toFixed(2)}× el piso`);
// the judging alone, in memory: every rule against every context
{
  const { judge } = await import('../apps/server/src/modules/automation/engine.js');
  const rules = (await pool.query(`select id::text, company_id::text, name, trigger_event, match, conditions, actions from automation_rules where company_id = $1`, [company])).rows;
  const ctx = await contextOf(deps.db, company, { chatId: chats[0].chat, messageId: chats[0].message });
  const judged: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now();
    for (const r of rules) judge(r, ctx);
    judged.push(performance.now() - t0);
  }
  console.log(`  juzgar las ${rules.length} reglas en memoria: p50 ${pct(judged, 50).toFixed(3)} ms, p99 ${pct(judged, 99).toFixed(3)} ms (meta p99 ≤ 1 ms)`);
}

// ——— timers ———
const timerCompany = await benchCompany(booted, 'Bench temporizadores');
const [rule] = (
  await pool.query<{ id: string }>(
    `insert into automation_rules (company_id, name, enabled, position, trigger_event, timer, match, conditions, actions)
     values ($1, 'Sin actividad', true, 1, 'timer', '{"kind":"no_activity","minutes":60}'::jsonb, 'all', '[]'::jsonb, '[{"type":"note","text":"Sin actividad"}]'::jsonb) returning id::text`,
    [timerCompany],
  )
).rows;
const t0 = performance.now();
await pool.query(
  `with l as (insert into leads (company_id, name, platform, status) select $1, 'Persona ' || g, 'whatsapp', 'sin-asignar' from generate_series(1, $3::int) g returning id),
        c as (insert into chats (company_id, contact_name, platform, lead_id, status) select $1, 'Persona', 'whatsapp', id, 'open' from l returning id)
   insert into automation_timers (company_id, rule_id, subject, chat_id, due_at)
   select $1, $2, 'chat:' || c.id, c.id, now() - interval '1 second' from c`,
  [timerCompany, rule.id, TIMERS],
);
console.log(`\nTemporizadores: ${TIMERS} vencidos sembrados en ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const started = performance.now();
let fired = 0;
for (;;) {
  fired += await fireTimers(deps);
  const [{ left }] = (await pool.query<{ left: string }>(`select count(*) as left from automation_timers where rule_id = $1`, [rule.id])).rows;
  if (Number(left) === 0 || performance.now() - started > 600_000) break;
}
const seconds = (performance.now() - started) / 1000;
const [{ runs, distinct_events, notes, span }] = (
  await pool.query<{ runs: string; distinct_events: string; notes: string; span: number }>(
    `select (select count(*) from automation_runs where rule_id = $1) as runs, (select count(distinct event_id) from automation_runs where rule_id = $1) as distinct_events,
            (select count(*) from chat_messages where company_id = $2 and kind = 'note') as notes,
            (select extract(epoch from max(created_at) - min(created_at))::float8 from automation_runs where rule_id = $1) as span`,
    [rule.id, timerCompany],
  )
).rows;
console.log(`  disparados ${fired} en ${seconds.toFixed(1)} s: ${(fired / seconds).toFixed(0)} temporizadores/s`);
console.log(`  ejecuciones ${runs} (eventos distintos ${distinct_events}), notas escritas ${notes}: duplicados ${Number(runs) - Number(distinct_events)}, perdidos ${TIMERS - Number(distinct_events)}`);
console.log(`  el último disparó ${seconds.toFixed(1)} s después de su hora (meta: 60 s; entre la primera ejecución y la última ${Number(span).toFixed(1)} s)`);

// ——— timers across kill -9 of the worker ———
// CRASHES (5) times a worker process firing TIMERS due timers is killed with SIGKILL at a random
// moment and started again; the timers it had claimed wait out their lease (LEASE, 10 s here;
// AUTOMATION_TIMER_LEASE_SECONDS) and are fired by the next. Needs DATABASE_URL (processes share it).
const CRASHES = Number(process.env.CRASHES ?? 5);
if (process.env.DATABASE_URL && CRASHES > 0) {
  const { fork } = await import('node:child_process');
  const crashCompany = await benchCompany(booted, 'Bench temporizadores kill -9');
  const [crashRule] = (
    await pool.query<{ id: string }>(
      `insert into automation_rules (company_id, name, enabled, position, trigger_event, timer, match, conditions, actions)
       values ($1, 'Sin actividad', true, 1, 'timer', '{"kind":"no_activity","minutes":60}'::jsonb, 'all', '[]'::jsonb, '[{"type":"note","text":"Sin actividad"}]'::jsonb) returning id::text`,
      [crashCompany],
    )
  ).rows;
  await pool.query(
    `with l as (insert into leads (company_id, name, platform, status) select $1, 'Persona ' || g, 'whatsapp', 'sin-asignar' from generate_series(1, $3::int) g returning id),
          c as (insert into chats (company_id, contact_name, platform, lead_id, status) select $1, 'Persona', 'whatsapp', id, 'open' from l returning id)
     insert into automation_timers (company_id, rule_id, subject, chat_id, due_at)
     select $1, $2, 'chat:' || c.id, c.id, now() from c`,
    [crashCompany, crashRule.id, TIMERS],
  );
  const [{ due }] = (await pool.query<{ due: Date }>(`select max(due_at) as due from automation_timers where rule_id = $1`, [crashRule.id])).rows;
  const lease = process.env.LEASE ?? '10';
  const start = () =>
    fork(new URL('./automation-timer-worker.ts', import.meta.url), {
      env: { ...process.env, RULE_ID: crashRule.id, AUTOMATION_TIMER_LEASE_SECONDS: lease },
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
  const fired = () => pool.query<{ n: string }>(`select count(*) as n from automation_runs where rule_id = $1`, [crashRule.id]).then((r) => Number(r.rows[0].n));
  const kills: number[] = [];
  for (let k = 0; k < CRASHES; k++) {
    const child = start();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise((resolve) => child.once('message', resolve));
    // killed between 0.5 and 3 s after it began firing
    const done = await Promise.race([exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 500 + Math.random() * 2500))]);
    if (done) break;
    child.kill('SIGKILL');
    await exited;
    kills.push(await fired());
  }
  const last = start();
  await new Promise<void>((resolve, reject) => last.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`el último worker salió con ${code}`)))));
  const [row] = (
    await pool.query<{ runs: string; distinct_events: string; notes: string; chats_noted: string; last: Date }>(
      `select (select count(*) from automation_runs where rule_id = $1) as runs, (select count(distinct event_id) from automation_runs where rule_id = $1) as distinct_events,
              (select count(*) from chat_messages where company_id = $2 and kind = 'note') as notes,
              (select count(distinct chat_id) from chat_messages where company_id = $2 and kind = 'note') as chats_noted,
              (select max(created_at) from automation_runs where rule_id = $1) as last`,
      [crashRule.id, crashCompany],
    )
  ).rows;
  const lag = (new Date(row.last).getTime() - new Date(due).getTime()) / 1000;
  console.log(`\nTemporizadores con ${kills.length} kill -9 del worker (concesión ${lease} s): ${TIMERS} vencidos`);
  console.log(`  disparados antes de cada kill -9: ${kills.join(', ')}`);
  console.log(
    `  ejecuciones ${row.runs} (eventos distintos ${row.distinct_events}), notas ${row.notes} en ${row.chats_noted} chats: duplicados ${Number(row.notes) - Number(row.chats_noted)}, perdidos ${TIMERS - Number(row.chats_noted)}`,
  );
  console.log(`  el último disparó ${lag.toFixed(1)} s después de su hora (meta: 60 s), con los arranques del worker incluidos`);
}
await booted.close();
