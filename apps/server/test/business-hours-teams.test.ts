import { type BusinessHoursOut, hoursWeekdays, type TeamHoursOut, teamHoursMessages } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, type FakeGraph, startFakeGraph, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * A sales team's own business hours (issue 29, decision 0081): saved, read and removed per team
 * (another company's team refused in Spanish); the assignment turn — automatic and the rules'
 * «por turnos» — skips the agents of a team closed now and deals to them once it is open, whatever
 * the company's hours; the away message of a chat a team's agent holds follows the team's hours
 * and text (else the company's text).
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9horarioEquipoToken81Q';
const LINE = '109000000000081';
const AWAY = 'Gracias por escribir a la compañía: te respondemos apenas abramos.';
const TEAM_AWAY = 'El equipo Noche descansa ahora: te escribimos mañana temprano.';

let t: TestApp;
let fake: FakeGraph;
let admin: Signed;
let peru: string;
let chile: string;
type Rec = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const call = (method: Method, url: string, payload?: object, company = peru) => t.app.inject({ method, url: `/api${url}`, headers: as(admin, company), payload });
async function ok<T = Rec>(method: Method, url: string, payload?: object, company = peru): Promise<T> {
  const res = await call(method, url, payload, company);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as T;
}
const idOf = (r: Rec) => r._id as string;
const sentTexts = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).map((r) => (r.body as { text?: { body?: string } }).text?.body);

async function receive(from: string, text: string): Promise<string> {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text }))).statusCode).toBe(200);
  for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
  for (let i = 0; i < 4; i++) await t.app.spine.drain();
  const [row] = await t.sql<{ chat_id: string }>('select chat_id::text from lead_identities where platform_user_id = $1', [from]);
  return row.chat_id;
}
const agentOf = async (chatId: string) =>
  (await t.sql<{ agente_id: string | null }>('select l.agente_id::text from leads l join chats c on c.lead_id = l.id where c.id = $1', [chatId]))[0].agente_id;

/** A chat whose first message came in, then its lead given to an agent. */
async function heldBy(from: string, agent: string): Promise<string> {
  const chat = await receive(from, 'Hola');
  await t.sql('update leads set agente_id = $2 where id = (select lead_id from chats where id = $1)', [chat, agent]);
  return chat;
}

const every = (intervals: Array<{ start: string; end: string }>) => Object.fromEntries(hoursWeekdays.map((d) => [d, intervals]));
const alwaysOpen = { zone: 'America/Lima', schedule: every([{ start: '00:00', end: '24:00' }]), holidays: [], awayEnabled: false, awayText: '' };
const neverOpen = { ...alwaysOpen, schedule: every([]) };

let night: string;
let day: string;
let ana: string;
let beto: string;

