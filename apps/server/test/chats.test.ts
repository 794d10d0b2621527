import { randomUUID } from 'node:crypto';
import { type ChatMessage, type ChatSummary, type ChatThread, chatMessages_es, chatStateReasons, type RealtimeEvent } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_FAIL_REASON } from '../src/integrations/sandbox/send.js';
import { createChatService, INTERRUPTED_REASON } from '../src/modules/chats/service.js';
import { createInbound } from '../src/modules/conversations/inbound.js';
import { createWebhookProcessor, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import { DEMO_WHATSAPP_LINE } from '../src/seed/demo-chats.js';
import { deliver, type FakeGraph, metaMessage, startFakeGraph, wamid, whatsappImage, whatsappStatus, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp, until } from './helpers.js';

const TOKEN = 'EAAGm0PX4ZCpsBAJ9chatsTokenDePrueba7Q2x';
const PERU_LINE = '109000000000011';
const CHILE_LINE = '109000000000012';
const ACME_PAGE = '201000000000011';
const ACME_IG = '178400000000011';
const HOUR = 3_600_000;

let t: TestApp;
let fake: FakeGraph;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let chile: string;
let acmeCo: string;
let processor: WebhookProcessor;
const events: Array<{ companyId: string; event: RealtimeEvent }> = [];

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };
const call = (s: Signed, company: string, { method, url, payload }: Call) => t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });
const get = (s: Signed, company: string, url: string) => call(s, company, { method: 'GET', url });
const post = (s: Signed, company: string, url: string, payload?: object) => call(s, company, { method: 'POST', url, payload });

/** Processes every pending webhook event now (the queue may too: each is done once). */
async function settle() {
  for (const id of await processor.pendingIds()) await processor.process(id);
}

/** A WhatsApp message from `from` to a line, through the signed webhook and the job; answers the chat id. */
async function waInbound(line: string, from: string, text: string, { name = 'Cliente', at = new Date() }: { name?: string; at?: Date } = {}) {
  const res = await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: line, from, name, text, at }));
  expect(res.statusCode).toBe(200);
  await settle();
  return chatOf(from);
}

async function chatOf(platformUserId: string): Promise<string> {
  const [row] = await t.sql<{ chat_id: string }>('select chat_id from lead_identities where platform_user_id = $1', [platformUserId]);
  if (!row) throw new Error(`sin chat para ${platformUserId}`);
  return row.chat_id;
}
const leadOfChat = async (chatId: string) =>
  (await t.sql<{ lead_id: string; clean_lead_id: string }>('select c.lead_id, l.clean_lead_id from chats c join leads l on l.id = c.lead_id where c.id = $1', [chatId]))[0];
