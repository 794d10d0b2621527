/**
 * An agent's workspace (issue 11, decisions 0025 and 0026): agents are users; the inbox tabs
 * Mías / Sin asignar / Todas; a lead's status and agent agree; the agent role sees only its own
 * and the unassigned leads and chats, and no CSV files, marketing or settings, unless the owner
 * widens it; automatic assignment deals new chats round-robin.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookProcessor } from '../src/modules/webhooks/process.js';
import { DEMO_WHATSAPP_LINE } from '../src/seed/demo-chats.js';
import { deliver, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

type Rec = Record<string, unknown>;
type Chat = { _id: string; lead?: { _id: string; agenteId?: string; status?: string } };

let t: TestApp;
let admin: Signed;
let agent: Signed;
let acme: Signed;
/** The agents the demo ties to Ana (admin) and Carlos (agent). */
let ana: string;
let carlos: string;
let rosa: string;

const call = (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s), ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async (s: Signed, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
  const res = await call(s, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
};
const inbox = (s: Signed, query: string) => ok(s, 'GET', `/chats/get_chats?limit=100&${query}`) as Promise<{ payload: Chat[]; totalDocs: number }>;
const leadRow = async (id: string) => (await t.sql<{ status: string; agente_id: string | null }>('select status, agente_id from leads where id = $1', [id]))[0];
/** A lead of the demo held by another agent than Carlos (Ana's), and one nobody holds. */
const leadOf = async (agente: string | null) =>
  (
    await t.sql<{ id: string }>(
      `select l.id from leads l join chats c on c.lead_id = l.id where l.company_id = $1 and l.agente_id is not distinct from $2 order by l.id limit 1`,
      [agent.user.companyId, agente],
    )
  )[0].id;

beforeAll(async () => {
  t = await startTestApp();
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  carlos = (await ok(agent, 'GET', '/assignment/me')).agente._id;
  ana = (await ok(admin, 'GET', '/assignment/me')).agente._id;
  rosa = (await ok(admin, 'GET', '/agentes?filter=Rosa')).payload[0]._id;
});
afterAll(async () => {
  await t?.close();
});

describe('agents are users', () => {
  it('the demo agent and the admin are agents, available, with chats and leads of their own', async () => {
    expect(await ok(agent, 'GET', '/assignment/me')).toEqual({ agente: { _id: carlos, name: 'Carlos Agente', active: true, available: true } });
    expect((await ok(admin, 'GET', '/assignment/me')).agente.name).toBe('Ana Administradora');
    // Acme's admin is no agent
    expect(await ok(acme, 'GET', '/assignment/me')).toEqual({ agente: null });
    const workload = (await ok(admin, 'GET', '/agentes/workload')).payload as Array<{ agenteId: string; chats: number; leads: number }>;
    expect(workload.find((w) => w.agenteId === carlos)?.chats).toBeGreaterThan(5);
    expect(workload.find((w) => w.agenteId === ana)?.chats).toBeGreaterThan(0);
  });

  it('one agent per user and company; only members of the company; the tie holds on the next request', async () => {
    const other = (await ok(admin, 'GET', '/agentes?filter=Carla')).payload[0]._id as string;
    const taken = await call(admin, 'PUT', `/agentes/${other}`, { userId: agent.user._id });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.msg).toBe('Ese usuario ya es el agente «Carlos Agente»: un usuario es un solo agente por compañía');
    const stranger = await call(admin, 'PUT', `/agentes/${other}`, { userId: acme.user._id });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().errors.msg).toBe('Ese usuario no pertenece a esta compañía');
    expect((await call(admin, 'POST', '/agentes', { name: 'Otra Ana', userId: admin.user._id })).statusCode).toBe(409);
    expect((await t.sql('select 1 from agentes where user_id = $1', [acme.user._id])).length).toBe(0);

    // untie Carlos and tie the user to Carla: "me" follows at once
    await ok(admin, 'PUT', `/agentes/${carlos}`, { userId: null });
    expect(await ok(agent, 'GET', '/assignment/me')).toEqual({ agente: null });
    await ok(admin, 'PUT', `/agentes/${other}`, { userId: agent.user._id });
    expect((await ok(agent, 'GET', '/assignment/me')).agente._id).toBe(other);
    await ok(admin, 'PUT', `/agentes/${other}`, { userId: null });
    await ok(admin, 'PUT', `/agentes/${carlos}`, { userId: agent.user._id });
    expect((await ok(agent, 'GET', '/assignment/me')).agente._id).toBe(carlos);
  });

  it('an agent sets themselves available or away; someone who is no agent is told so', async () => {
    expect((await ok(agent, 'PUT', '/assignment/me', { available: false })).agente.available).toBe(false);
    expect((await ok(agent, 'PUT', '/assignment/me', { available: true })).agente.available).toBe(true);
    const none = await call(acme, 'PUT', '/assignment/me', { available: true });
    expect(none.statusCode).toBe(404);
    expect(none.json().errors.msg).toContain('No eres agente en esta compañía');
  });
});

