import { type ChatMessage, type ChatState, type ChatThread, chatStateReasons } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookProcessor, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import { deliver, type FakeGraph, metaMessage, startFakeGraph, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Answering on every channel (issue 11, decision 0027): what the composer is told before the
 * agent types and what a send is refused with (each channel, never a 500), a failed message
 * sent again once, internal notes that never reach the provider, a chat snoozed and back, and
 * quick replies as a standard resource of the company. Sends go to the fake Graph API.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9composerTokenDePrueba7Q2x';
const PERU_LINE = '109000000000021';
const ACME_PAGE = '201000000000021';
const ACME_IG = '178400000000021';
const HOUR = 3_600_000;

let t: TestApp;
let fake: FakeGraph;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let processor: WebhookProcessor;

const call = (s: Signed, company: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });
const posts = () => fake.requests.filter((r) => r.method === 'POST');
const count = async (text: string, values: unknown[] = []) => Number((await t.sql<{ n: number }>(text, values))[0].n);
const messagesOf = (chatId: string) => count('select count(*) as n from chat_messages where chat_id = $1', [chatId]);
const stateOf = async (s: Signed, company: string, chatId: string) => {
  const res = await call(s, company, 'GET', `/chats/${chatId}/state`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ChatState;
};

async function settle() {
  for (const id of await processor.pendingIds()) await processor.process(id);
}
async function chatOf(platformUserId: string): Promise<string> {
  const [row] = await t.sql<{ chat_id: string }>('select chat_id from lead_identities where platform_user_id = $1', [platformUserId]);
  return row.chat_id;
}
async function waInbound(from: string, text: string, at = new Date()) {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: PERU_LINE, from, text, at }))).statusCode).toBe(200);
  await settle();
  return chatOf(from);
}
async function metaInbound(object: 'page' | 'instagram', sender: string, text: string) {
  expect((await deliver(t, '/api/webhooks/meta', metaMessage({ object, pageId: object === 'page' ? ACME_PAGE : ACME_IG, sender, text }))).statusCode).toBe(200);
  await settle();
  return chatOf(sender);
}
/** The customer's last message moves back in time: the 24-hour window closes. */
const closeWindow = (chatId: string) => t.sql(`update chat_windows set last_inbound_at = now() - interval '25 hours' where chat_id = $1`, [chatId]);

