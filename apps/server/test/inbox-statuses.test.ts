import { type ChatSummary, type InboxCounts, type Page, payloadSchema } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookProcessor, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import { deliver, type FakeGraph, startFakeGraph, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * The statuses the inbox and the rules act on (issue 29, decision 0076): the inbox by status
 * (open, snoozed, resolved, all), its counts per status, a snoozed chat back at its time by the
 * minute sweep and when the customer writes (a resolved one too), and the chats' events
 * (`chat.snoozed`, `chat.reopened`, `chat.resolved`) written with the change.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9inboxStatusesTokenDePrueba7Q2x';
const LINE = '109000000000029';
const HOUR = 3_600_000;

let t: TestApp;
let fake: FakeGraph;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let processor: WebhookProcessor;

const call = (s: Signed, company: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });

async function inbound(from: string, text: string): Promise<string> {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text }))).statusCode).toBe(200);
  for (const id of await processor.pendingIds()) await processor.process(id);
  const [row] = await t.sql<{ chat_id: string }>('select chat_id from lead_identities where platform_user_id = $1', [from]);
  return row.chat_id;
}
async function setStatus(chatId: string, body: { status: string; snoozedUntil?: string }) {
  const res = await call(agent, peru, 'POST', `/chats/${chatId}/status`, body);
  expect(res.statusCode, res.body).toBe(200);
}
async function inbox(query: string, s = admin): Promise<string[]> {
  const res = await call(s, peru, 'GET', `/chats/get_chats?limit=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Page<ChatSummary>).payload.map((c) => c._id);
}
async function counts(query = '', s = admin): Promise<InboxCounts> {
  const res = await call(s, peru, 'GET', `/chats/counts${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as InboxCounts;
}
const row = async (chatId: string) =>
  (await t.sql<{ status: string; snoozed_until: string | null }>('select status, snoozed_until from chats where id = $1', [chatId]))[0];
const eventsOf = (chatId: string, type: string) =>
  t.sql<{ payload: Record<string, unknown>; actor: { type: string } }>(
    'select payload, actor from domain_events where aggregate_type = $1 and aggregate_id = $2 and type = $3 order by position',
    ['chat', chatId, type],
  );

beforeAll(async () => {
  fake = await startFakeGraph(TOKEN);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
  const put = await t.app.inject({ method: 'PUT', url: '/api/channels/whatsapp', headers: as(admin, peru), payload: { phoneNumberId: LINE, accessToken: TOKEN } });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the inbox by status', () => {
  let open: string;
  let snoozed: string;
  let closed: string;
  beforeAll(async () => {
    open = await inbound('51977290001', 'Hola, ¿tienen stock?');
    snoozed = await inbound('51977290002', 'Te aviso mañana');
    closed = await inbound('51977290003', 'Gracias, ya llegó');
    await setStatus(snoozed, { status: 'snoozed', snoozedUntil: new Date(Date.now() + 24 * HOUR).toISOString() });
    await setStatus(closed, { status: 'closed' });
  });

  it('lists open, snoozed or resolved chats, and every chat without a status', async () => {
    const opened = await inbox('&status=open');
    expect(opened).toContain(open);
    expect(opened).not.toContain(snoozed);
    expect(opened).not.toContain(closed);
    expect(await inbox('&status=snoozed')).toEqual(expect.arrayContaining([snoozed]));
    expect(await inbox('&status=snoozed')).not.toContain(open);
    const resolved = await inbox('&status=closed');
    expect(resolved).toContain(closed);
    expect(resolved).not.toContain(snoozed);
    expect(await inbox('')).toEqual(expect.arrayContaining([open, snoozed, closed]));
    // the status filter keeps the inbox order (last activity first) and the other filters
    expect(await inbox('&status=open&platform=whatsapp&filter=977290001')).toEqual([open]);
    expect(await inbox('&status=closed&filter=977290001')).toEqual([]);
    expect((await call(admin, peru, 'GET', '/chats/get_chats?status=pospuesto')).statusCode).toBe(400);
  });

  it('counts each status with the other filters, and keeps the tabs’ counts', async () => {
    const sqlCount = async (where: string, values: unknown[]) => Number((await t.sql<{ n: number }>(`select count(*)::int as n from chats c where c.company_id = $1 and ${where}`, [peru, ...values]))[0].n);
    const all = await counts();
    expect(all.byStatus).toEqual({
      open: await sqlCount(`c.status = 'open'`, []),
      snoozed: await sqlCount(`c.status = 'snoozed'`, []),
      closed: await sqlCount(`c.status = 'closed'`, []),
    });
    expect(all.byStatus.snoozed).toBeGreaterThanOrEqual(1);
    expect(all.all).toBe(all.byStatus.open + all.byStatus.snoozed + all.byStatus.closed);
    expect(all.unassigned).toBe(await sqlCount('c.agente_id is null', []));
    // the tabs count the status asked; byStatus ignores it
    const onlyOpen = await counts('?status=open');
    expect(onlyOpen.all).toBe(all.byStatus.open);
    expect(onlyOpen.unassigned).toBe(await sqlCount(`c.status = 'open' and c.agente_id is null`, []));
    expect(onlyOpen.byStatus).toEqual(all.byStatus);
    // a search narrows them; the tab asked narrows byStatus
    expect((await counts('?filter=977290002')).byStatus).toEqual({ open: 0, snoozed: 1, closed: 0 });
    const unassigned = await counts('?view=unassigned');
    expect(unassigned.byStatus.snoozed).toBe(await sqlCount(`c.status = 'snoozed' and c.agente_id is null`, []));
    // another company counts its own
    const other = await t.app.inject({ method: 'GET', url: '/api/chats/counts', headers: as(acme, acmeCo) });
    expect((other.json() as InboxCounts).byStatus.snoozed).toBe(Number((await t.sql<{ n: number }>(`select count(*)::int as n from chats where company_id = $1 and status = 'snoozed'`, [acmeCo]))[0].n));
  });
});

describe('a snoozed chat comes back', () => {
  it('by the minute sweep once its time has passed (and not before)', async () => {
    const due = await inbound('51977290010', 'Escríbeme en una hora');
    const later = await inbound('51977290011', 'Escríbeme la semana que viene');
    await setStatus(due, { status: 'snoozed', snoozedUntil: new Date(Date.now() + HOUR).toISOString() });
    await setStatus(later, { status: 'snoozed', snoozedUntil: new Date(Date.now() + 7 * 24 * HOUR).toISOString() });
    // the clock moves: its time is a minute ago
    await t.sql(`update chats set snoozed_until = $2 where id = $1`, [due, new Date(Date.now() - 60_000).toISOString()]);
    await t.app.jobs.send('chat.snooze-sweep', {});
    const back = await until(
      () => row(due),
      (r) => r.status === 'open',
      20_000,
      'el chat vuelve a la bandeja',
    );
    expect(back.snoozed_until).toBeNull();
    expect(await row(later)).toMatchObject({ status: 'snoozed' });
    expect(await inbox('&status=open')).toContain(due);
    expect(await inbox('&status=snoozed')).toContain(later);
    const [reopened] = await eventsOf(due, 'chat.reopened');
    expect(reopened?.payload).toMatchObject({ chatId: due, from: 'snoozed' });
    expect(reopened?.actor).toEqual({ type: 'system' });
  });

  it('when the customer writes: snoozed or resolved, the chat is open again and its snooze time forgotten', async () => {
    const snoozed = await inbound('51977290020', 'Lo pienso');
    await setStatus(snoozed, { status: 'snoozed', snoozedUntil: new Date(Date.now() + 24 * HOUR).toISOString() });
    await inbound('51977290020', 'Ya lo pensé, lo quiero');
    expect(await row(snoozed)).toEqual({ status: 'open', snoozed_until: null });
    expect((await eventsOf(snoozed, 'chat.reopened')).at(-1)?.payload).toMatchObject({ from: 'snoozed' });

    const resolved = await inbound('51977290021', 'Gracias');
    await setStatus(resolved, { status: 'closed' });
    expect(await inbox('&status=open')).not.toContain(resolved);
    await inbound('51977290021', 'Una consulta más');
    expect(await row(resolved)).toEqual({ status: 'open', snoozed_until: null });
    expect(await inbox('&status=open')).toContain(resolved);
    expect((await eventsOf(resolved, 'chat.reopened')).at(-1)?.payload).toMatchObject({ from: 'closed' });
  });
});

describe('the chats’ events', () => {
  it('chat.snoozed carries until and from, again for a new time; chat.resolved as before', async () => {
    const chat = await inbound('51977290030', '¿Me llaman luego?');
    const [lead] = await t.sql<{ lead_id: string }>('select lead_id from chats where id = $1', [chat]);
    const first = new Date(Date.now() + 3 * HOUR).toISOString();
    await setStatus(chat, { status: 'snoozed', snoozedUntil: first });
    const second = new Date(Date.now() + 5 * HOUR).toISOString();
    await setStatus(chat, { status: 'snoozed', snoozedUntil: second });
    const snoozedEvents = await eventsOf(chat, 'chat.snoozed');
    expect(snoozedEvents.map((e) => e.payload)).toEqual([
      { chatId: chat, leadId: lead?.lead_id, until: first, from: 'open' },
      { chatId: chat, leadId: lead?.lead_id, until: second, from: 'snoozed' },
    ]);
    // who clicked is the actor
    expect(snoozedEvents.map((e) => e.actor)).toEqual([
      { type: 'user', id: agent.user._id },
      { type: 'user', id: agent.user._id },
    ]);
    // the contract's schema accepts it (the dispatcher checks it before a listener sees it)
    for (const e of snoozedEvents) expect(payloadSchema('chat.snoozed', 1)?.safeParse(e.payload).success).toBe(true);
    await setStatus(chat, { status: 'closed' });
    expect((await eventsOf(chat, 'chat.resolved')).length).toBe(1);
    // a change that moves no status (the unread count) says nothing
    await call(agent, peru, 'POST', `/chats/${chat}/read`);
    expect((await eventsOf(chat, 'chat.snoozed')).length).toBe(2);
    expect((await eventsOf(chat, 'chat.resolved')).length).toBe(1);
    // the spine delivers it (its listeners saw it: dispatched)
    await until(
      () => t.sql<{ n: number }>(`select count(*)::int as n from domain_events where aggregate_id = $1 and type = 'chat.snoozed' and dispatched_at is null`, [chat]),
      (rows) => Number(rows[0]?.n) === 0,
      20_000,
      'los eventos repartidos',
    );
  });
});
