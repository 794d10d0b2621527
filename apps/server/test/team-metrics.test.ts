import type { DomainEvent, TeamMetricsOut, TeamMetricsRow, TeamSlaSettingsOut } from '@mostrador/contract';
import { hoursWeekdays } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTeamTimes } from '../src/modules/team-metrics/listener.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * How the team answers (issue 31, decision 0094) on a real database: messages and status changes
 * written as the product writes them (their triggers emit the events), the spine's listener
 * folding them, GET /api/metrics/team reading the result. Lima's business hours, Monday to Friday
 * 09:00–18:00; the week of Monday 2 November 2026 (Lima is UTC−5, no summer time).
 */
let t: TestApp;
let admin: Signed;
let agent: Signed;
let co: string;
let chile: string;
let adminUser: string;
let agentUser: string;

type Method = 'GET' | 'PUT' | 'POST';
const call = (s: Signed, method: Method, url: string, company: string, payload?: object) => t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });
async function ok<T>(s: Signed, method: Method, url: string, company: string, payload?: object): Promise<T> {
  const res = await call(s, method, url, company, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as T;
}
/** A Lima wall time of that week as an instant. */
const lima = (day: number, hhmm: string) => new Date(`2026-11-${String(day).padStart(2, '0')}T${hhmm}:00-05:00`).toISOString();
const report = (groupBy = 'agent', company = co, from = '2026-11-01', to = '2026-11-30') =>
  ok<TeamMetricsOut>(admin, 'GET', `/metrics/team?from=${from}&to=${to}&groupBy=${groupBy}`, company);
const rowOf = (r: TeamMetricsOut, key: string | null): TeamMetricsRow => {
  const row = r.rows.find((x) => x.key === key);
  if (!row) throw new Error(`no row ${key} in ${JSON.stringify(r.rows)}`);
  return row;
};

async function settle() {
  for (let i = 0; i < 3; i++) await t.app.spine.drain();
}
async function newChat(company: string, name: string, platform = 'whatsapp', leadId: string | null = null): Promise<string> {
  const [row] = await t.sql<{ id: string }>(`insert into chats (company_id, contact_name, platform, lead_id, status) values ($1, $2, $3, $4, 'open') returning id::text`, [
    company,
    name,
    platform,
    leadId,
  ]);
  return row.id;
}
type Sender = { by?: string | null; kind?: string; id?: string };
async function message(company: string, chat: string, direction: 'in' | 'out', at: string, { by = null, kind = 'text', id }: Sender = {}) {
  await t.sql(
    `insert into chat_messages (id, company_id, chat_id, direction, kind, text, status, sent_by, sent_at) values (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, 'hola', $6, $7, $8)`,
    [id ?? null, company, chat, direction, kind, direction === 'in' ? 'received' : 'sent', by, at],
  );
}
const customer = (chat: string, at: string, company = co) => message(company, chat, 'in', at);
const person = (chat: string, at: string, by: string, company = co) => message(company, chat, 'out', at, { by });
/** A status change at a given time: its event (written by the chats trigger) is dated then. */
async function status(chat: string, to: 'closed' | 'open', at: string) {
  await t.sql(`update chats set status = $2 where id = $1`, [chat, to]);
  await t.sql(`update domain_events set occurred_at = $2 where aggregate_id = $1 and dispatched_at is null and type in ('chat.resolved', 'chat.reopened')`, [chat, at]);
}

beforeAll(async () => {
  t = await startTestApp();
  [admin, agent] = await Promise.all([login(t, demo.admin), login(t, demo.agent)]);
  adminUser = admin.user._id;
  agentUser = agent.user._id;
  chile = admin.company('Demo Chile');
  co = (await ok<{ _id: string }>(admin, 'POST', '/companies', admin.company('Demo Perú'), { name: 'Atención SAC', country: 'PE' }))._id;
  const week = Object.fromEntries(hoursWeekdays.map((d) => [d, ['saturday', 'sunday'].includes(d) ? [] : [{ start: '09:00', end: '18:00' }]]));
  await ok(admin, 'PUT', '/business-hours', co, { zone: 'America/Lima', schedule: week, holidays: [], awayEnabled: false, awayText: '' });
  await t.sql(`insert into agentes (company_id, name, user_id) values ($1, 'Rosa Huamán', $2), ($1, 'Luis Paredes', $3)`, [co, agentUser, adminUser]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('what counts as an answer', () => {
  it("a bot, an away message, a note and a campaign do not answer: the first response is the agent's", async () => {
    const chat = await newChat(co, 'María Quispe');
    await customer(chat, lima(2, '10:00'));
    // the bot (no user), the away message (the system), a note of an agent, a campaign's message (a user's send)
    await message(co, chat, 'out', lima(2, '10:00'));
    await message(co, chat, 'out', lima(2, '10:00'), { kind: 'text' });
    await message(co, chat, 'out', lima(2, '10:01'), { by: adminUser, kind: 'note' });
    const [send] = await t.sql<{ id: string }>(`insert into sends (company_id, kind, name, status, content, created_by) values ($1, 'massive', 'Promo', 'processing', '{}', $2) returning id::text`, [co, adminUser]);
    const [person] = await t.sql<{ id: string }>(`insert into clean_leads (company_id, name, status) values ($1, 'María Quispe', 'activo') returning id::text`, [co]);
    const [recipient] = await t.sql<{ id: string }>(
      `insert into send_recipients (company_id, send_id, dedupe_key, position, clean_lead_id, chat_id, name, status) values ($1, $2, $2, 1, $3, $4, 'María', 'sent') returning id::text`,
      [co, send.id, person.id, chat],
    );
    await message(co, chat, 'out', lima(2, '10:02'), { by: adminUser, id: recipient.id });
    await settle();
    expect((await report()).rows).toEqual([expect.objectContaining({ key: null, name: 'Sin responder', conversations: 1, answered: 0, firstResponseMedian: null })]);

    await message(co, chat, 'out', lima(2, '10:03'), { by: agentUser });
    await settle();
    const r = await report();
    expect(r.rows.map((x) => x.key)).toEqual([agentUser]);
    expect(rowOf(r, agentUser)).toMatchObject({ name: 'Rosa Huamán', conversations: 1, answered: 1, firstResponseMedian: 180, firstResponseWithinTarget: 1 });
    await t.sql('delete from team_conversations where company_id = $1', [co]);
  });
});

describe('business hours or the clock', () => {
  it('an answer the next morning to a message at 17:55 is 10 minutes of business time, 15 h 10 min by the clock', async () => {
    const chat = await newChat(co, 'Jorge Mamani');
    await customer(chat, lima(2, '17:55'));
    await person(chat, lima(3, '09:05'), agentUser);
    await settle();
    const business = await report();
    expect(business.measure).toBe('business');
    expect(rowOf(business, agentUser)).toMatchObject({ firstResponseMedian: 600, firstResponseWithinTarget: 0 });

    const saved = await ok<TeamSlaSettingsOut>(admin, 'PUT', '/metrics/team/settings', co, { firstResponseMinutes: 5, resolutionHours: 24, measure: 'wall' });
    expect(saved).toMatchObject({ measure: 'wall', saved: true });
    const wall = await report();
    expect(wall.measure).toBe('wall');
    expect(rowOf(wall, agentUser).firstResponseMedian).toBe(15 * 3600 + 10 * 60);
    await ok(admin, 'PUT', '/metrics/team/settings', co, { firstResponseMinutes: 5, resolutionHours: 24, measure: 'business' });
    await t.sql('delete from team_conversations where company_id = $1', [co]);
  });
});

describe('reopenings', () => {
  it('a resolved chat the customer opens again counts a reopening, its next response and the resolution to the last close', async () => {
    const chat = await newChat(co, 'Rosa Flores');
    await customer(chat, lima(4, '11:00'));
    await person(chat, lima(4, '11:02'), agentUser);
    await status(chat, 'closed', lima(4, '11:30'));
    await settle();
    expect(rowOf(await report(), agentUser)).toMatchObject({ resolved: 1, resolutionMedian: 1800, reopenings: 0 });

    // the customer writes again: the chat opens (as the inbound path does) and waits for a person
    await status(chat, 'open', lima(4, '12:00'));
    await customer(chat, lima(4, '12:00'));
    await person(chat, lima(4, '12:10'), agentUser);
    await settle();
    const open = rowOf(await report(), agentUser);
    expect(open).toMatchObject({ conversations: 1, reopenings: 1, resolved: 0, resolutionMedian: null, nextResponses: 1, nextResponseAverage: 600, firstResponseMedian: 120 });

    await status(chat, 'closed', lima(4, '12:30'));
    await settle();
    expect(rowOf(await report(), agentUser)).toMatchObject({ conversations: 1, reopenings: 1, resolved: 1, resolutionMedian: 90 * 60 });
    await t.sql('delete from team_conversations where company_id = $1', [co]);
  });
});

describe('per agent, team, channel and label', () => {
  it("medians and p90 of each agent's first responses, the chats they handled and their sales", async () => {
    const [team] = await t.sql<{ id: string }>(`insert into equipos_de_ventas (company_id, name) values ($1, 'Ventas Lima') returning id::text`, [co]);
    await t.sql('update agentes set equipo_de_ventas_id = $2 where company_id = $1 and user_id = $3', [co, team.id, agentUser]);
    const [label] = await t.sql<{ id: string }>(`insert into mostrador_labels (company_id, name, color) values ($1, 'Mayorista', '#28156C') returning id::text`, [co]);
    const [lead] = await t.sql<{ id: string }>(`insert into leads (company_id, name, platform, status, mostrador_labels) values ($1, 'Carmen Rojas', 'whatsapp', 'sin-asignar', $2::jsonb) returning id::text`, [
      co,
      JSON.stringify([label.id]),
    ]);
    const waits = [60, 120, 600];
    const chats: string[] = [];
    for (const [i, seconds] of waits.entries()) {
      const chat = await newChat(co, `Cliente ${i}`, 'whatsapp', i === 0 ? lead.id : null);
      chats.push(chat);
      const at = lima(5, `1${i}:00`);
      await customer(chat, at);
      await person(chat, new Date(Date.parse(at) + seconds * 1000).toISOString(), agentUser);
    }
    const other = await newChat(co, 'Cliente Instagram', 'instagram');
    await customer(other, lima(5, '15:00'));
    await person(other, lima(5, '15:04'), adminUser);
    // a paid order and a cancelled one of the first chat, during its conversation
    for (const [code, state] of [
      ['T-1', 'paid'],
      ['T-2', 'cancelled'],
    ]) {
      await t.sql(
        `insert into orders (company_id, code, status, source, customer_name, telefono, customer, items, subtotal, total, currency, chat_id, created_at)
         values ($1, $2, $3, 'chat', 'Cliente', '51900000000', '{}', '[]', 150.5, 150.5, 'PEN', $4, $5)`,
        [co, code, state, chats[0], lima(5, '10:30')],
      );
    }
    await settle();

    const byAgent = await report();
    expect(rowOf(byAgent, agentUser)).toMatchObject({
      conversations: 3,
      chats: 3,
      firstResponseMedian: 120,
      // percentile_cont: 120 + 0.8 × (600 − 120)
      firstResponseP90: 504,
      firstResponseWithinTarget: 0.6667,
      salesClosed: 1,
      revenue: [{ currency: 'PEN', amount: 150.5 }],
    });
    expect(rowOf(byAgent, adminUser)).toMatchObject({ name: 'Luis Paredes', conversations: 1, firstResponseMedian: 240, firstResponseWithinTarget: 1, salesClosed: 0, revenue: [] });

    const byTeam = await report('team');
    expect(rowOf(byTeam, team.id)).toMatchObject({ name: 'Ventas Lima', conversations: 3 });
    expect(rowOf(byTeam, null)).toMatchObject({ name: 'Sin equipo', conversations: 1 });
    const byChannel = await report('channel');
    expect(rowOf(byChannel, 'whatsapp')).toMatchObject({ name: 'WhatsApp', conversations: 3 });
    expect(rowOf(byChannel, 'instagram')).toMatchObject({ name: 'Instagram', conversations: 1, firstResponseMedian: 240 });
    const byLabel = await report('label');
    expect(rowOf(byLabel, label.id)).toMatchObject({ name: 'Mayorista', conversations: 1, firstResponseMedian: 60, salesClosed: 1 });
    expect(rowOf(byLabel, null)).toMatchObject({ name: 'Sin etiqueta', conversations: 3 });

    // outside the window: nothing
    expect((await report('agent', co, '2026-12-01', '2026-12-31')).rows).toEqual([]);
  });

  it("another company's chats never appear, and its report has none of these", async () => {
    const theirs = await newChat(chile, 'Cliente de Chile');
    await customer(theirs, lima(5, '10:00'), chile);
    await person(theirs, lima(5, '10:01'), agentUser, chile);
    await settle();
    expect(rowOf(await report(), agentUser).conversations).toBe(3);
    const theirReport = await report('agent', chile);
    expect(theirReport.rows).toEqual([expect.objectContaining({ key: agentUser, conversations: 1, firstResponseMedian: 60 })]);
    const [n] = await t.sql<{ n: string }>('select count(*) as n from team_conversations where company_id = $1', [chile]);
    expect(Number(n.n)).toBe(1);
  });

  it('an event heard twice (replayed to the listener) counts once', async () => {
    const before = await report();
    const rows = await t.sql<{ position: string; id: string; company_id: string; type: string; version: number; aggregate_type: string; aggregate_id: string; actor: DomainEvent['actor']; payload: unknown; occurred_at: Date }>(
      `select position, id::text, company_id::text, type, version, aggregate_type, aggregate_id, actor, payload, occurred_at from domain_events where company_id = $1 order by position`,
      [co],
    );
    const events = rows.map(
      (r) =>
        ({
          position: Number(r.position),
          id: r.id,
          type: r.type,
          version: r.version,
          companyId: r.company_id,
          aggregate: { type: r.aggregate_type, id: r.aggregate_id },
          actor: r.actor,
          payload: r.payload,
          occurredAt: new Date(r.occurred_at).toISOString(),
        }) as DomainEvent,
    );
    expect(events.length).toBeGreaterThan(10);
    const responses = async () => Number((await t.sql<{ n: string }>('select count(*) as n from team_responses where company_id = $1', [co]))[0].n);
    const count = await responses();
    await recordTeamTimes(t.app.database.db, events);
    await recordTeamTimes(t.app.database.db, events.slice(-5));
    expect(await report()).toEqual(before);
    expect(await responses()).toBe(count);
  });
});

describe('GET/PUT /metrics/team/settings', () => {
  it('answers the defaults, refuses a target out of range in Spanish, and only an admin saves', async () => {
    const fresh = (await ok<{ _id: string }>(admin, 'POST', '/companies', admin.company('Demo Perú'), { name: 'Objetivos SAC', country: 'PE' }))._id;
    expect(await ok<TeamSlaSettingsOut>(admin, 'GET', '/metrics/team/settings', fresh)).toMatchObject({ firstResponseMinutes: 5, resolutionHours: 24, measure: 'business', saved: false });
    const bad = await call(admin, 'PUT', '/metrics/team/settings', fresh, { firstResponseMinutes: 0, resolutionHours: 24, measure: 'business' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Primera respuesta objetivo (minutos)');
    expect(bad.body).toContain('Debe ser al menos 1 minuto');
    const refused = await call(agent, 'PUT', '/metrics/team/settings', agent.user.companyId, { firstResponseMinutes: 10, resolutionHours: 8, measure: 'wall' });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('No tienes permiso para editar la configuración');
    const badGroup = await call(admin, 'GET', '/metrics/team?groupBy=mes', co);
    expect(badGroup.statusCode).toBe(400);
    const reversed = await call(admin, 'GET', '/metrics/team?from=2026-11-30&to=2026-11-01', co);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.body).toContain('anterior o igual');
  });
});

describe('the demo company', () => {
  it('shows who answered its conversations and how fast (the demo seed, decision 0094)', async () => {
    const year = await report('agent', admin.company('Demo Perú'), '2020-01-01', new Date().toISOString().slice(0, 10));
    const names = year.rows.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Carlos Agente', 'Ana Administradora']));
    const carlos = year.rows.find((r) => r.name === 'Carlos Agente');
    expect(carlos?.chats).toBeGreaterThan(10);
    expect(carlos?.firstResponseMedian).not.toBeNull();
  });
});