describe('inbox tabs', () => {
  it('Mías holds only the caller’s chats, Sin asignar only nobody’s, Todas both for an agent; the counts agree', async () => {
    const mine = await inbox(agent, 'view=mine');
    expect(mine.totalDocs).toBeGreaterThan(5);
    expect(mine.payload.every((c) => c.lead?.agenteId === carlos)).toBe(true);
    const unassigned = await inbox(agent, 'view=unassigned');
    expect(unassigned.totalDocs).toBeGreaterThan(5);
    expect(unassigned.payload.every((c) => !c.lead?.agenteId)).toBe(true);
    const all = await inbox(agent, 'view=all');
    expect(all.totalDocs).toBe(mine.totalDocs + unassigned.totalDocs);
    expect((await inbox(agent, '')).totalDocs).toBe(all.totalDocs);
    const agentCounts = await ok(agent, 'GET', '/chats/counts');
    expect(agentCounts).toMatchObject({ mine: mine.totalDocs, unassigned: unassigned.totalDocs, all: all.totalDocs });
    // and each status of Todas (decision 0076): together, every chat the agent may see
    expect(agentCounts.byStatus.open + agentCounts.byStatus.snoozed + agentCounts.byStatus.closed).toBe(all.totalDocs);

    // the admin sees every chat, and their own in Mías
    const everything = await inbox(admin, 'view=all');
    expect(everything.totalDocs).toBeGreaterThan(all.totalDocs);
    const anas = await inbox(admin, 'view=mine');
    expect(anas.payload.every((c) => c.lead?.agenteId === ana)).toBe(true);
    const counts = await ok(admin, 'GET', '/chats/counts?platform=whatsapp');
    expect(counts.all).toBe((await inbox(admin, 'platform=whatsapp')).totalDocs);
    expect(counts.mine).toBe((await inbox(admin, 'platform=whatsapp&view=mine')).totalDocs);
    expect(counts.unassigned).toBe((await inbox(admin, 'platform=whatsapp&view=unassigned')).totalDocs);
    // someone who is no agent has no "Mías"
    expect((await inbox(acme, 'view=mine')).totalDocs).toBe(0);
    const bad = await call(admin, 'GET', '/chats/get_chats?view=todas');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toContain('Vista desconocida');
  });

  it('the unread count of the tab title counts only the chats the caller may see', async () => {
    const company = agent.user.companyId;
    const unreadOf = async (scope: string) =>
      Number(
        (
          await t.sql<{ n: number }>(
            `select count(*)::int as n from chats c left join leads l on l.id = c.lead_id where c.company_id = $1 and c.unread_count > 0 and ${scope}`,
            [company, carlos],
          )
        )[0].n,
      );
    // some unread chat belongs to another agent, so the two counts differ
    await t.sql(
      `update chats set unread_count = 2 where id = (select c.id from chats c join leads l on l.id = c.lead_id where c.company_id = $1 and l.agente_id is not null and l.agente_id <> $2 order by c.id limit 1)`,
      [company, carlos],
    );
    const everyone = await unreadOf('$2::uuid is not null');
    const carlosSees = await unreadOf('(l.agente_id is null or l.agente_id = $2)');
    expect(carlosSees).toBeLessThan(everyone);
    expect(await ok(agent, 'GET', '/chats/unread_count')).toEqual({ chats: carlosSees });
    expect(await ok(admin, 'GET', '/chats/unread_count')).toEqual({ chats: everyone });
  });

  it('a chat keeps its lead’s agent: when the lead is assigned, when the chat is made, when it moves to another lead', async () => {
    const company = agent.user.companyId;
    const holder = async (chatId: string) => (await t.sql<{ agente_id: string | null }>('select agente_id from chats where id = $1', [chatId]))[0].agente_id;
    // every chat already agrees with its lead
    const disagreeing = await t.sql(
      'select c.id from chats c left join leads l on l.id = c.lead_id where c.company_id = $1 and c.agente_id is distinct from l.agente_id',
      [company],
    );
    expect(disagreeing).toEqual([]);
    const [chat] = (await inbox(admin, 'view=unassigned')).payload.filter((c) => c.lead);
    await ok(admin, 'PUT', `/leads/${chat.lead?._id}`, { agenteId: ana });
    expect(await holder(chat._id)).toBe(ana);
    // a chat made for an assigned lead, then moved to an unassigned one (as a merge moves chats)
    const [made] = await t.sql<{ id: string }>(
      `insert into chats (company_id, contact_name, platform, lead_id, status) values ($1, 'Prueba', 'whatsapp', $2, 'open') returning id`,
      [company, chat.lead?._id],
    );
    expect(await holder(made.id)).toBe(ana);
    const nobodys = await leadOf(null);
    await t.sql('update chats set lead_id = $1 where id = $2', [nobodys, made.id]);
    expect(await holder(made.id)).toBeNull();
    await t.sql('delete from chats where id = $1', [made.id]);
    await ok(admin, 'PUT', `/leads/${chat.lead?._id}`, { agenteId: null });
    expect(await holder(chat._id)).toBeNull();
  });

  it('assigning moves a chat from Sin asignar to Mías', async () => {
    const [chat] = (await inbox(agent, 'view=unassigned')).payload.filter((c) => c.lead);
    const before = await ok(agent, 'GET', '/chats/counts');
    await ok(agent, 'PUT', `/leads/${chat.lead?._id}`, { agenteId: carlos });
    expect((await inbox(agent, 'view=mine')).payload.map((c) => c._id)).toContain(chat._id);
    expect((await inbox(agent, 'view=unassigned')).payload.map((c) => c._id)).not.toContain(chat._id);
    expect(await ok(agent, 'GET', '/chats/counts')).toEqual({ ...before, mine: before.mine + 1, unassigned: before.unassigned - 1 });
  });
});