const count = async (text: string, values: unknown[] = []) => Number((await t.sql<{ n: number }>(text, values))[0].n);
const messagesOf = (chatId: string) => count('select count(*) as n from chat_messages where chat_id = $1', [chatId]);
const inbox = async (s: Signed, company: string, query = '') => {
  const res = await get(s, company, `/chats/get_chats${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { payload: ChatSummary[]; totalDocs: number; totalPages: number; page: number; limit: number };
};
const threadOf = async (chatId: string, query = '', s = admin, company = peru) => {
  const res = await get(s, company, `/chats/${chatId}/messages${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ChatThread;
};
const sent = () => fake.requests.filter((r) => r.method === 'POST');
const lastSent = () => sent().at(-1);

/**
 * The events a company's browsers heard from index `from` on, matching `which`, once there are
 * `n` of them (on PostgreSQL they travel through NOTIFY, so they arrive a moment later).
 */
const heard = (from: number, company: string, which: (e: RealtimeEvent) => boolean, n = 1) =>
  until(
    () => Promise.resolve(events.slice(from).filter((e) => e.companyId === company).map((e) => e.event).filter(which)),
    (list) => list.length >= n,
  );

describe('with the Graph API', () => {
  beforeAll(async () => {
    fake = await startFakeGraph(TOKEN);
    t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
    [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
    peru = admin.company('Demo Perú');
    chile = admin.company('Demo Chile');
    acmeCo = acme.company('Acme');
    processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
    for (const company of [peru, chile, acmeCo]) t.app.realtime.subscribe(company, (event) => events.push({ companyId: company, event }));
    const put = async (s: Signed, company: string, url: string, payload: object) => {
      const res = await t.app.inject({ method: 'PUT', url: `/api${url}`, headers: as(s, company), payload });
      expect(res.statusCode, res.body).toBe(200);
    };
    await put(admin, peru, '/channels/whatsapp', { phoneNumberId: PERU_LINE, accessToken: TOKEN });
    await put(admin, chile, '/channels/whatsapp', { phoneNumberId: CHILE_LINE, accessToken: TOKEN });
    await put(acme, acmeCo, '/channels/meta', { pageId: ACME_PAGE, pageName: 'Acme Chile', instagramAccountId: ACME_IG, accessToken: TOKEN });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  describe('the inbox', () => {
    const ids: Record<string, string> = {};
    const at = (hoursAgo: number) => new Date(Math.floor((Date.now() - hoursAgo * HOUR) / 1000) * 1000);
    // the newest message's instant, taken once: computing at(1) again later can land a second after
    let newAt: Date;

    beforeAll(async () => {
      ids.old = await waInbound(CHILE_LINE, '56911000001', 'Quiero cotizar 20 cajas', { name: 'Pedro Soto', at: at(30) });
      ids.mid = await waInbound(CHILE_LINE, '56911000002', '¿Despachan a Viña del Mar?', { name: 'Camila Rojas', at: at(5) });
      newAt = at(1);
      ids.new = await waInbound(CHILE_LINE, '56911000003', 'Hola, ¿precio del pack?', { name: 'Javiera Muñoz', at: newAt });
      // a Messenger conversation of Demo Chile (no Messenger channel there)
      const inbound = createInbound(t.app.secrets);
      await t.database.db.transaction((tx) =>
        inbound.message(tx, chile, 'CL', 'messenger', { from: '6100000000000077', name: 'Ignacio Vera', messageId: `m_${randomUUID()}`, timestamp: at(2).toISOString(), kind: 'text', text: 'Buenas noches' }),
      );
      ids.messenger = await chatOf('6100000000000077');
    });

    it('lists the company’s chats, last activity first, with lead and WhatsApp window', async () => {
      const page = await inbox(admin, chile);
      expect(page.payload.map((c) => c._id)).toEqual([ids.new, ids.messenger, ids.mid, ids.old]);
      expect(page).toMatchObject({ totalDocs: 4, totalPages: 1, page: 1, limit: 10 });
      const first = page.payload[0];
      expect(first).toMatchObject({ contactName: 'Javiera Muñoz', platform: 'whatsapp', status: 'open', unreadCount: 1, lastMessagePreview: 'Hola, ¿precio del pack?' });
      expect(first.lead).toMatchObject({ name: 'Javiera Muñoz', telefono: '56911000003', status: 'sin-asignar' });
      expect(first.windowOpenUntil).toBe(new Date(newAt.getTime() + 24 * HOUR).toISOString());
      // the chat of 30 hours ago is outside the window: its window ended 6 hours ago
      expect(Date.parse(page.payload[3].windowOpenUntil as string)).toBeLessThan(Date.now());
      const recent = await get(admin, chile, '/chats/recent_chats?limit=2');
      expect(recent.json().payload.map((c: ChatSummary) => c._id)).toEqual([ids.new, ids.messenger]);
    });

    it('pages', async () => {
      const second = await inbox(admin, chile, '?limit=3&page=2');
      expect(second).toMatchObject({ totalDocs: 4, totalPages: 2, page: 2, limit: 3 });
      expect(second.payload.map((c) => c._id)).toEqual([ids.old]);
      const bad = await get(admin, chile, '/chats/get_chats?limit=500&page=0');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.msg).toMatch(/página|límite/);
    });

    it('filters by platform, status, unread and searches name, phone and last message', async () => {
      expect((await inbox(admin, chile, '?platform=facebook')).payload.map((c) => c._id)).toEqual([ids.messenger]);
      const read = await post(admin, chile, `/chats/${ids.mid}/read`);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json()).toMatchObject({ _id: ids.mid, unreadCount: 0 });
      expect((await inbox(admin, chile, '?unread=false')).payload.map((c) => c._id)).toEqual([ids.mid]);
      expect((await inbox(admin, chile, '?unread=true')).totalDocs).toBe(3);
      await t.sql(`update chats set status = 'closed' where id = $1`, [ids.old]);
      expect((await inbox(admin, chile, '?status=closed')).payload.map((c) => c._id)).toEqual([ids.old]);
      expect((await inbox(admin, chile, '?filter=camila')).payload.map((c) => c._id)).toEqual([ids.mid]);
      expect((await inbox(admin, chile, `?filter=${encodeURIComponent('+56 9 1100 0003')}`)).payload.map((c) => c._id)).toEqual([ids.new]);
      expect((await inbox(admin, chile, `?filter=${encodeURIComponent('viña')}`)).payload.map((c) => c._id)).toEqual([ids.mid]);
      const none = await inbox(admin, chile, '?filter=zzzz');
      expect(none).toMatchObject({ totalDocs: 0, payload: [] });
      const unknown = await get(admin, chile, '/chats/get_chats?platform=telegram');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errors.msg).toMatch(/Canal desconocido/);
    });

    it('filters by the lead: status, agent, label and chat group', async () => {
      const create = async (url: string, payload: object) => {
        const res = await post(admin, chile, url, payload);
        expect(res.statusCode, res.body).toBe(201);
        return res.json()._id as string;
      };
      const agente = await create('/agentes', { name: 'Rocío Díaz' });
      const vip = await create('/mostrador-labels', { name: 'VIP', color: '#FFAA00' });
      const mayorista = await create('/mostrador-labels', { name: 'Mayorista', color: '#00AAFF' });
      const lead = async (chatId: string, patch: object) => {
        const { lead_id } = await leadOfChat(chatId);
        const res = await call(admin, chile, { method: 'PUT', url: `/leads/${lead_id}`, payload: patch });
        expect(res.statusCode, res.body).toBe(200);
      };
      await lead(ids.new, { status: 'compra-realizada', mostradorLabels: [vip] });
      await lead(ids.mid, { agenteId: agente });
      await lead(ids.old, { mostradorLabels: [mayorista] });

      expect((await inbox(admin, chile, '?leadStatus=compra-realizada')).payload.map((c) => c._id)).toEqual([ids.new]);
      expect((await inbox(admin, chile, `?agenteId=${agente}`)).payload.map((c) => c._id)).toEqual([ids.mid]);
      expect((await inbox(admin, chile, `?mostradorLabelId=${vip}`)).payload.map((c) => c._id)).toEqual([ids.new]);
      // a chat group holds chats whose lead carries one of its labels or is assigned to one of its agents
      const group = await create('/users/chat_groups', { name: 'Ventas', color: '#112233', mostradorLabelIds: [vip, mayorista], agenteIds: [agente] });
      const grouped = await inbox(admin, chile, `?chatGroupId=${group}`);
      expect(grouped.payload.map((c) => c._id)).toEqual([ids.new, ids.mid, ids.old]);
      expect(grouped.totalDocs).toBe(3);
      const labelsOnly = await create('/users/chat_groups', { name: 'Mayoristas', color: '#112244', mostradorLabelIds: [mayorista] });
      expect((await inbox(admin, chile, `?chatGroupId=${labelsOnly}`)).payload.map((c) => c._id)).toEqual([ids.old]);
      const empty = await create('/users/chat_groups', { name: 'Vacío', color: '#112255' });
      expect((await inbox(admin, chile, `?chatGroupId=${empty}`)).totalDocs).toBe(0);
      // another company's group is not found
      const foreign = await get(admin, peru, `/chats/get_chats?chatGroupId=${group}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().errors.msg).toMatch(/no existe en esta compañía/);
    });
  });

  it('a send a crash interrupted (still pending after minutes) becomes failed with a reason when the server starts', async () => {
    const chatId = await waInbound(PERU_LINE, '51977000150', 'Hola', { name: 'Iris Campos' });
    const insert = (minutesAgo: number, text: string) =>
      t.sql<{ id: string }>(
        `insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at, created_at)
         values ($1, $2, 'out', 'text', $3, 'pending', now() - make_interval(mins => $4), now() - make_interval(mins => $4)) returning id`,
        [peru, chatId, text, minutesAgo],
      );
    const [stale] = await insert(10, 'quedó a medio enviar');
    const [fresh] = await insert(0, 'se está enviando ahora');
    const service = createChatService({ db: t.database.db, secrets: t.app.secrets, realtime: t.app.realtime, jobs: t.app.jobs, config: t.app.settings, log: t.app.log });
    expect(await service.failInterrupted()).toBe(1);
    const messages = (await threadOf(chatId)).payload;
    expect(messages.find((m) => m._id === stale.id)).toMatchObject({ status: 'failed', statusError: INTERRUPTED_REASON });
    expect(messages.find((m) => m._id === fresh.id)).toMatchObject({ status: 'pending' });
  });

  describe('a thread', () => {
    let chatId: string;
    const from = '51977000100';

    beforeAll(async () => {
      const base = Date.now() - 2 * HOUR;
      for (let i = 0; i < 5; i++) {
        chatId = await waInbound(PERU_LINE, from, `mensaje ${i + 1}`, { name: 'Elena Campos', at: new Date(base + i * 60_000) });
      }
    });

    it('pages oldest → newest with a before cursor', async () => {
      const last = await threadOf(chatId, '?limit=2');
      expect(last.chat).toMatchObject({ _id: chatId, contactName: 'Elena Campos' });
      expect(last.payload.map((m) => m.text)).toEqual(['mensaje 4', 'mensaje 5']);
      expect(last.hasMore).toBe(true);
      expect(last.payload[0]).toMatchObject({ direction: 'in', kind: 'text', status: 'received', isActive: true, hasMedia: false, chatId });
      const before = await threadOf(chatId, `?limit=2&before=${encodeURIComponent(last.payload[0].sentAt)}`);
      expect(before.payload.map((m) => m.text)).toEqual(['mensaje 2', 'mensaje 3']);
      expect(before.hasMore).toBe(true);
      const first = await threadOf(chatId, `?limit=2&before=${encodeURIComponent(before.payload[0].sentAt)}`);
      expect(first.payload.map((m) => m.text)).toEqual(['mensaje 1']);
      expect(first.hasMore).toBe(false);
    });

    it('keeps messages of the same instant together across pages', async () => {
      const other = await waInbound(PERU_LINE, '51977000101', 'primero', { at: new Date(Date.now() - 3 * HOUR) });
      const same = new Date(Date.now() - HOUR);
      for (const text of ['a', 'b', 'c']) {
        await t.sql(`insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at) values ($1, $2, 'out', 'text', $3, 'read', $4)`, [peru, other, text, same]);
      }
      const page = await threadOf(other, '?limit=2');
      expect(page.payload.map((m) => m.text).sort()).toEqual(['a', 'b', 'c']);
      expect(page.hasMore).toBe(true);
      const rest = await threadOf(other, `?limit=2&before=${encodeURIComponent(page.payload[0].sentAt)}`);
      expect(rest.payload.map((m) => m.text)).toEqual(['primero']);
      expect(rest.hasMore).toBe(false);
    });

    it('is the same by lead and platform; a person’s chats come by clean lead', async () => {
      const { lead_id, clean_lead_id } = await leadOfChat(chatId);
      const byLead = await get(admin, peru, `/chats/get_all_by_lead_id?leadId=${lead_id}&platform=whatsapp&limit=2`);
      expect(byLead.statusCode, byLead.body).toBe(200);
      expect(byLead.json()).toEqual(await threadOf(chatId, '?limit=2'));
      const otherPlatform = await get(admin, peru, `/chats/get_all_by_lead_id?leadId=${lead_id}&platform=instagram`);
      expect(otherPlatform.statusCode).toBe(404);
      expect(otherPlatform.json().errors.msg).toMatch(/no tiene un chat en ese canal/);
      // the same person on Messenger, merged into the same clean lead
      const inbound = createInbound(t.app.secrets);
      await t.database.db.transaction((tx) =>
        inbound.message(tx, peru, 'PE', 'messenger', { from: '6100000000000088', name: 'Elena C.', messageId: `m_${randomUUID()}`, timestamp: new Date().toISOString(), kind: 'text', text: 'Hola por Messenger' }),
      );
      const messengerChat = await chatOf('6100000000000088');
      const { lead_id: messengerLead } = await leadOfChat(messengerChat);
      await t.sql('update leads set clean_lead_id = $1 where id = $2', [clean_lead_id, messengerLead]);
      const person = await get(admin, peru, `/chats/get_all_by_cleanlead_id?cleanLeadId=${clean_lead_id}`);
      expect(person.statusCode, person.body).toBe(200);
      expect(person.json().payload.map((c: ChatSummary) => c._id)).toEqual([messengerChat, chatId]);
      expect((await get(admin, peru, `/chats/get_all_by_cleanlead_id?cleanLeadId=${randomUUID()}`)).statusCode).toBe(404);
    });
  });

  describe('sending', () => {
    let chatId: string;
    const from = '51977000200';

    beforeAll(async () => {
      chatId = await waInbound(PERU_LINE, from, '¿Tienen delivery a La Molina?', { name: 'Óscar Ruiz', at: new Date(Date.now() - 2 * HOUR) });
    });

    it('sends a WhatsApp text through the Cloud API and stores it sent with the wamid', async () => {
      const before = sent().length;
      const seen = events.length;
      const res = await post(admin, peru, `/chats/${chatId}/messages`, { text: 'Sí, llegamos a La Molina 👉 https://mostrador.pe/delivery' });
      expect(res.statusCode, res.body).toBe(201);
      const message = res.json() as ChatMessage;
      expect(sent()).toHaveLength(before + 1);
      const request = lastSent();
      expect(request).toMatchObject({ method: 'POST', path: `/v21.0/${PERU_LINE}/messages`, authorization: `Bearer ${TOKEN}` });
      expect(request?.body).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: from,
        type: 'text',
        text: { body: 'Sí, llegamos a La Molina 👉 https://mostrador.pe/delivery', preview_url: true },
      });
      expect(message).toMatchObject({ chatId, direction: 'out', kind: 'text', status: 'sent', isActive: true, sentBy: admin.user._id });
      expect(message.mid).toMatch(/^WAMID\./);
      const thread = await threadOf(chatId);
      expect(thread.payload.at(-1)).toEqual(message);
      expect(thread.chat).toMatchObject({ lastMessagePreview: 'Sí, llegamos a La Molina 👉 https://mostrador.pe/delivery', unreadCount: 0 });
      // the browsers heard of it from its events (message.sent, message.status): created, then updated (sent); each
      // read once committed, so the creation may already show it sent
      const mine = await heard(seen, peru, (e) => (e.type === 'message.created' || e.type === 'message.updated') && e.message._id === message._id, 2);
      expect(mine[0]).toMatchObject({ type: 'message.created', chat: { _id: chatId }, message: { _id: message._id } });
      expect(mine[1]).toMatchObject({ type: 'message.updated', chatId, message: { _id: message._id, status: 'sent', mid: message.mid } });
    });

    it('sends media by link with its caption', async () => {
      const image = await post(admin, peru, `/chats/${chatId}/messages`, { kind: 'image', mediaUrl: 'https://cdn.mostrador.pe/packs/familiar.jpg', text: 'Pack familiar a S/ 49.90' });
      expect(image.statusCode, image.body).toBe(201);
      expect(lastSent()?.body).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: from,
        type: 'image',
        image: { link: 'https://cdn.mostrador.pe/packs/familiar.jpg', caption: 'Pack familiar a S/ 49.90' },
      });
      expect(image.json()).toMatchObject({ kind: 'image', mediaUrl: 'https://cdn.mostrador.pe/packs/familiar.jpg', text: 'Pack familiar a S/ 49.90', hasMedia: false, status: 'sent' });
      const doc = await post(admin, peru, `/chats/${chatId}/messages`, { kind: 'document', mediaUrl: 'https://cdn.mostrador.pe/docs/catalogo-marzo.pdf' });
      expect(doc.statusCode, doc.body).toBe(201);
      expect(lastSent()?.body).toMatchObject({ type: 'document', document: { link: 'https://cdn.mostrador.pe/docs/catalogo-marzo.pdf', filename: 'catalogo-marzo.pdf' } });
      const missing = await post(admin, peru, `/chats/${chatId}/messages`, { kind: 'video' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors.msg).toMatch(/enlace/);
    });

    it('an agent may send (their id is kept) but not delete; an admin deletes, and the message stays inactive', async () => {
      const res = await post(agent, peru, `/chats/${chatId}/messages`, { text: 'Le escribe Carlos, del equipo de ventas' });
      expect(res.statusCode, res.body).toBe(201);
      const message = res.json() as ChatMessage;
      expect(message.sentBy).toBe(agent.user._id);
      const denied = await call(agent, peru, { method: 'DELETE', url: `/chats/${chatId}/messages/${message._id}` });
      expect(denied.statusCode).toBe(401);
      expect((await threadOf(chatId)).payload.find((m) => m._id === message._id)?.isActive).toBe(true);
      const seen = events.length;
      const removed = await call(admin, peru, { method: 'DELETE', url: `/chats/${chatId}/messages/${message._id}` });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json()).toEqual({ status: 200, _id: message._id });
      const kept = (await threadOf(chatId)).payload.find((m) => m._id === message._id);
      expect(kept).toMatchObject({ isActive: false, text: 'Le escribe Carlos, del equipo de ventas' });
      // (the send's own status may still be on its way: the deletion is the update that says inactive)
      const updates = await heard(seen, peru, (e) => e.type === 'message.updated' && e.message._id === message._id && !e.message.isActive);
      expect(updates[0]).toMatchObject({ type: 'message.updated', chatId, message: { _id: message._id, isActive: false } });
      // a message of another chat is not found through this one
      const other = await waInbound(PERU_LINE, '51977000299', 'hola');
      const [otherMessage] = await t.sql<{ id: string }>('select id from chat_messages where chat_id = $1', [other]);
      expect((await call(admin, peru, { method: 'DELETE', url: `/chats/${chatId}/messages/${otherMessage.id}` })).statusCode).toBe(404);
    });

    it('a Graph API error stores the message failed and answers 502 in Spanish', async () => {
      fake.failNext(400, { message: '(#131030) Recipient phone number not in allowed list', type: 'OAuthException', code: 131030, error_subcode: 2655007 });
      const res = await post(admin, peru, `/chats/${chatId}/messages`, { text: 'Hola de nuevo' });
      expect(res.statusCode).toBe(502);
      expect(res.json().errors.code).toBe('PROVIDER_ERROR');
      expect(res.json().errors.msg).toBe(
        'No se pudo enviar el mensaje: Meta rechazó el mensaje: (#131030) Recipient phone number not in allowed list (código 131030/2655007)',
      );
      const last = (await threadOf(chatId)).payload.at(-1);
      expect(last).toMatchObject({ text: 'Hola de nuevo', status: 'failed', statusError: 'Meta rechazó el mensaje: (#131030) Recipient phone number not in allowed list (código 131030/2655007)' });
      expect(last?.mid).toBeUndefined();
      // a token Meta does not accept is a provider error too, never a 500
      await t.sql(`update channels set access_token = $1 where company_id = $2 and kind = 'whatsapp'`, [t.app.secrets.seal('EAAotrotokenquemetanoreconoce123'), peru]);
      const wrong = await post(admin, peru, `/chats/${chatId}/messages`, { text: 'Otra vez' });
      expect(wrong.statusCode).toBe(502);
      expect(wrong.json().errors.code).toBe('PROVIDER_ERROR');
      // a known Graph code reads as Spanish (error-reasons.ts), with the code for support
      expect(wrong.json().errors.msg).toBe('No se pudo enviar el mensaje: El token de acceso venció o no es válido: un administrador debe guardar uno nuevo en Integraciones › WhatsApp (código 190)');
      await t.sql(`update channels set access_token = $1 where company_id = $2 and kind = 'whatsapp'`, [t.app.secrets.seal(TOKEN), peru]);
    });

    it('refuses a free-form message 24 hours after the customer’s last one, sending and storing nothing', async () => {
      const late = await waInbound(PERU_LINE, '51977000300', 'Hola', { at: new Date(Date.now() - 25 * HOUR) });
      const [stored, requests] = [await messagesOf(late), sent().length];
      const res = await post(admin, peru, `/chats/${late}/messages`, { text: '¿Sigue interesado?' });
      expect(res.statusCode).toBe(409);
      expect(res.json().errors.msg).toBe(chatMessages_es.outsideWindow);
      expect(await messagesOf(late)).toBe(stored);
      expect(sent()).toHaveLength(requests);
      // a new message from the customer opens it again
      await waInbound(PERU_LINE, '51977000300', 'Sí, sigo interesado');
      expect((await post(admin, peru, `/chats/${late}/messages`, { text: '¡Genial!' })).statusCode).toBe(201);
    });

    it('refuses a chat whose channel the company has not configured', async () => {
      const chileMessenger = await chatOf('6100000000000077');
      const before = await messagesOf(chileMessenger);
      const res = await post(admin, chile, `/chats/${chileMessenger}/messages`, { text: 'Hola Ignacio' });
      expect(res.statusCode).toBe(409);
      expect(res.json().errors.msg).toBe(chatStateReasons.notConnected('messenger'));
      expect(res.json().errors.msg).not.toMatch(/\//);
      expect(await messagesOf(chileMessenger)).toBe(before);
    });
  });

  describe('Messenger and Instagram', () => {
    const psid = '6543210987650011';
    const igsid = '17841400000000911';
    let messenger: string;
    let instagram: string;

    beforeAll(async () => {
      await deliver(t, '/api/webhooks/meta', metaMessage({ pageId: ACME_PAGE, sender: psid, text: 'Hola, ¿tienen el polo en azul?' }));
      await deliver(t, '/api/webhooks/meta', metaMessage({ object: 'instagram', pageId: ACME_IG, sender: igsid, text: 'Hola desde IG' }));
      await settle();
      messenger = await chatOf(psid);
      instagram = await chatOf(igsid);
    });

    it('send text and attachments through the page with the Send API', async () => {
      const text = await post(acme, acmeCo, `/chats/${messenger}/messages`, { text: 'Sí, en azul y en negro' });
      expect(text.statusCode, text.body).toBe(201);
      expect(lastSent()).toMatchObject({ path: `/v21.0/${ACME_PAGE}/messages`, authorization: `Bearer ${TOKEN}` });
      expect(lastSent()?.body).toEqual({ recipient: { id: psid }, messaging_type: 'RESPONSE', message: { text: 'Sí, en azul y en negro' } });
      expect(text.json().mid).toMatch(/^m_/);

      const before = sent().length;
      const doc = await post(acme, acmeCo, `/chats/${messenger}/messages`, { kind: 'document', mediaUrl: 'https://cdn.acme.cl/tallas.pdf', text: 'La guía de tallas' });
      expect(doc.statusCode, doc.body).toBe(201);
      // an attachment has no caption on Messenger: the text follows as its own message
      expect(sent().slice(before).map((r) => r.body)).toEqual([
        { recipient: { id: psid }, messaging_type: 'RESPONSE', message: { attachment: { type: 'file', payload: { url: 'https://cdn.acme.cl/tallas.pdf', is_reusable: true } } } },
        { recipient: { id: psid }, messaging_type: 'RESPONSE', message: { text: 'La guía de tallas' } },
      ]);

      const image = await post(acme, acmeCo, `/chats/${instagram}/messages`, { kind: 'image', mediaUrl: 'https://cdn.acme.cl/polo-azul.jpg' });
      expect(image.statusCode, image.body).toBe(201);
      // Instagram messages go through the page the account is linked to
      expect(lastSent()).toMatchObject({ path: `/v21.0/${ACME_PAGE}/messages`, authorization: `Bearer ${TOKEN}` });
      expect(lastSent()?.body).toEqual({
        recipient: { id: igsid },
        messaging_type: 'RESPONSE',
        message: { attachment: { type: 'image', payload: { url: 'https://cdn.acme.cl/polo-azul.jpg', is_reusable: true } } },
      });
    });

    it('refuses what the platform would refuse for its length, before storing anything', async () => {
      const [stored, requests] = [await messagesOf(messenger), sent().length];
      const long = await post(acme, acmeCo, `/chats/${messenger}/messages`, { text: 'a'.repeat(2001) });
      expect(long.statusCode).toBe(400);
      expect(long.json().errors.msg).toBe('Messenger admite hasta 2000 caracteres por mensaje');
      expect(await messagesOf(messenger)).toBe(stored);
      expect(sent()).toHaveLength(requests);
    });

    it('a Send API error is a failed message and a 502', async () => {
      fake.failNext(400, { message: '(#10) This message is sent outside of allowed window.', type: 'OAuthException', code: 10, error_subcode: 2018278 });
      const res = await post(acme, acmeCo, `/chats/${messenger}/messages`, { text: 'Promo' });
      expect(res.statusCode).toBe(502);
      expect(res.json().errors.code).toBe('PROVIDER_ERROR');
      expect(res.json().errors.msg).toBe(
        'No se pudo enviar el mensaje: Pasaron más de 24 horas desde el último mensaje del cliente: la página solo puede escribirle cuando vuelva a escribir (código 10/2018278)',
      );
      expect((await threadOf(messenger, '', acme, acmeCo)).payload.at(-1)).toMatchObject({ status: 'failed', text: 'Promo' });
    });
  });

  describe('media', () => {
    it('downloads a WhatsApp media id through the Graph API and streams it with its type', async () => {
      const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5]);
      fake.media.set('1479537139650973', { bytes, mimeType: 'image/jpeg' });
      await deliver(t, '/api/webhooks/whatsapp', whatsappImage({ phoneNumberId: PERU_LINE, from: '51977000400', caption: 'Este modelo' }));
      await settle();
      const chatId = await chatOf('51977000400');
      const image = (await threadOf(chatId)).payload.at(-1) as ChatMessage;
      expect(image).toMatchObject({ kind: 'image', hasMedia: true, mimeType: 'image/jpeg', text: 'Este modelo' });
      const from = fake.requests.length;
      const res = await get(admin, peru, `/chats/media/${image._id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.rawPayload.equals(bytes)).toBe(true);
      const calls = fake.requests.slice(from);
      expect(calls.map((c) => [c.method, c.path.split('?')[0], c.authorization])).toEqual([
        ['GET', '/v21.0/1479537139650973', `Bearer ${TOKEN}`],
        ['GET', '/lookaside/1479537139650973', `Bearer ${TOKEN}`],
      ]);
      // another company cannot fetch it
      expect((await get(acme, acmeCo, `/chats/media/${image._id}`)).statusCode).toBe(404);
      // a media id Meta no longer has is a 404, not a 500
      fake.media.delete('1479537139650973');
      const gone = await get(admin, peru, `/chats/media/${image._id}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().errors.msg).toMatch(/no está disponible/);
    });

    it('redirects to a message’s link, and a message without media is a 404', async () => {
      const psid = '6543210987650022';
      await deliver(t, '/api/webhooks/meta', metaMessage({ pageId: ACME_PAGE, sender: psid, attachment: { type: 'image', url: 'https://scontent.xx.fbcdn.net/v/foto.jpg' } }));
      await settle();
      const [photo] = (await threadOf(await chatOf(psid), '', acme, acmeCo)).payload;
      expect(photo).toMatchObject({ kind: 'image', hasMedia: false, mediaUrl: 'https://scontent.xx.fbcdn.net/v/foto.jpg' });
      const res = await get(acme, acmeCo, `/chats/media/${photo._id}`);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://scontent.xx.fbcdn.net/v/foto.jpg');
      const [text] = await t.sql<{ id: string }>(`select id from chat_messages where company_id = $1 and kind = 'text' limit 1`, [peru]);
      const none = await get(admin, peru, `/chats/media/${text.id}`);
      expect(none.statusCode).toBe(404);
      expect(none.json().errors.msg).toBe('Este mensaje no tiene archivo');
    });
  });

  describe('a massive message', () => {
    it('queues the chats that can be written to and reports the others with the reason', async () => {
      const a = await waInbound(PERU_LINE, '51977000501', 'Hola', { name: 'Ana Paz' });
      const b = await waInbound(PERU_LINE, '51977000502', 'Buenas', { name: 'Bruno Paz' });
      const late = await waInbound(PERU_LINE, '51977000503', 'Hola', { name: 'Carla Paz', at: new Date(Date.now() - 30 * HOUR) });
      const unknown = randomUUID();
      const foreign = await chatOf('56911000003'); // a chat of Demo Chile
      const before = sent().length;
      const res = await post(admin, peru, '/chats/send_massive_message', { chatIds: [a, b, late, unknown, foreign, a], text: 'Este sábado 2x1 en gaseosas 🥤' });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ msg: 'Mensajes enviados con éxito', queued: 2 });
      expect(body.skipped).toEqual([
        { chatId: late, contactName: 'Carla Paz', reason: chatMessages_es.outsideWindow },
        { chatId: unknown, reason: 'El chat no existe en esta compañía' },
        { chatId: foreign, reason: 'El chat no existe en esta compañía' },
      ]);
      // the queue sends each through the same path as a typed message
      await until(() => Promise.resolve(sent().length), (n) => n >= before + 2);
      const bodies = sent().slice(before).map((r) => r.body as { to: string; text: { body: string } });
      expect(bodies.map((x) => x.to).sort()).toEqual(['51977000501', '51977000502']);
      expect(bodies.every((x) => x.text.body === 'Este sábado 2x1 en gaseosas 🥤')).toBe(true);
      const log = await until(
        () => t.sql<{ total: number; sent: number; failed: number; status: string }>(`select total, sent, failed, status from massive_messages_logs where company_id = $1 and message = $2`, [peru, 'Este sábado 2x1 en gaseosas 🥤']),
        (rows) => rows[0]?.status === 'sent',
      );
      expect(log[0]).toMatchObject({ total: 2, sent: 2, failed: 0 });
      for (const chat of [a, b]) {
        const last = (await threadOf(chat)).payload.at(-1);
        expect(last).toMatchObject({ direction: 'out', status: 'sent', sentBy: admin.user._id });
      }
      expect(await messagesOf(late)).toBe(1);
    });

    it('skips a person who asked at /dias-frecuencia not to receive messages', async () => {
      const optedOut = await waInbound(PERU_LINE, '51977000601', 'Hola', { name: 'Diana Paz' });
      const marked = await t.sql(
        `update clean_leads set opt_out = true where company_id = $1 and id = (select l.clean_lead_id from chats c join leads l on l.id = c.lead_id where c.id = $2) returning id`,
        [peru, optedOut],
      );
      expect(marked).toHaveLength(1);
      const res = await post(admin, peru, '/chats/send_massive_message', { chatIds: [optedOut], text: 'Promo de verano' });
      expect(res.json()).toMatchObject({ queued: 0, skipped: [{ chatId: optedOut, contactName: 'Diana Paz', reason: 'La persona pidió no recibir mensajes (/dias-frecuencia)' }] });
      // answering the person in the inbox is still possible: they wrote first
      const answer = await post(admin, peru, `/chats/${optedOut}/messages`, { kind: 'text', text: 'Con gusto le ayudo' });
      expect(answer.statusCode, answer.body).toBe(201);
    });

    it('is validated, in Spanish', async () => {
      const empty = await post(admin, peru, '/chats/send_massive_message', { chatIds: [], text: 'x' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors.msg).toMatch(/al menos un chat/);
      const noText = await post(admin, peru, '/chats/send_massive_message', { chatIds: [randomUUID()], text: '  ' });
      expect(noText.statusCode).toBe(400);
      expect(noText.json().errors.msg).toMatch(/requerido/);
    });
  });

  describe('realtime', () => {
    it('an inbound message publishes message.created; a status, message.updated; a read, chat.updated', async () => {
      const seen = events.length;
      const chatId = await waInbound(PERU_LINE, '51977000600', 'Hola, ¿hay stock?', { name: 'Diana Luna' });
      const created = await heard(seen, peru, (e) => e.type === 'message.created' && e.chat._id === chatId);
      expect(created).toMatchObject([
        { type: 'message.created', chat: { _id: chatId, contactName: 'Diana Luna', unreadCount: 1 }, message: { text: 'Hola, ¿hay stock?', direction: 'in', status: 'received' } },
      ]);
      const reply = await post(admin, peru, `/chats/${chatId}/messages`, { text: 'Sí, hay stock' });
      const mid = reply.json().mid as string;
      const afterSend = events.length;
      await deliver(t, '/api/webhooks/whatsapp', whatsappStatus({ phoneNumberId: PERU_LINE, id: mid, status: 'delivered', recipient: '51977000600' }));
      await settle();
      const delivered = await heard(afterSend, peru, (e) => e.type === 'message.updated' && e.message.mid === mid && e.message.status === 'delivered');
      expect(delivered).toMatchObject([{ type: 'message.updated', chatId, message: { mid, status: 'delivered' } }]);
      const afterStatus = events.length;
      await post(admin, peru, `/chats/${chatId}/read`);
      const read = await heard(afterStatus, peru, (e) => e.type === 'chat.updated');
      expect(read).toMatchObject([{ type: 'chat.updated', chat: { _id: chatId, unreadCount: 0 } }]);
      // nothing of it reached another company
      expect(events.filter((e) => e.companyId !== peru && JSON.stringify(e.event).includes(chatId))).toEqual([]);
    });
  });

  describe('tenant isolation', () => {
    it('another company can neither read, send to, mark, delete in nor find a chat', async () => {
      const chatId = await waInbound(PERU_LINE, '51977000700', 'Solo para Demo Perú', { name: 'Hugo Ramos' });
      const [message] = await t.sql<{ id: string }>('select id from chat_messages where chat_id = $1', [chatId]);
      const { lead_id, clean_lead_id } = await leadOfChat(chatId);
      const stored = await messagesOf(chatId);
      const requests = sent().length;
      for (const [s, company] of [
        [acme, acmeCo],
        [admin, chile],
      ] as const) {
        const calls: Call[] = [
          { method: 'GET', url: `/chats/${chatId}/messages` },
          { method: 'POST', url: `/chats/${chatId}/messages`, payload: { text: 'intruso' } },
          { method: 'POST', url: `/chats/${chatId}/read` },
          { method: 'DELETE', url: `/chats/${chatId}/messages/${message.id}` },
          { method: 'GET', url: `/chats/media/${message.id}` },
          { method: 'GET', url: `/chats/get_all_by_lead_id?leadId=${lead_id}&platform=whatsapp` },
          { method: 'GET', url: `/chats/get_all_by_cleanlead_id?cleanLeadId=${clean_lead_id}` },
        ];
        for (const c of calls) {
          const res = await call(s, company, c);
          expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
          expect(res.json().errors.msg, `${c.method} ${c.url}`).toMatch(/no existe en esta compañía/);
        }
        const massive = await call(s, company, { method: 'POST', url: '/chats/send_massive_message', payload: { chatIds: [chatId], text: 'intruso' } });
        expect(massive.json()).toMatchObject({ queued: 0, skipped: [{ chatId, reason: 'El chat no existe en esta compañía' }] });
        const listed = await inbox(s, company, '?limit=100');
        expect(listed.payload.map((c) => c._id)).not.toContain(chatId);
        expect((await inbox(s, company, '?filter=Hugo%20Ramos')).totalDocs).toBe(0);
      }
      expect(await messagesOf(chatId)).toBe(stored);
      expect(sent()).toHaveLength(requests);
      expect((await threadOf(chatId)).payload.every((m) => m.isActive)).toBe(true);
      // a company header the user does not belong to is refused before anything
      expect((await get(acme, peru, `/chats/${chatId}/messages`)).statusCode).toBe(401);
    });
  });
});

describe('with the sandbox provider', () => {
  let sandbox: TestApp;
  let signed: Signed;
  let company: string;

  beforeAll(async () => {
    sandbox = await startTestApp({ SANDBOX_STATUS_SECONDS: '1' });
    signed = await login(sandbox, demo.admin);
    company = signed.company('Demo Perú');
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const thread = async (chatId: string) => (await sandbox.app.inject({ method: 'GET', url: `/api/chats/${chatId}/messages`, headers: as(signed, company) })).json() as ChatThread;

  it('the demo has a sandbox WhatsApp line and conversations, some inside the window', async () => {
    const [line] = await sandbox.sql<{ provider_id: string }>(`select provider_id from channels where company_id = $1 and kind = 'whatsapp'`, [company]);
    expect(line.provider_id).toBe(DEMO_WHATSAPP_LINE);
    const res = await sandbox.app.inject({ method: 'GET', url: '/api/chats/get_chats?limit=100', headers: as(signed, company) });
    const page = res.json() as { payload: ChatSummary[]; totalDocs: number };
    expect(page.totalDocs).toBeGreaterThan(60);
    expect(page.payload.every((c) => c.lead && c.lastMessagePreview)).toBe(true);
    const open = page.payload.filter((c) => c.windowOpenUntil && Date.parse(c.windowOpenUntil) > Date.now());
    expect(open.filter((c) => c.platform === 'whatsapp').length).toBeGreaterThanOrEqual(2);
    const kinds = await sandbox.sql<{ kind: string; status: string }>(`select distinct kind, status from chat_messages where company_id = $1`, [company]);
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['text', 'image', 'document']));
    expect(kinds.map((k) => k.status)).toEqual(expect.arrayContaining(['received', 'read', 'delivered', 'failed']));
    const first = await thread(page.payload[0]._id);
    expect(first.payload.length).toBeGreaterThanOrEqual(3);
  });

  it('accepts a message and reports sent → delivered → read through the status path', async () => {
    const page = (await sandbox.app.inject({ method: 'GET', url: '/api/chats/get_chats?platform=whatsapp&limit=100', headers: as(signed, company) })).json() as { payload: ChatSummary[] };
    const open = page.payload.filter((c) => c.windowOpenUntil && Date.parse(c.windowOpenUntil) > Date.now());
    const [ok, failing] = open;
    const updates: RealtimeEvent[] = [];
    sandbox.app.realtime.subscribe(company, (e) => updates.push(e));

    const res = await sandbox.app.inject({ method: 'POST', url: `/api/chats/${ok._id}/messages`, headers: as(signed, company), payload: { text: 'Su pedido sale hoy' } });
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json() as ChatMessage;
    expect(message.status).toBe('sent');
    expect(message.mid).toMatch(/^wamid\.SANDBOX/);
    const read = await until(
      async () => (await thread(ok._id)).payload.find((m) => m._id === message._id),
      (m) => m?.status === 'read',
    );
    expect(read?.statusError).toBeUndefined();
    const statuses = await until(
      () => Promise.resolve(updates.flatMap((e) => (e.type === 'message.updated' && e.message._id === message._id ? [e.message.status] : []))),
      (list) => list.length >= 3,
    );
    expect(statuses).toEqual(['sent', 'delivered', 'read']);

    // '#falla' is accepted, then reported failed with a provider-like reason
    const bad = await sandbox.app.inject({ method: 'POST', url: `/api/chats/${failing._id}/messages`, headers: as(signed, company), payload: { text: 'Prueba #falla' } });
    expect(bad.statusCode, bad.body).toBe(201);
    const failed = await until(
      async () => (await thread(failing._id)).payload.find((m) => m._id === bad.json()._id),
      (m) => m?.status === 'failed',
    );
    expect(failed?.statusError).toBe(SANDBOX_FAIL_REASON);
  });

  it('does not download provider media', async () => {
    const [chat] = await sandbox.sql<{ id: string }>(`select id from chats where company_id = $1 and platform = 'whatsapp' limit 1`, [company]);
    const [m] = await sandbox.sql<{ id: string }>(
      `insert into chat_messages (company_id, chat_id, direction, kind, media_id, mime_type, provider_message_id, status) values ($1, $2, 'in', 'image', '999', 'image/jpeg', $3, 'received') returning id`,
      [company, chat.id, wamid()],
    );
    const res = await sandbox.app.inject({ method: 'GET', url: `/api/chats/media/${m.id}`, headers: as(signed, company) });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors.msg).toMatch(/sandbox/);
  });
});