beforeAll(async () => {
  fake = await startFakeGraph(TOKEN);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  admin = await login(t, demo.admin);
  peru = admin.company('Demo Perú');
  chile = admin.company('Demo Chile');
  expect((await call('PUT', '/channels/whatsapp', { phoneNumberId: LINE, accessToken: TOKEN })).statusCode).toBe(200);
  // the demo's rules and automatic assignment off: these tests count their own effects
  await t.sql('update automation_rules set enabled = false where company_id = $1', [peru]);
  await t.sql('update assignment_settings set enabled = false where company_id = $1', [peru]);
  night = idOf(await ok('POST', '/equipos-de-ventas', { name: 'Equipo Noche' }));
  day = idOf(await ok('POST', '/equipos-de-ventas', { name: 'Equipo Día' }));
  // the only available agents of the company: Ana (Noche) and Beto (Día)
  await t.sql('update agentes set available = false where company_id = $1', [peru]);
  ana = idOf(await ok('POST', '/agentes', { name: 'Ana Noche', equipoDeVentasId: night, active: true, available: true }));
  beto = idOf(await ok('POST', '/agentes', { name: 'Beto Día', equipoDeVentasId: day, active: true, available: true }));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('GET/PUT/DELETE /business-hours/teams/:teamId', () => {
  it('starts from the company’s hours, saves the team’s own, leaves the company’s alone, and goes back to them', async () => {
    const company = await ok<BusinessHoursOut>('PUT', '/business-hours', { ...alwaysOpen, awayEnabled: true, awayText: AWAY });
    const inherited = await ok<TeamHoursOut>('GET', `/business-hours/teams/${night}`);
    expect(inherited).toEqual({ ...company, teamId: night, own: false });

    const saved = await ok<TeamHoursOut>('PUT', `/business-hours/teams/${night}`, { ...neverOpen, zone: 'America/Santiago', awayEnabled: true, awayText: TEAM_AWAY });
    expect(saved).toMatchObject({ teamId: night, own: true, saved: true, zone: 'America/Santiago', openNow: false, awayText: TEAM_AWAY });
    expect(await ok<TeamHoursOut>('GET', `/business-hours/teams/${night}`)).toEqual(saved);
    // the company's call answers exactly what it did
    expect(await ok<BusinessHoursOut>('GET', '/business-hours')).toEqual(company);
    const [logged] = await t.sql<{ action: string; entity_id: string }>(
      `select action, entity_id::text from audit_log where company_id = $1 and entity = 'business_hours' order by at desc limit 1`,
      [peru],
    );
    expect(logged).toEqual({ action: 'create', entity_id: night });

    const back = await ok<TeamHoursOut>('DELETE', `/business-hours/teams/${night}`);
    expect(back).toEqual({ ...company, teamId: night, own: false });
    expect(await t.sql('select 1 from business_hours where team_id = $1', [night])).toHaveLength(0);
  });

  it('refuses another company’s team, or no team at all, in Spanish, writing nothing', async () => {
    const theirs = idOf(await ok('POST', '/equipos-de-ventas', { name: 'Santiago Noche' }, chile));
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(method, `/business-hours/teams/${theirs}`, method === 'PUT' ? alwaysOpen : undefined);
      expect(res.statusCode).toBe(404);
      expect(res.json().errors.msg).toBe(teamHoursMessages.teamNotFound);
    }
    const bad = await call('GET', '/business-hours/teams/no-es-un-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(teamHoursMessages.teamNotFound);
    const invalid = await call('PUT', `/business-hours/teams/${night}`, { ...alwaysOpen, zone: 'Marte/Olimpo' });
    expect(invalid.statusCode).toBe(400);
    expect(await t.sql('select 1 from business_hours where team_id = any($1::uuid[])', [[theirs, night]])).toHaveLength(0);
  });
});

describe('the assignment turn', () => {
  it('skips the agents of a team closed now, even when the company is closed, and deals to them once it opens', async () => {
    await t.sql(
      `insert into assignment_settings (company_id, enabled, strategy) values ($1, true, 'all')
         on conflict (company_id) do update set enabled = true, strategy = 'all'`,
      [peru],
    );
    // the company closed now: it holds nobody back
    await ok('PUT', '/business-hours', neverOpen);
    await ok('PUT', `/business-hours/teams/${night}`, neverOpen);
    await ok('PUT', `/business-hours/teams/${day}`, alwaysOpen);
    const dealt = [];
    for (const from of ['51981000001', '51981000002', '51981000003']) dealt.push(await agentOf(await receive(from, 'Hola')));
    expect(dealt).toEqual([beto, beto, beto]);

    await ok('PUT', `/business-hours/teams/${night}`, alwaysOpen);
    const after = new Set<string | null>();
    for (const from of ['51981000004', '51981000005']) after.add(await agentOf(await receive(from, 'Hola')));
    expect(after).toEqual(new Set([ana, beto]));
    await t.sql('update assignment_settings set enabled = false where company_id = $1', [peru]);
  });

  it('the rules’ «por turnos» and «de un equipo» skip them too', async () => {
    await ok('PUT', `/business-hours/teams/${night}`, neverOpen);
    const rule = await ok<{ _id: string }>('POST', '/automation-rules', {
      name: 'Turno con horario de equipo',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', op: 'contains', value: 'turno81' }],
      actions: [{ type: 'assign_round_robin' }],
    });
    const dealt = [];
    for (const from of ['51981000011', '51981000012']) dealt.push(await agentOf(await receive(from, 'quiero turno81')));
    expect(dealt).toEqual([beto, beto]);
    await ok('PUT', `/automation-rules/${rule._id}`, {
      name: 'Turno del equipo Noche',
      enabled: true,
      trigger: { event: 'message.received' },
      conditions: [{ field: 'text', op: 'contains', value: 'turno81' }],
      actions: [{ type: 'assign_team', teamId: night }],
    });
    const chat = await receive('51981000013', 'otro turno81');
    expect(await agentOf(chat)).toBeNull();
    const runs = (await ok<{ payload: Array<{ status: string; error?: string }> }>('GET', `/automation-rules/${rule._id}/runs`)).payload;
    expect(runs[0].error).toContain('Equipo Noche');
    await ok('PUT', `/business-hours/teams/${night}`, alwaysOpen);
    expect(await agentOf(await receive('51981000014', 'y otro turno81'))).toBe(ana);
    await t.sql('update automation_rules set enabled = false where id = $1', [rule._id]);
  });
});

describe('the away message of a team’s chat', () => {
  it('follows the team’s hours and its text, else the company’s text', async () => {
    await ok('PUT', '/business-hours', { ...alwaysOpen, awayEnabled: true, awayText: AWAY });
    await ok('PUT', `/business-hours/teams/${night}`, { ...neverOpen, awayEnabled: true, awayText: TEAM_AWAY });
    await ok('PUT', `/business-hours/teams/${day}`, alwaysOpen);
    const anas = await heldBy('51981000021', ana);
    const betos = await heldBy('51981000022', beto);
    const before = sentTexts().length;
    // the company is open, Ana's team closed: its text, once per period
    await receive('51981000021', '¿Hay alguien?');
    await receive('51981000021', '¿Hola?');
    expect(sentTexts().slice(before)).toEqual([TEAM_AWAY]);
    expect(await t.sql('select 1 from away_messages where chat_id = $1', [anas])).toHaveLength(1);

    // the company closed, Beto's team open: nothing for Beto's chat
    await ok('PUT', '/business-hours', { ...neverOpen, awayEnabled: true, awayText: AWAY });
    await receive('51981000022', 'Buenas');
    expect(sentTexts().slice(before)).toEqual([TEAM_AWAY]);
    expect(await t.sql('select 1 from away_messages where chat_id = $1', [betos])).toHaveLength(0);

    // Beto's team closed with no text of its own: the company's
    await ok('PUT', `/business-hours/teams/${day}`, neverOpen);
    await receive('51981000022', '¿Siguen ahí?');
    expect(sentTexts().slice(before)).toEqual([TEAM_AWAY, AWAY]);
  });
});

describe('the rules’ condition «Dentro del horario de atención»', () => {
  it('reads the hours of the team of the chat’s agent, when it has its own; else the company’s', async () => {
    await ok('PUT', '/business-hours', alwaysOpen);
    await ok('PUT', `/business-hours/teams/${night}`, neverOpen);
    const rule = await ok<{ _id: string }>('POST', '/automation-rules', {
      name: 'Fuera del horario del equipo',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'business_hours', op: 'is', value: false }],
      actions: [{ type: 'note', text: 'Escribió fuera del horario' }],
    });
    const runs = async () => (await ok<{ payload: Array<{ chatId: string | null }> }>('GET', `/automation-rules/${rule._id}/runs`)).payload;
    // nobody holds it yet: the company's hours, open
    const anas = await heldBy('51981000031', ana);
    expect(await runs()).toHaveLength(0);
    // Ana's team is closed now
    await receive('51981000031', 'Escribo de noche');
    expect((await runs()).map((r) => r.chatId)).toEqual([anas]);
    // Beto's team has no hours of its own any more: the company's, open
    await ok('DELETE', `/business-hours/teams/${day}`);
    await heldBy('51981000032', beto);
    await receive('51981000032', 'Hola otra vez');
    expect(await runs()).toHaveLength(1);
    await t.sql('update automation_rules set enabled = false where id = $1', [rule._id]);
  });
});
