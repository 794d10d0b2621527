import { BOT_HANDOFF_TEXT, type BotStatusOut, type BotTestOut, type ChatSummary, type ChatThread } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialogflowDefaults } from '../src/modules/dialogflow/bots.js';
import { DEMO_WHATSAPP_LINE } from '../src/seed/demo-chats.js';
import { type FakeAccount, type FakeDialogflow, startFakeDialogflow } from './fakes/dialogflow.js';
import { deliver, wamid, whatsappImage, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

/**
 * Dialogflow ES bots answering chats (issue 15, decision 0053), against a fake Google token
 * endpoint and a fake Dialogflow API that check the service account's signed JWT and the request:
 * a customer's WhatsApp message is answered in the chat as the bot's message; a fallback intent
 * or a handoff word hands the chat to a person (marked in the inbox, the bot silent from then on);
 * a chat a person holds or a bot switched off is never sent to Dialogflow; a replayed webhook is
 * answered once; a revoked key or a wrong project is a Spanish reason in «Probar conexión» and a
 * handed-over chat (never a crash) in the job; each company sees and uses only its own bots.
 */
let t: TestApp;
let fake: FakeDialogflow;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let account: FakeAccount;
let botId: string;
const ACME_LINE = '100000000000777';

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
let phone = 51_999_100_000;
const nextPhone = () => String(++phone);
async function inbound(from: string, text: string, line = DEMO_WHATSAPP_LINE, id = wamid()) {
  const res = await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: line, from, text, id }));
  expect(res.statusCode, res.body).toBe(200);
  return id;
}
const chatOf = (from: string) =>
  until(
    async () => (await t.sql<{ chat_id: string }>('select chat_id from lead_identities where platform_user_id = $1', [from]))[0]?.chat_id,
    (v) => Boolean(v),
  ) as Promise<string>;
const thread = async (chatId: string, who = admin, company = peru) => (await call('GET', `/chats/${chatId}/messages?limit=100`, undefined, who, company)).json() as ChatThread;
const botMessages = async (chatId: string) => (await thread(chatId)).payload.filter((m) => m.direction === 'out' && m.content?.bot);
const replies = async (chatId: string) => t.sql<{ outcome: string; intent: string | null; error: string | null }>('select outcome, intent, error from bot_replies where chat_id = $1 order by created_at', [chatId]);
const settled = (chatId: string, n: number) => until(() => replies(chatId), (r) => r.length >= n && r.every((x) => x.outcome !== 'pending'));
const summary = async (chatId: string) => ((await call('GET', '/chats/get_chats?limit=100')).json().payload as ChatSummary[]).find((c) => c._id === chatId);
const status = async (who = admin, company = peru) => (await call('GET', '/bots/status', undefined, who, company)).json().payload as BotStatusOut[];