describe('a lead’s status and agent agree (decision 0025)', () => {
  it('an agent takes a lead out of sin-asignar; clearing it returns it; sin-asignar clears the agent', async () => {
    const id = await leadOf(null);
    await t.sql(`update leads set status = 'sin-asignar' where id = $1`, [id]);
    expect((await ok(admin, 'PUT', `/leads/${id}`, { agenteId: ana })).status).toBe('informado-al-agente');
    const bucket = await ok(admin, 'GET', '/leads?status=sin-asignar&limit=100');
    expect(bucket.payload.every((l: Rec) => l.agenteId === undefined)).toBe(true);
    expect(bucket.payload.map((l: Rec) => l._id)).not.toContain(id);

    const cleared = await ok(admin, 'PUT', `/leads/${id}`, { agenteId: null });
    expect(cleared).toMatchObject({ status: 'sin-asignar' });
    expect(cleared.agenteId).toBeUndefined();

    await ok(admin, 'PUT', `/leads/${id}`, { agenteId: ana, status: 're-conectar' });
    const back = await ok(admin, 'PUT', `/leads/${id}`, { status: 'sin-asignar' });
    expect(back.agenteId).toBeUndefined();
    expect(await leadRow(id)).toEqual({ status: 'sin-asignar', agente_id: null });

    // a finished lead keeps its status without an agent
    await ok(admin, 'PUT', `/leads/${id}`, { agenteId: ana, status: 'compra-realizada' });
    expect(await ok(admin, 'PUT', `/leads/${id}`, { agenteId: null })).toMatchObject({ status: 'compra-realizada' });

    // created with an agent: never sin-asignar
    const created = await ok(admin, 'POST', '/leads', { name: 'Nueva Persona', platform: 'web', status: 'sin-asignar', agenteId: carlos });
    expect(created.status).toBe('informado-al-agente');
  });

  it('an inactive agent cannot be chosen (Spanish 400, nothing written); deleting an agent returns their leads', async () => {
    const id = await leadOf(null);
    await t.sql(`update leads set status = 'sin-asignar' where id = $1`, [id]);
    const before = await leadRow(id);
    const res = await call(admin, 'PUT', `/leads/${id}`, { agenteId: rosa });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe('El agente «Rosa Huamán» está inactivo: elige otro');
    expect(await leadRow(id)).toEqual(before);
    expect((await call(admin, 'POST', '/clean-leads', { name: 'X', status: 'sin-asignar', agenteId: rosa })).statusCode).toBe(400);

    const temp = await ok(admin, 'POST', '/agentes', { name: 'Temporal', active: true });
    await ok(admin, 'PUT', `/leads/${id}`, { agenteId: temp._id });
    expect((await leadRow(id)).status).toBe('informado-al-agente');
    await ok(admin, 'DELETE', `/agentes/${temp._id}`);
    expect(await leadRow(id)).toEqual({ status: 'sin-asignar', agente_id: null });
  });

  it('what an inactive agent held is handed over to another agent or left unassigned', async () => {
    const held = Number((await t.sql<{ n: number }>('select count(*)::int as n from leads where agente_id = $1', [rosa]))[0].n);
    expect(held).toBeGreaterThan(0);
    const refused = await call(admin, 'POST', `/agentes/${carlos}/reassign`, { agenteId: rosa });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.msg).toBe('El agente «Rosa Huamán» está inactivo: elige otro');
    expect((await call(agent, 'POST', `/agentes/${rosa}/reassign`, { agenteId: carlos })).statusCode).toBe(401);

    const moved = await ok(admin, 'POST', `/agentes/${rosa}/reassign`, { agenteId: ana });
    expect(moved.leads).toBe(held);
    expect(moved.msg).toContain('pasaron a «Ana Administradora»');
    expect(await t.sql('select 1 from leads where agente_id = $1', [rosa])).toHaveLength(0);
    const worked = await t.sql<{ status: string }>(`select status from leads where agente_id = $1 and status = 'sin-asignar'`, [ana]);
    expect(worked).toHaveLength(0);

    const back = await ok(admin, 'POST', `/agentes/${ana}/reassign`, { agenteId: null });
    expect(back.leads).toBeGreaterThan(0);
    const statuses = await t.sql<{ status: string }>(`select distinct status from leads where company_id = $1 and agente_id is null`, [admin.user.companyId]);
    expect(statuses.map((s) => s.status)).not.toContain('informado-al-agente');
    expect(statuses.map((s) => s.status)).not.toContain('re-conectar');
  });
});