beforeAll(async () => {
  fake = await startFakeGraph(TOKEN);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
  expect((await call(admin, peru, 'PUT', '/channels/whatsapp', { phoneNumberId: PERU_LINE, accessToken: TOKEN })).statusCode).toBe(200);
  expect((await call(acme, acmeCo, 'PUT', '/channels/meta', { pageId: ACME_PAGE, pageName: 'Acme', instagramAccountId: ACME_IG, accessToken: TOKEN })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the composer’s state and the refusals, per channel', () => {
  it('an open WhatsApp chat can be written to; its state says until when', async () => {
    const chat = await waInbound('51977100001', 'Hola, ¿tienen delivery?');
    const state = await stateOf(agent, peru, chat);
    expect(state).toMatchObject({ chatId: chat, platform: 'whatsapp', channel: 'whatsapp', state: 'open', canSend: true, status: 'open' });
    expect(state.reason).toBeUndefined();
    expect(Date.parse(state.windowOpenUntil as string)).toBeGreaterThan(Date.now() + 23 * HOUR);
  });

  it.each([
    ['WhatsApp', 'whatsapp'],
    ['Messenger', 'page'],
    ['Instagram', 'instagram'],
  ] as const)('%s: a closed 24-hour window is told in Spanish and a send is refused with it (409), sending and storing nothing', async (_name, kind) => {
    const [s, company, chat] =
      kind === 'whatsapp'
        ? [admin, peru, await waInbound('51977100002', 'Hola')]
        : [acme, acmeCo, await metaInbound(kind, kind === 'page' ? '6500000000000021' : '17841400000000921', 'Hola')];
    await closeWindow(chat);
    const channel = kind === 'whatsapp' ? 'whatsapp' : kind === 'page' ? 'messenger' : 'instagram';
    const state = await stateOf(s, company, chat);
    expect(state).toMatchObject({ state: 'window_closed', canSend: false, channel, reason: chatStateReasons.windowClosed(channel) });
    expect(state.reason).toMatch(/más de 24 horas/);
    const [stored, requests] = [await messagesOf(chat), posts().length];
    const res = await call(s, company, 'POST', `/chats/${chat}/messages`, { text: '¿Sigues interesado?' });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toBe(state.reason);
    expect(await messagesOf(chat)).toBe(stored);
    expect(posts()).toHaveLength(requests);
  });

  it.each([
    ['WhatsApp', 'whatsapp'],
    ['Messenger', 'facebook'],
    ['Instagram', 'instagram'],
  ] as const)('%s not connected: locked with a Spanish reason that names no path, and a send is refused (409)', async (name, platform) => {
    // Acme has a page (Messenger, Instagram) but no WhatsApp line; Demo Chile has no channel at all
    const chile = admin.company('Demo Chile');
    const created = await call(admin, chile, 'POST', '/chats', { contactName: `Cliente ${name}`, platform, status: 'open' });
    expect(created.statusCode, created.body).toBe(201);
    const chat = created.json()._id as string;
    const channel = platform === 'facebook' ? 'messenger' : platform;
    const state = await stateOf(admin, chile, chat);
    expect(state).toMatchObject({ state: 'not_connected', canSend: false, channel, reason: chatStateReasons.notConnected(channel) });
    expect(state.reason).toContain(`${name} no está conectado`);
    expect(state.reason).not.toMatch(/\/|[A-Z]{4,}_/);
    const requests = posts().length;
    const res = await call(admin, chile, 'POST', `/chats/${chat}/messages`, { text: 'Hola' });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toBe(state.reason);
    expect(await messagesOf(chat)).toBe(0);
    expect(posts()).toHaveLength(requests);
  });

  it('a line saved without its token is locked too; another company’s chat is a 404', async () => {
    const chat = await waInbound('51977100003', 'Hola');
    await t.sql(`update channels set access_token = null where company_id = $1 and kind = 'whatsapp'`, [peru]);
    try {
      expect(await stateOf(admin, peru, chat)).toMatchObject({ state: 'not_connected', reason: chatStateReasons.noToken('whatsapp') });
      expect((await call(admin, peru, 'POST', `/chats/${chat}/messages`, { text: 'Hola' })).statusCode).toBe(409);
    } finally {
      await t.sql(`update channels set access_token = $1 where company_id = $2 and kind = 'whatsapp'`, [t.app.secrets.seal(TOKEN), peru]);
    }
    expect((await call(acme, acmeCo, 'GET', `/chats/${chat}/state`)).statusCode).toBe(404);
  });
});

describe('a failed message sent again', () => {
  it('shows the provider’s reason in Spanish, and «Reintentar» sends it once however often it is clicked', async () => {
    const chat = await waInbound('51977100010', 'Quiero 2 packs');
    fake.failNext(400, { message: '(#131049) This message was not delivered to maintain healthy ecosystem engagement.', code: 131049 });
    const failed = await call(agent, peru, 'POST', `/chats/${chat}/messages`, { text: 'Te separo los 2 packs' });
    expect(failed.statusCode).toBe(502);
    const [message] = (await t.sql<{ id: string; status: string; status_error: string }>(
      `select id, status, status_error from chat_messages where chat_id = $1 and direction = 'out'`,
      [chat],
    )) as Array<{ id: string; status: string; status_error: string }>;
    expect(message.status).toBe('failed');
    expect(message.status_error).toBe('WhatsApp no entregó el mensaje para cuidar la experiencia del cliente: no lo reintentes enseguida (código 131049)');

    const before = posts().length;
    const retried = await call(agent, peru, 'POST', `/chats/${chat}/messages/${message.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ _id: message.id, status: 'sent', text: 'Te separo los 2 packs' });
    expect(retried.json().statusError).toBeUndefined();
    expect(posts()).toHaveLength(before + 1);
    expect(posts().at(-1)?.body).toMatchObject({ to: '51977100010', type: 'text', text: { body: 'Te separo los 2 packs' } });

    // a second click: nothing more goes out, the same message comes back
    const again = await call(agent, peru, 'POST', `/chats/${chat}/messages/${message.id}/retry`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ _id: message.id, status: 'sent', mid: retried.json().mid });
    expect(posts()).toHaveLength(before + 1);
    expect(await count(`select count(*) as n from chat_messages where chat_id = $1 and direction = 'out'`, [chat])).toBe(1);
  });

  it('two clicks at once send it once', async () => {
    const chat = await waInbound('51977100011', 'Hola');
    fake.failNext(400, { message: 'Pair rate limit hit', code: 131056 });
    expect((await call(agent, peru, 'POST', `/chats/${chat}/messages`, { text: 'Un momento, por favor' })).statusCode).toBe(502);
    const [{ id }] = await t.sql<{ id: string }>(`select id from chat_messages where chat_id = $1 and direction = 'out'`, [chat]);
    const before = posts().length;
    const answers = await Promise.all([1, 2, 3].map(() => call(agent, peru, 'POST', `/chats/${chat}/messages/${id}/retry`)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(posts()).toHaveLength(before + 1);
  });

  it('a retry that fails again keeps it failed with the new reason (502); a closed window refuses it (409)', async () => {
    const chat = await waInbound('51977100012', 'Hola');
    fake.failNext(400, { message: 'Pair rate limit hit', code: 131056 });
    expect((await call(agent, peru, 'POST', `/chats/${chat}/messages`, { text: 'Hola de nuevo' })).statusCode).toBe(502);
    const [{ id }] = await t.sql<{ id: string }>(`select id from chat_messages where chat_id = $1 and direction = 'out'`, [chat]);
    fake.failNext(400, { message: '(#131026) Message undeliverable', code: 131026 });
    const res = await call(agent, peru, 'POST', `/chats/${chat}/messages/${id}/retry`);
    expect(res.statusCode).toBe(502);
    expect(res.json().errors.msg).toMatch(/^No se pudo enviar el mensaje: Mensaje no entregable/);
    const thread = (await call(agent, peru, 'GET', `/chats/${chat}/messages`)).json() as ChatThread;
    expect(thread.payload.at(-1)).toMatchObject({ _id: id, status: 'failed', statusError: expect.stringMatching(/^Mensaje no entregable.*\(código 131026\)$/) });

    await closeWindow(chat);
    const before = posts().length;
    const refused = await call(agent, peru, 'POST', `/chats/${chat}/messages/${id}/retry`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors.msg).toBe(chatStateReasons.windowClosed('whatsapp'));
    expect(posts()).toHaveLength(before);
  });

  it('only our failed messages can be retried: a customer’s message is a 409, another company’s a 404', async () => {
    const chat = await waInbound('51977100013', 'Hola');
    const [{ id }] = await t.sql<{ id: string }>(`select id from chat_messages where chat_id = $1 and direction = 'in'`, [chat]);
    const res = await call(agent, peru, 'POST', `/chats/${chat}/messages/${id}/retry`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toBe(chatStateReasons.notFailed);
    expect((await call(acme, acmeCo, 'POST', `/chats/${chat}/messages/${id}/retry`)).statusCode).toBe(404);
  });
});

describe('internal notes', () => {
  it('are stored as notes of the staff, shown in the thread, and never reach the provider', async () => {
    const chat = await waInbound('51977100020', 'Quiero factura');
    const before = posts().length;
    const preview = (await t.sql<{ p: string }>('select last_message_preview as p from chats where id = $1', [chat]))[0].p;
    const res = await call(agent, peru, 'POST', `/chats/${chat}/notes`, { text: 'Pide factura con RUC: confirmar razón social' });
    expect(res.statusCode, res.body).toBe(201);
    const note = res.json() as ChatMessage;
    expect(note).toMatchObject({ kind: 'note', direction: 'out', text: 'Pide factura con RUC: confirmar razón social', sentBy: agent.user._id });
    expect(note.mid).toBeUndefined();
    expect(posts()).toHaveLength(before);
    const thread = (await call(agent, peru, 'GET', `/chats/${chat}/messages`)).json() as ChatThread;
    expect(thread.payload.at(-1)).toMatchObject({ _id: note._id, kind: 'note' });
    // the inbox still shows the customer's last message
    expect((await t.sql<{ p: string }>('select last_message_preview as p from chats where id = $1', [chat]))[0].p).toBe(preview);
    // a note is never «retried» towards the customer
    expect((await call(agent, peru, 'POST', `/chats/${chat}/messages/${note._id}/retry`)).statusCode).toBe(409);
    expect(posts()).toHaveLength(before);
  });

  it('can be written where nothing can be sent (closed window, no channel); empty ones are a Spanish 400', async () => {
    const chat = await waInbound('51977100021', 'Hola');
    await closeWindow(chat);
    expect((await call(admin, peru, 'POST', `/chats/${chat}/notes`, { text: 'Llamarlo mañana' })).statusCode).toBe(201);
    const empty = await call(admin, peru, 'POST', `/chats/${chat}/notes`, { text: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.msg).toBe('Texto: Este campo es requerido');
    expect((await call(acme, acmeCo, 'POST', `/chats/${chat}/notes`, { text: 'Intruso' })).statusCode).toBe(404);
  });
});

describe('resolved and snoozed chats', () => {
  it('a snoozed chat comes back when the customer writes', async () => {
    const chat = await waInbound('51977100030', 'Hola');
    const snoozedUntil = new Date(Date.now() + 24 * HOUR).toISOString();
    const res = await call(agent, peru, 'POST', `/chats/${chat}/status`, { status: 'snoozed', snoozedUntil });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'snoozed', snoozedUntil });
    expect((await call(agent, peru, 'GET', '/chats/get_chats?status=snoozed')).json().payload.map((c: { _id: string }) => c._id)).toContain(chat);
    await waInbound('51977100030', '¿Siguen ahí?');
    const state = await stateOf(agent, peru, chat);
    expect(state.status).toBe('open');
    expect(state.snoozedUntil).toBeUndefined();
  });

  it('a snoozed chat comes back by itself when its time passes', async () => {
    const chat = await waInbound('51977100031', 'Hola');
    const snoozedUntil = new Date(Date.now() + 2000).toISOString();
    expect((await call(agent, peru, 'POST', `/chats/${chat}/status`, { status: 'snoozed', snoozedUntil })).statusCode).toBe(200);
    expect((await stateOf(agent, peru, chat)).status).toBe('snoozed');
    const back = await until(
      () => stateOf(agent, peru, chat),
      (s) => s.status === 'open',
    );
    expect(back.snoozedUntil).toBeUndefined();
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(snoozedUntil));
  });

  it('a chat is resolved (closed) and reopened; a snooze needs a future date; another company’s chat is a 404', async () => {
    const chat = await waInbound('51977100032', 'Gracias, ya llegó');
    expect((await call(agent, peru, 'POST', `/chats/${chat}/status`, { status: 'closed' })).json()).toMatchObject({ status: 'closed' });
    expect((await call(agent, peru, 'POST', `/chats/${chat}/status`, { status: 'open' })).json()).toMatchObject({ status: 'open' });
    const past = await call(agent, peru, 'POST', `/chats/${chat}/status`, { status: 'snoozed', snoozedUntil: new Date(Date.now() - 60_000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(JSON.stringify(past.json().errors)).toContain('La fecha debe ser futura');
    const none = await call(agent, peru, 'POST', `/chats/${chat}/status`, { status: 'snoozed' });
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json().errors)).toContain('Elige hasta cuándo posponer el chat');
    expect((await call(acme, acmeCo, 'POST', `/chats/${chat}/status`, { status: 'closed' })).statusCode).toBe(404);
  });

  it('the unread count is the company’s chats with unread messages (an agent’s: those they may see)', async () => {
    const n = async (s: Signed, company: string) => (await call(s, company, 'GET', '/chats/unread_count')).json().chats as number;
    const before = await n(admin, peru);
    expect(before).toBe(await count('select count(*) as n from chats where company_id = $1 and unread_count > 0', [peru]));
    const agentBefore = await n(agent, peru);
    const chat = await waInbound('51977100033', 'Hola, ¿me atienden?');
    expect(await n(admin, peru)).toBe(before + 1);
    // a new customer's chat is nobody's yet: the agent counts it too
    expect(await n(agent, peru)).toBe(agentBefore + 1);
    await call(agent, peru, 'POST', `/chats/${chat}/read`);
    expect(await n(admin, peru)).toBe(before);
    expect(await n(agent, peru)).toBe(agentBefore);
    expect(await n(acme, acmeCo)).toBe(await count('select count(*) as n from chats where company_id = $1 and unread_count > 0', [acmeCo]));
  });
});

describe('quick replies (respuestas-rapidas)', () => {
  it('are managed per company: admins create and edit, agents list and use them, other companies never see them', async () => {
    const created = await call(admin, peru, 'POST', '/respuestas-rapidas', { atajo: 'Envio-Gratis', texto: 'Hola {{nombre}}, el envío es gratis desde S/ 120' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ atajo: 'envio-gratis' });
    const id = created.json()._id as string;

    const list = await call(agent, peru, 'GET', '/respuestas-rapidas?filter=envio');
    expect(list.statusCode).toBe(200);
    expect(list.json().payload.map((r: { atajo: string }) => r.atajo)).toEqual(['envio-gratis']);
    const byAgent = await call(agent, peru, 'POST', '/respuestas-rapidas', { atajo: 'mia', texto: 'Hola' });
    expect(byAgent.json().errors.code).toBe('FORBIDDEN');

    const repeated = await call(admin, peru, 'POST', '/respuestas-rapidas', { atajo: 'envio-gratis', texto: 'Otra' });
    expect(repeated.statusCode).toBe(409);
    const spaced = await call(admin, peru, 'POST', '/respuestas-rapidas', { atajo: 'con espacio', texto: 'Hola' });
    expect(spaced.statusCode).toBe(400);
    expect(JSON.stringify(spaced.json().errors)).toContain('Solo letras minúsculas, números y guiones');

    // Acme: none of Demo Perú's, and its id is a 404
    const acmeList = await call(acme, acmeCo, 'GET', '/respuestas-rapidas');
    expect(acmeList.json().payload.map((r: { atajo: string }) => r.atajo)).not.toContain('envio-gratis');
    expect((await call(acme, acmeCo, 'PUT', `/respuestas-rapidas/${id}`, { texto: 'Cambiado' })).statusCode).toBe(404);
    expect((await call(acme, acmeCo, 'DELETE', `/respuestas-rapidas/${id}`)).statusCode).toBe(404);
    // the same shortcut is free in another company
    expect((await call(acme, acmeCo, 'POST', '/respuestas-rapidas', { atajo: 'envio-gratis', texto: 'Envío gratis en Santiago' })).statusCode).toBe(201);

    expect((await call(admin, peru, 'PUT', `/respuestas-rapidas/${id}`, { texto: 'Envío gratis desde S/ 100, {{nombre}}' })).json()).toMatchObject({ texto: 'Envío gratis desde S/ 100, {{nombre}}' });
    expect((await call(admin, peru, 'DELETE', `/respuestas-rapidas/${id}`)).statusCode).toBe(200);
    expect((await call(agent, peru, 'GET', '/respuestas-rapidas?filter=envio')).json().payload).toEqual([]);
  });

  it('the demo company starts with a few', async () => {
    const list = (await call(agent, peru, 'GET', '/respuestas-rapidas')).json().payload as Array<{ atajo: string; texto: string }>;
    expect(list.map((r) => r.atajo)).toEqual(expect.arrayContaining(['saludo', 'delivery', 'pagos']));
    expect(list.find((r) => r.atajo === 'saludo')?.texto).toContain('{{nombre}}');
  });
});