beforeAll(async () => {
  fake = await startFakeDialogflow();
  t = await startTestApp({ BOTS: 'on', DIALOGFLOW_API_URL: fake.url, DIALOGFLOW_TOKEN_URL: fake.tokenUrl });
  Object.assign(dialogflowDefaults, { backoffMs: 1, retries: 2, timeoutMs: 5_000 });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  // the demo's own bots step aside: this file's bot is the one that answers WhatsApp
  await t.sql(`update bots set active = false where company_id = $1`, [peru]);
  fake.projects.add('tienda-peru');
  fake.projects.add('tienda-acme');
  account = fake.account('bot@tienda-peru.iam.gserviceaccount.com', ['tienda-peru']);
  const res = await call('POST', '/bots', { name: 'Bot de prueba', platform: 'whatsapp', dialogflowProjectId: 'tienda-peru', language: 'es', active: true, credentials: account });
  expect(res.statusCode, res.body).toBe(201);
  botId = res.json()._id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the bot answers a chat', () => {
  it('sends the fulfillment in the chat as the bot\'s message, with the chat as the session and a cached token', async () => {
    const from = nextPhone();
    await inbound(from, '¿Qué precio tiene el pack?');
    const chatId = await chatOf(from);
    const [answer] = await until(() => botMessages(chatId), (m) => m.length === 1 && m[0].status !== 'pending');
    expect(answer).toMatchObject({ text: 'El pack familiar cuesta S/ 49.90', kind: 'text', content: { bot: { name: 'Bot de prueba', intent: 'precios' } } });
    expect(answer.sentBy).toBeUndefined();
    expect(fake.calls.at(-1)).toMatchObject({ project: 'tienda-peru', session: chatId, text: '¿Qué precio tiene el pack?', languageCode: 'es', email: account.client_email });
    expect((await summary(chatId))?.bot).toMatchObject({ name: 'Bot de prueba', state: 'answering' });
    const tokens = fake.tokenRequests;
    await inbound(from, 'hola otra vez');
    await until(() => botMessages(chatId), (m) => m.length === 2);
    await settled(chatId, 2);
    expect(fake.tokenRequests).toBe(tokens);
    // the screen's counts
    expect((await status()).find((s) => s.botId === botId)).toMatchObject({ connection: 'ok', ready: true, answered: 2, handedOver: 0, answering: 1 });
  });

  it('a fallback intent hands the chat to a person: the last words, the inbox marker, no more answers', async () => {
    const from = nextPhone();
    await inbound(from, 'quiero cambiar la dirección de mi pedido 4411');
    const chatId = await chatOf(from);
    await settled(chatId, 1);
    expect((await replies(chatId))[0]).toMatchObject({ outcome: 'handed_over', intent: 'Default Fallback Intent' });
    const [last] = await botMessages(chatId);
    expect(last).toMatchObject({ text: BOT_HANDOFF_TEXT, content: { bot: { handoff: true } } });
    expect((await summary(chatId))?.bot).toMatchObject({ state: 'handed_over', reason: expect.stringContaining('no entendió') });
    const calls = fake.calls.length;
    await inbound(from, 'hola, ¿precio?');
    await until(() => thread(chatId), (th) => th.payload.filter((m) => m.direction === 'in').length === 2);
    await new Promise((r) => setTimeout(r, 800));
    expect(fake.calls.length).toBe(calls);
    expect(await botMessages(chatId)).toHaveLength(1);
  });

  it('a handoff word hands over without asking Dialogflow, and the assignment deals the lead', async () => {
    await t.sql(`insert into assignment_settings (company_id, enabled, strategy) values ($1, true, 'all')
        on conflict (company_id) do update set enabled = true, strategy = 'all'`, [peru]);
    await t.sql(`update agentes set available = true, active = true where company_id = $1`, [peru]);
    try {
      const from = nextPhone();
      const calls = fake.calls.length;
      await inbound(from, 'Quiero hablar con un ASESOR por favor');
      const chatId = await chatOf(from);
      // a bot's chat is not dealt on arrival
      await settled(chatId, 1);
      expect(fake.calls.length).toBe(calls);
      expect((await summary(chatId))?.bot).toMatchObject({ state: 'handed_over', reason: expect.stringContaining('asesor') });
      expect((await summary(chatId))?.lead?.agenteId).toBeTruthy();
    } finally {
      await t.sql(`update assignment_settings set enabled = false where company_id = $1`, [peru]);
    }
  });

  it('a file the bot cannot read goes to a person', async () => {
    const from = nextPhone();
    const res = await deliver(t, '/api/webhooks/whatsapp', whatsappImage({ phoneNumberId: DEMO_WHATSAPP_LINE, from }));
    expect(res.statusCode).toBe(200);
    const chatId = await chatOf(from);
    await settled(chatId, 1);
    expect((await summary(chatId))?.bot?.state).toBe('handed_over');
  });

  it('a replayed webhook is answered once', async () => {
    const from = nextPhone();
    const id = wamid();
    const calls = fake.calls.length;
    await Promise.all([inbound(from, 'precio del combo', DEMO_WHATSAPP_LINE, id), inbound(from, 'precio del combo', DEMO_WHATSAPP_LINE, id)]);
    await inbound(from, 'precio del combo', DEMO_WHATSAPP_LINE, id);
    const chatId = await chatOf(from);
    await settled(chatId, 1);
    await new Promise((r) => setTimeout(r, 800));
    expect(await botMessages(chatId)).toHaveLength(1);
    expect(fake.calls.length).toBe(calls + 1);
    // the turn follows the message's event (message.received, the spine's bots.answer): handed to the
    // listener again, as after a crash before its receipt, it is not answered twice
    const since = new Date(Date.now() - 60_000);
    expect(await t.app.spine.replay('bots.answer', since)).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 800));
    expect(await botMessages(chatId)).toHaveLength(1);
    expect(fake.calls.length).toBe(calls + 1);
  });
});