describe('the agent role is limited on the server (decision 0026)', () => {
  it('lists show only their own and unassigned leads, clean leads and chats', async () => {
    const seen = (rows: Rec[]) => rows.every((r) => r.agenteId === undefined || r.agenteId === carlos);
    const leads = await ok(agent, 'GET', '/leads?limit=100');
    expect(seen(leads.payload)).toBe(true);
    expect(leads.totalDocs).toBeLessThan((await ok(admin, 'GET', '/leads?limit=1')).totalDocs);
    expect(seen((await ok(agent, 'GET', '/leads/all')).payload)).toBe(true);
    expect(seen((await ok(agent, 'GET', '/clean-leads/list_with_advance_filter?limit=100')).payload)).toBe(true);
    expect(seen((await ok(agent, 'GET', '/clean-leads/all')).payload)).toBe(true);
    const others = await ok(agent, 'GET', `/leads?agenteId=${ana}`);
    expect(others.totalDocs).toBe(0);
    // the chats resource and the recent chats
    const chats = (await ok(agent, 'GET', '/chats?limit=100')).payload as Rec[];
    const leadIds = chats.map((c) => c.leadId).filter(Boolean) as string[];
    const holders = await t.sql<{ agente_id: string | null }>('select agente_id from leads where id = any($1::uuid[])', [leadIds]);
    expect(holders.every((h) => h.agente_id === null || h.agente_id === carlos)).toBe(true);
    const recent = (await ok(agent, 'GET', '/chats/recent_chats?limit=50')).payload as Chat[];
    expect(recent.every((c) => !c.lead?.agenteId || c.lead.agenteId === carlos)).toBe(true);
  });

  it('another agent’s lead or chat by id is a Spanish 404, and nothing is written', async () => {
    // a conversation and a person the admin gives to Ana
    const lead = await leadOf(null);
    await ok(admin, 'PUT', `/leads/${lead}`, { agenteId: ana });
    const [chat] = await t.sql<{ id: string }>('select id from chats where lead_id = $1', [lead]);
    const [message] = await t.sql<{ id: string }>('select id from chat_messages where chat_id = $1 limit 1', [chat.id]);
    const [cleanLead] = await t.sql<{ id: string }>(`select id from clean_leads where company_id = $1 order by id limit 1`, [agent.user.companyId]);
    await ok(admin, 'PUT', `/clean-leads/${cleanLead.id}`, { agenteId: ana });
    const before = await leadRow(lead);
    const refused: Array<[string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?]> = [
      ['El lead', 'PUT', `/leads/${lead}`, { status: 'compra-realizada' }],
      ['El lead limpio', 'GET', `/clean-leads/${cleanLead.id}`],
      ['El lead limpio', 'PUT', `/clean-leads/${cleanLead.id}`, { name: 'Otro' }],
      ['El chat', 'GET', `/chats/${chat.id}/messages`],
      ['El chat', 'POST', `/chats/${chat.id}/messages`, { text: 'Hola' }],
      ['El chat', 'POST', `/chats/${chat.id}/read`],
      ['El chat', 'PUT', `/chats/${chat.id}`, { status: 'closed' }],
      ['El chat', 'GET', `/chats/media/${message.id}`],
      ['El lead', 'GET', `/chats/get_all_by_lead_id?leadId=${lead}&platform=whatsapp`],
      ['El lead limpio', 'GET', `/chats/get_all_by_cleanlead_id?cleanLeadId=${cleanLead.id}`],
      ['El chat', 'POST', '/chats/send_massive_message', { chatIds: [chat.id], text: 'Promo' }],
      ['El lead', 'POST', '/chats', { contactName: 'X', platform: 'whatsapp', status: 'open', leadId: lead }],
    ];
    for (const [what, method, url, payload] of refused) {
      const res = await call(agent, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().errors.msg, url).toBe(`${what} no existe en esta compañía o lo atiende otro agente`);
    }
    expect(await leadRow(lead)).toEqual(before);
    expect(await t.sql(`select 1 from chat_messages where chat_id = $1 and direction = 'out' and text = 'Hola'`, [chat.id])).toHaveLength(0);
    // the admin reaches the same records
    expect((await call(admin, 'GET', `/chats/${chat.id}/messages`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/clean-leads/${cleanLead.id}`)).statusCode).toBe(200);
  });

  it('refuses CSV export and import, marketing and settings with the missing permission in Spanish', async () => {
    const cases: Array<[string, 'GET' | 'POST' | 'PUT', string]> = [
      ['No tienes permiso para exportar leads (Leads y contactos · Exportar)', 'GET', '/leads/export'],
      ['No tienes permiso para exportar leads (Leads y contactos · Exportar)', 'GET', '/clean-leads/export'],
      ['No tienes permiso para ver la lista de marketing (Marketing · Listar)', 'GET', '/marketing-campaigns'],
      ['No tienes permiso para ver la configuración (Configuración · Ver)', 'GET', '/assignment/settings'],
      ['No tienes permiso para ver la lista de los permisos de los roles (Roles y permisos · Listar)', 'GET', '/roles'],
    ];
    for (const [msg, method, url] of cases) {
      const res = await call(agent, method, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().errors).toMatchObject({ code: 'FORBIDDEN', msg });
    }
    const leadsBefore = (await t.sql('select id from leads')).length;
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/leads/import',
      headers: { ...as(agent), 'content-type': 'text/csv' },
      payload: 'name,telefono\nImportada,51999888777\n',
    });
    expect(upload.statusCode).toBe(401);
    expect(upload.json().errors.msg).toBe('No tienes permiso para importar leads (Leads y contactos · Importar)');
    expect((await t.sql('select id from leads')).length).toBe(leadsBefore);
    // the admin exports everybody's
    expect((await call(admin, 'GET', '/leads/export')).statusCode).toBe(200);
  });

  it('the owner widens and narrows the agent role; it holds on the next request', async () => {
    const matrix = await ok(admin, 'GET', '/roles');
    const agentRole = matrix.roles.find((r: { role: string }) => r.role === 'agent');
    expect(agentRole.editable).toBe(true);
    expect(agentRole.permissions.leads).toEqual(['list', 'read', 'create', 'update']);
    expect(matrix.roles.find((r: { role: string }) => r.role === 'admin').editable).toBe(false);

    const wider = { ...agentRole.permissions, leads: ['list', 'read', 'create', 'update', 'export', 'all'], marketing: ['list', 'read'] };
    await ok(admin, 'PUT', '/roles/agent', { permissions: wider });
    expect((await call(agent, 'GET', '/leads/export')).statusCode).toBe(200);
    expect((await call(agent, 'GET', '/marketing-campaigns')).statusCode).toBe(200);
    expect((await ok(agent, 'GET', '/leads?limit=1')).totalDocs).toBe((await ok(admin, 'GET', '/leads?limit=1')).totalDocs);
    const perms = await ok(agent, 'GET', '/permissions');
    expect(perms.permissions.leads).toContain('export');

    // a wrong action or the admin's role: a Spanish 400 and nothing changes
    const wrong = await call(admin, 'PUT', '/roles/agent', { permissions: { chats: ['export'] } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.msg).toBe('«Chat y comentarios» no tiene la acción «export»');
    expect((await call(admin, 'PUT', '/roles/admin', { permissions: {} })).json().errors.msg).toBe(
      'El rol Administrador tiene siempre todos los permisos: no se puede cambiar',
    );
    expect((await call(agent, 'PUT', '/roles/agent', { permissions: wider })).statusCode).toBe(401);
    expect((await call(agent, 'GET', '/leads/export')).statusCode).toBe(200);

    await ok(admin, 'PUT', '/roles/agent', { permissions: agentRole.permissions });
    expect((await call(agent, 'GET', '/leads/export')).statusCode).toBe(401);
    expect((await ok(agent, 'GET', '/leads?limit=1')).totalDocs).toBeLessThan((await ok(admin, 'GET', '/leads?limit=1')).totalDocs);
  });
});

describe('automatic assignment (decision 0025)', () => {
  const processor = () => createWebhookProcessor(t.database.db, t.app.secrets);
  async function arrive(from: string) {
    const res = await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: DEMO_WHATSAPP_LINE, from, name: `Cliente ${from.slice(-4)}`, text: 'Hola, ¿tienen delivery?' }));
    expect(res.statusCode).toBe(200);
    const p = processor();
    for (const id of await p.pendingIds()) await p.process(id);
    const [lead] = await t.sql<{ agente_id: string | null; status: string }>(
      `select agente_id, status from leads where company_id = $1 and platform_user_id = $2`,
      [admin.user.companyId, from],
    );
    return lead;
  }

  it('is off by default: a new chat stays unassigned', async () => {
    expect(await ok(admin, 'GET', '/assignment/settings')).toEqual({ enabled: false, strategy: 'all' });
    expect(await arrive('51911000001')).toEqual({ agente_id: null, status: 'sin-asignar' });
  });

  it('deals new chats round-robin among the available agents, skipping away and inactive ones', async () => {
    await ok(admin, 'PUT', '/assignment/settings', { enabled: true, strategy: 'all' });
    // available: Ana and Carlos (the demo's); Carla too; the others stay away
    const carla = (await ok(admin, 'GET', '/agentes?filter=Carla')).payload[0]._id as string;
    await ok(admin, 'PUT', `/agentes/${carla}`, { available: true });
    await ok(admin, 'PUT', `/agentes/${rosa}`, { available: true }); // inactive: never dealt
    const dealt = [];
    for (let i = 0; i < 6; i++) dealt.push((await arrive(`5192200000${i}`)).agente_id);
    expect(dealt).toEqual([ana, carla, carlos, ana, carla, carlos]);
    const [first] = await t.sql<{ status: string }>(`select status from leads where platform_user_id = '51922000000'`);
    expect(first.status).toBe('informado-al-agente');

    // Carlos goes away: only Ana and Carla
    await ok(agent, 'PUT', '/assignment/me', { available: false });
    const next = [];
    for (let i = 0; i < 3; i++) next.push((await arrive(`5193300000${i}`)).agente_id);
    expect(next).toEqual([ana, carla, ana]);
    await ok(agent, 'PUT', '/assignment/me', { available: true });
    // the agent finds the new chat in Mías (realtime and lists read the lead's agent)
    const [carlosChat] = await t.sql<{ id: string }>(
      `select c.id from chats c join leads l on l.id = c.lead_id where l.platform_user_id = '51922000002'`,
    );
    expect((await inbox(agent, 'view=mine')).payload.map((c) => c._id)).toContain(carlosChat.id);
    await ok(admin, 'PUT', `/agentes/${carla}`, { available: false });
  });

  it('by channel: only agents who answer the chat’s channel; a held lead is never dealt again', async () => {
    await ok(admin, 'PUT', '/assignment/settings', { strategy: 'channel' });
    await ok(admin, 'PUT', `/agentes/${ana}`, { platforms: ['instagram'] });
    await ok(admin, 'PUT', `/agentes/${carlos}`, { platforms: ['whatsapp'] });
    const got = [];
    for (let i = 0; i < 3; i++) got.push((await arrive(`5194400000${i}`)).agente_id);
    expect(got).toEqual([carlos, carlos, carlos]);
    // the same person writing again keeps their agent
    expect((await arrive('51944000000')).agente_id).toBe(carlos);
    await ok(admin, 'PUT', `/agentes/${ana}`, { platforms: [] });
    await ok(admin, 'PUT', '/assignment/settings', { enabled: false });
    expect((await arrive('51955000001')).agente_id).toBeNull();
    const bad = await call(admin, 'PUT', '/assignment/settings', { strategy: 'azar' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.details[0].msg).toBe('Elige cómo repartir los chats');
  });

  it('an unknown id in a reassignment is a 404; the settings are per company', async () => {
    expect((await call(admin, 'POST', `/agentes/${randomUUID()}/reassign`, { agenteId: null })).statusCode).toBe(404);
    expect(await ok(acme, 'GET', '/assignment/settings')).toEqual({ enabled: false, strategy: 'all' });
  });
});

describe('real-time events follow the row scope', () => {
  it('an agent hears of their own and unassigned chats only; the admin of all', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const open = async (s: Signed) => {
      const controller = new AbortController();
      const res = await fetch(`${base}/api/events`, { headers: as(s) as Record<string, string>, signal: controller.signal });
      const chats: string[] = [];
      const reading = (async () => {
        let buffer = '';
        try {
          for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
            buffer += new TextDecoder().decode(chunk);
            const blocks = buffer.split('\n\n');
            buffer = blocks.pop() ?? '';
            for (const block of blocks) {
              const data = /^data: (.+)$/m.exec(block)?.[1];
              if (!data) continue;
              const event = JSON.parse(data) as { chat?: { _id: string }; chatId?: string };
              chats.push(event.chat?._id ?? event.chatId ?? '');
            }
          }
        } catch {
          // aborted
        }
      })();
      const close = async () => {
        controller.abort();
        await reading;
      };
      return { chats, close };
    };
    const [others] = (await inbox(admin, 'view=all')).payload.filter((c) => c.lead?.agenteId && c.lead.agenteId !== carlos);
    const [nobodys] = (await inbox(admin, 'view=unassigned')).payload;
    const [message] = await t.sql<{ id: string }>('select id from chat_messages where chat_id = $1 limit 1', [others._id]);
    // what earlier tests set off (their arrivals' message.received) is delivered before the streams open
    for (let i = 0; i < 3; i++) await t.app.spine.drain();
    const adminStream = await open(admin);
    const agentStream = await open(agent);
    await new Promise((r) => setTimeout(r, 200));
    const summary = (id: string) => ok(admin, 'GET', `/chats/get_chats?limit=100&view=all`).then((p) => p.payload.find((c: Chat) => c._id === id));
    await t.app.realtime.publish(admin.user.companyId, { type: 'chat.updated', chat: await summary(others._id) });
    await t.app.realtime.publish(admin.user.companyId, { type: 'chat.updated', chat: await summary(nobodys._id) });
    const full = (await ok(admin, 'GET', `/chats/${others._id}/messages?limit=1`)).payload[0];
    await t.app.realtime.publish(admin.user.companyId, { type: 'message.updated', chatId: others._id, message: { ...full, _id: message.id } });
    const deadline = Date.now() + 5000;
    while (adminStream.chats.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 200));
    await adminStream.close();
    await agentStream.close();
    expect(adminStream.chats).toEqual([others._id, nobodys._id, others._id]);
    expect(agentStream.chats).toEqual([nobodys._id]);
  });
});