describe('when the bot keeps quiet', () => {
  it('a chat a person holds (an agent, or someone wrote in it) is never sent to Dialogflow', async () => {
    const from = nextPhone();
    await inbound(from, 'hola');
    const chatId = await chatOf(from);
    await until(() => botMessages(chatId), (m) => m.length === 1);
    const sent = await call('POST', `/chats/${chatId}/messages`, { text: 'Hola, soy Ana del equipo' });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const calls = fake.calls.length;
    await inbound(from, '¿precio?');
    await until(() => thread(chatId), (th) => th.payload.filter((m) => m.direction === 'in').length === 2);
    await new Promise((r) => setTimeout(r, 800));
    expect(fake.calls.length).toBe(calls);

    const other = nextPhone();
    await inbound(other, 'hola');
    const otherChat = await chatOf(other);
    await until(() => botMessages(otherChat), (m) => m.length === 1);
    const [agent] = await t.sql<{ id: string }>('select id from agentes where company_id = $1 limit 1', [peru]);
    await t.sql('update leads set agente_id = $1 where id = (select lead_id from chats where id = $2)', [agent.id, otherChat]);
    const before = fake.calls.length;
    await inbound(other, '¿precio?');
    await new Promise((r) => setTimeout(r, 800));
    expect(fake.calls.length).toBe(before);
    expect(await botMessages(otherChat)).toHaveLength(1);
  });

  it('a bot switched off is never asked', async () => {
    await call('PUT', `/bots/${botId}`, { active: false });
    try {
      const from = nextPhone();
      const calls = fake.calls.length;
      await inbound(from, 'precio');
      const chatId = await chatOf(from);
      await new Promise((r) => setTimeout(r, 800));
      expect(fake.calls.length).toBe(calls);
      expect(await replies(chatId)).toHaveLength(0);
      expect((await summary(chatId))?.bot).toBeUndefined();
      expect((await status()).find((s) => s.botId === botId)).toMatchObject({ ready: false, notReadyReason: 'Está desactivado' });
    } finally {
      await call('PUT', `/bots/${botId}`, { active: true });
    }
  });
});

describe('«Probar conexión» and a key that stops working', () => {
  it('shows the matched intent', async () => {
    const res = await call('POST', `/bots/${botId}/test`, { text: 'precio' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json() as BotTestOut).toMatchObject({ ok: true, intent: 'precios', fallback: false, msg: expect.stringContaining('«precios»') });
    expect(fake.calls.at(-1)?.session).toBe(`prueba-${botId}`);
  });

  it('names a wrong project, a disabled API and a revoked key in Spanish; the job hands the chat over without crashing', async () => {
    const other = await call('POST', '/bots', { name: 'Bot proyecto ajeno', platform: 'instagram', dialogflowProjectId: 'no-existe', language: 'es', credentials: account });
    const otherId = other.json()._id;
    expect((await call('POST', `/bots/${otherId}/test`, {})).json()).toMatchObject({ ok: false, msg: expect.stringContaining('No hay un agente de Dialogflow en el proyecto «no-existe»') });
    fake.projects.add('sin-api');
    fake.disabled.add('sin-api');
    await call('PUT', `/bots/${otherId}`, { dialogflowProjectId: 'sin-api' });
    expect((await call('POST', `/bots/${otherId}/test`, {})).json().msg).toContain('no está habilitada');
    fake.projects.add('tienda-acme');
    await call('PUT', `/bots/${otherId}`, { dialogflowProjectId: 'tienda-acme' });
    expect((await call('POST', `/bots/${otherId}/test`, {})).json().msg).toContain('no tiene permiso');
    await call('PUT', `/bots/${otherId}`, { credentials: { client_email: 'x@y.iam.gserviceaccount.com', private_key: 'no es una clave' } });
    expect((await call('POST', `/bots/${otherId}/test`, {})).json().msg).toContain('La clave privada de la cuenta de servicio no es válida');

    // the answering bot's key is revoked (a new key object: no token cached for it)
    const revoked = fake.account('revocada@tienda-peru.iam.gserviceaccount.com', ['tienda-peru']);
    await call('PUT', `/bots/${botId}`, { credentials: revoked });
    fake.revoked.add(revoked.client_email);
    const test = (await call('POST', `/bots/${botId}/test`, {})).json() as BotTestOut;
    expect(test).toMatchObject({ ok: false, msg: expect.stringContaining('Google rechazó la cuenta de servicio (invalid_grant') });
    const from = nextPhone();
    await inbound(from, 'precio');
    const chatId = await chatOf(from);
    await settled(chatId, 1);
    expect((await replies(chatId))[0]).toMatchObject({ outcome: 'failed', error: expect.stringContaining('Google rechazó') });
    expect((await summary(chatId))?.bot).toMatchObject({ state: 'handed_over', reason: expect.stringContaining('no pudo consultar Dialogflow') });
    expect((await status()).find((s) => s.botId === botId)).toMatchObject({ connection: 'failed', connectionMsg: expect.stringContaining('Google rechazó') });
    await call('PUT', `/bots/${botId}`, { credentials: account });
  });

  it('retries a 429 and a 503 and then answers', async () => {
    fake.failNext = { status: 429, count: 1 };
    const first = await call('POST', `/bots/${botId}/test`, { text: 'hola' });
    expect(first.json()).toMatchObject({ ok: true, intent: 'Default Welcome Intent' });
    fake.failNext = { status: 503, count: 5 };
    const down = await call('POST', `/bots/${botId}/test`, { text: 'hola' });
    expect(down.json()).toMatchObject({ ok: false, msg: expect.stringContaining('Dialogflow no respondió bien (503)') });
    fake.failNext = { status: 0, count: 0 };
  });
});

describe('each company its own bots', () => {
  it('another company cannot see, test or be answered by them', async () => {
    expect((await call('POST', `/bots/${botId}/test`, {}, acme, acmeCo)).statusCode).toBe(404);
    expect((await status(acme, acmeCo)).some((s) => s.botId === botId)).toBe(false);
    await t.sql(`insert into channels (company_id, kind, provider_id) values ($1, 'whatsapp', $2) on conflict do nothing`, [acmeCo, ACME_LINE]);
    const from = nextPhone();
    const calls = fake.calls.length;
    await inbound(from, 'precio', ACME_LINE);
    const chatId = await chatOf(from);
    await new Promise((r) => setTimeout(r, 800));
    expect(fake.calls.length).toBe(calls);
    expect(await replies(chatId)).toHaveLength(0);
    // its own bot answers with its own project
    const acmeAccount = fake.account('bot@tienda-acme.iam.gserviceaccount.com', ['tienda-acme']);
    fake.disabled.delete('tienda-acme');
    const created = await call('POST', '/bots', { name: 'Bot Acme', platform: 'whatsapp', dialogflowProjectId: 'tienda-acme', language: 'es', credentials: acmeAccount }, acme, acmeCo);
    expect(created.statusCode, created.body).toBe(201);
    await inbound(from, 'precio por favor', ACME_LINE);
    await settled(chatId, 1);
    expect(fake.calls.at(-1)).toMatchObject({ project: 'tienda-acme', email: acmeAccount.client_email, session: chatId });
  });
});

describe('the demo', () => {
  it('shows a chat the sandbox bot answered and one it handed over, and the sandbox answers live without the internet', async () => {
    const chats = (await call('GET', '/chats/get_chats?limit=100')).json().payload as ChatSummary[];
    const answered = chats.find((c) => c.contactName === 'Lucía Campos');
    const handed = chats.find((c) => c.contactName === 'Jorge Salinas');
    expect(answered?.bot).toMatchObject({ name: 'Asistente WhatsApp', state: 'answering' });
    expect(handed?.bot).toMatchObject({ name: 'Asistente WhatsApp', state: 'handed_over', reason: expect.stringContaining('asesor') });
    const bots = (await call('GET', '/bots?limit=100')).json().payload as Array<{ _id: string; name: string; dialogflowProjectId?: string }>;
    const demoBot = bots.find((b) => b.name === 'Asistente WhatsApp');
    expect(demoBot?.dialogflowProjectId).toMatch(/^sandbox:/);
    const seen = (await status()).find((s) => s.botId === demoBot?._id);
    expect(seen).toMatchObject({ sandbox: true, answered: 4, handedOver: 1 });

    await call('PUT', `/bots/${botId}`, { active: false });
    await call('PUT', `/bots/${demoBot?._id}`, { active: true });
    const test = (await call('POST', `/bots/${demoBot?._id}/test`, { text: '¿A qué hora abren?' })).json() as BotTestOut;
    expect(test).toMatchObject({ ok: true, intent: 'horarios', msg: expect.stringContaining('agente de prueba') });
    const calls = fake.calls.length;
    const from = nextPhone();
    await inbound(from, 'Hola, ¿hacen delivery?');
    const chatId = await chatOf(from);
    const [answer] = await until(() => botMessages(chatId), (m) => m.length === 1);
    expect(answer.content?.bot).toMatchObject({ name: 'Asistente WhatsApp' });
    expect(fake.calls.length).toBe(calls);
  });
});
