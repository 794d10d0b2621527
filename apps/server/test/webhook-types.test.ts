import type { ChatMessage } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookProcessor, storeEvents, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import { startChannelSuite, TEST_TOKEN } from './channel-suite.js';
import { deliver, mid, wamid, whatsappText } from './fakes/meta.js';
import { metaItems, metaMessaging, type WhatsappKind, whatsappItems, whatsappMessages, whatsappReaction } from './fixtures/meta-payloads.js';
import { as, type Signed, type TestApp } from './helpers.js';

/**
 * Issue 10 "Nothing breaks and nothing is lost" (decision 0020): every kind a customer can send
 * through WhatsApp, Messenger and Instagram is stored and shown by the thread call as what it
 * is; one bad event never takes its delivery with it, and what keeps failing is kept as a
 * dead letter an admin can see and replay.
 */
let t: TestApp;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let chile: string;
let acmeCo: string;
let processor: WebhookProcessor;

const LINE = '109000000000011';
const PAGE = '201000000000011';
const IG = '178400000000011';
const TOKEN = TEST_TOKEN;

beforeAll(async () => {
  ({ t, admin, agent, acme, peru, chile, acmeCo, processor } = await startChannelSuite([
    { company: 'peru', url: '/api/channels/whatsapp', payload: { phoneNumberId: LINE, accessToken: TOKEN } },
    { company: 'acmeCo', url: '/api/channels/meta', payload: { pageId: PAGE, pageName: 'Acme Chile', instagramAccountId: IG, accessToken: TOKEN } },
  ]));
});
afterAll(async () => {
  await t?.close();
});

async function settle() {
  for (const id of await processor.pendingIds()) await processor.process(id).catch(() => {});
}

let person = 0;
/** A new WhatsApp number per test: its own lead and chat. */
const nextPhone = () => `5198765${String(4000 + person++).padStart(4, '0')}`;

/** The thread of the person's chat, through the API, as the company's admin sees it. */
async function thread(platformUserId: string, who: Signed = admin, company = peru) {
  const [chat] = await t.sql<{ id: string }>('select c.id from chats c join leads l on l.id = c.lead_id where l.company_id = $1 and l.platform_user_id = $2', [company, platformUserId]);
  expect(chat, `chat de ${platformUserId}`).toBeDefined();
  const res = await t.app.inject({ method: 'GET', url: `/api/chats/${chat.id}/messages`, headers: as(who, company) });
  expect(res.statusCode, res.body).toBe(200);
  // the inbox's lastMessagePreview is this column (the inbox's own paging is not the point here)
  const [summary] = await t.sql<{ last_message_preview: string | null }>('select last_message_preview from chats where id = $1', [chat.id]);
  return { messages: res.json().payload as ChatMessage[], preview: summary.last_message_preview ?? undefined, chatId: chat.id };
}

/** Delivers one WhatsApp message of a kind from a new number and answers its thread. */
async function whatsappKind(kind: WhatsappKind) {
  const from = nextPhone();
  const id = wamid();
  const res = await deliver(t, '/api/webhooks/whatsapp', whatsappMessages(LINE, from, [{ id, item: whatsappItems[kind] }]));
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ received: 1, stored: 1 });
  await settle();
  const [event] = await t.sql<{ status: string; last_error: string | null }>('select status, last_error from webhook_events where event_id = $1', [id]);
  expect(event, event?.last_error ?? '').toMatchObject({ status: 'processed' });
  const th = await thread(from);
  // the customer's message, and what it led to (a catalogue order adds its order's summary)
  const [message, ...after] = th.messages.toSorted((a, b) => Number(b.mid === id) - Number(a.mid === id));
  expect(message?.mid).toBe(id);
  expect(after.every((m) => m.kind === 'system' && m.direction === 'in' && m.mid !== id)).toBe(true);
  if (kind !== 'order') expect(after).toEqual([]);
  return { ...th, message, after, from, id };
}

describe('every WhatsApp kind, as the thread shows it', () => {
  it('text', async () => {
    const { message, preview } = await whatsappKind('text');
    expect(message).toMatchObject({ kind: 'text', text: 'Hola, ¿tienen stock de la talla M?', direction: 'in', status: 'received' });
    expect(message.content).toBeUndefined();
    expect(preview).toBe('Hola, ¿tienen stock de la talla M?');
  });

  it('image with its caption, served through the media call', async () => {
    const { message } = await whatsappKind('image');
    expect(message).toMatchObject({ kind: 'image', text: 'Este modelo', hasMedia: true, mimeType: 'image/jpeg' });
  });

  it('video', async () => {
    const { message, preview } = await whatsappKind('video');
    expect(message).toMatchObject({ kind: 'video', hasMedia: true, mimeType: 'video/mp4' });
    expect(preview).toBe('[Video]');
  });

  it('audio recorded as a voice note', async () => {
    const { message, preview } = await whatsappKind('audio');
    expect(message).toMatchObject({ kind: 'audio', hasMedia: true, content: { voice: true } });
    expect(preview).toBe('🎤 Nota de voz');
  });

  it('document keeps its file name and caption', async () => {
    const { message } = await whatsappKind('document');
    expect(message).toMatchObject({ kind: 'document', text: 'La cotización que pedí', mimeType: 'application/pdf', content: { fileName: 'cotizacion-marzo.pdf' } });
  });

  it('sticker', async () => {
    const { message, preview } = await whatsappKind('sticker');
    expect(message).toMatchObject({ kind: 'sticker', hasMedia: true, mimeType: 'image/webp' });
    expect(preview).toBe('[Sticker]');
  });

  it('location with name, address and a map link', async () => {
    const { message, preview } = await whatsappKind('location');
    expect(message).toMatchObject({
      kind: 'location',
      content: { location: { latitude: -12.1211, longitude: -77.0297, name: 'Parque Kennedy', address: 'Av. José Larco, Miraflores 15074' } },
    });
    expect(preview).toBe('📍 Ubicación: Parque Kennedy');
  });

  it('contacts with names and phones', async () => {
    const { message, preview } = await whatsappKind('contacts');
    expect(message).toMatchObject({
      kind: 'contacts',
      content: { contacts: [{ name: 'Ana Rojas', phones: [{ phone: '+51 987 654 111', waId: '51987654111', type: 'CELL' }], emails: ['ana.rojas@gmail.com'], org: 'Bodega Rojas' }] },
    });
    expect(preview).toBe('👤 Contacto: Ana Rojas');
  });

  it('a contact card becomes a lead (and its clean lead) with “Agregar como lead”, once', async () => {
    const { message, chatId } = await whatsappKind('contacts');
    const url = `/api/chats/${chatId}/messages/${message._id}/contact-lead`;
    const add = await t.app.inject({ method: 'POST', url, headers: as(admin, peru), payload: { index: 0 } });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json()).toMatchObject({ name: 'Ana Rojas', telefono: '51987654111', status: 'sin-asignar', created: true });
    const again = await t.app.inject({ method: 'POST', url, headers: as(admin, peru), payload: {} });
    expect(again.json()).toMatchObject({ _id: add.json()._id, created: false });
    const [lead] = await t.sql<{ clean_lead_id: string | null; platform: string }>('select clean_lead_id, platform from leads where id = $1', [add.json()._id]);
    expect(lead).toMatchObject({ platform: 'whatsapp', clean_lead_id: expect.any(String) });
    // not a contacts message, or another company's: 404
    const other = await t.app.inject({ method: 'POST', url, headers: as(admin, chile), payload: {} });
    expect(other.statusCode).toBe(404);
  });

  it('interactive button_reply and list_reply', async () => {
    const button = await whatsappKind('button_reply');
    expect(button.message).toMatchObject({ kind: 'interactive', text: 'Sí, confirmar', content: { interactive: { type: 'button_reply', id: 'confirmar-pedido', title: 'Sí, confirmar' } } });
    const list = await whatsappKind('list_reply');
    expect(list.message).toMatchObject({
      kind: 'interactive',
      text: 'Envío express',
      content: { interactive: { type: 'list_reply', id: 'envio-express', title: 'Envío express', description: 'Llega hoy, S/ 15' } },
    });
    expect(list.preview).toBe('Envío express');
  });

  it('template quick-reply button', async () => {
    const { message } = await whatsappKind('button');
    expect(message).toMatchObject({ kind: 'interactive', text: 'Quiero más info', content: { interactive: { type: 'button', title: 'Quiero más info', payload: 'QUIERO_MAS_INFO' } } });
  });

  it('order with its lines and total', async () => {
    const { message, preview, after } = await whatsappKind('order');
    // the cart is a draft the agent confirms (decision 0088), summarised in the chat
    expect(after).toEqual([expect.objectContaining({ kind: 'system', text: expect.stringContaining('🛒 Carrito desde el catálogo de WhatsApp') })]);
    expect(message).toMatchObject({
      kind: 'order',
      text: 'Para recoger el sábado',
      content: {
        order: {
          catalogId: '1588461368287262',
          items: [
            { productRetailerId: 'polo-basico-m', quantity: 2, itemPrice: 39.9, currency: 'PEN' },
            { productRetailerId: 'gorra-negra', quantity: 1, itemPrice: 25, currency: 'PEN' },
          ],
          total: 104.8,
          currency: 'PEN',
        },
      },
    });
    expect(preview).toBe('🛒 Pedido: 3 productos');
  });

  it('system notice', async () => {
    const { message } = await whatsappKind('system');
    expect(message).toMatchObject({ kind: 'system', text: 'Ana cambió su número de teléfono a 51987654999', content: { system: { type: 'user_changed_number', newWaId: '51987654999' } } });
  });

  it('unsupported, with the provider’s reason', async () => {
    const { message, preview } = await whatsappKind('unsupported');
    expect(message).toMatchObject({
      kind: 'unsupported',
      content: { providerType: 'unsupported', error: { code: 131051, title: 'Message type unknown', details: 'Message type is currently not supported.' } },
    });
    expect(preview).toBe('Mensaje no compatible: Message type is currently not supported. (131051)');
  });

  it('a click-to-WhatsApp ad: kept on the message and on the lead', async () => {
    const { message, from } = await whatsappKind('referral');
    expect(message).toMatchObject({
      kind: 'text',
      text: 'Hola, vi su anuncio del polo',
      content: {
        referral: {
          sourceUrl: 'https://fb.me/3cr4Wqqkv',
          sourceId: '120210001234560123',
          sourceType: 'ad',
          headline: 'Polos a S/ 39.90',
          body: 'Envío gratis en Lima',
          mediaType: 'image',
          imageUrl: 'https://scontent.xx.fbcdn.net/v/anuncio-polo.jpg',
          ctwaClid: expect.stringMatching(/^ARAk/),
        },
      },
    });
    const [lead] = await t.sql<{ id: string; details: Array<{ message?: string }> }>('select id, details from leads where company_id = $1 and platform_user_id = $2', [peru, from]);
    expect(lead.details[0].message).toMatch(/Llegó desde un anuncio: Polos a S\/ 39.90 · https:\/\/fb.me\/3cr4Wqqkv/);
    const referrals = await t.sql<{ referral: { ctwaClid: string; headline: string }; platform: string }>('select referral, platform from lead_referrals where lead_id = $1', [lead.id]);
    expect(referrals).toMatchObject([{ platform: 'whatsapp', referral: { headline: 'Polos a S/ 39.90', ctwaClid: expect.stringMatching(/^ARAk/) } }]);
  });

  it('a reply shows the quoted original; a reaction sits on its message and an empty one removes it', async () => {
    const from = nextPhone();
    const original = wamid();
    const reply = wamid();
    await deliver(t, '/api/webhooks/whatsapp', whatsappMessages(LINE, from, [{ id: original, item: whatsappItems.text }]));
    await settle();
    await deliver(t, '/api/webhooks/whatsapp', whatsappMessages(LINE, from, [{ id: reply, item: { type: 'text', text: { body: 'Mejor la L' } }, context: { from, id: original } }]));
    await deliver(t, '/api/webhooks/whatsapp', whatsappMessages(LINE, from, [{ id: wamid(), item: whatsappReaction(original, '❤️') }]));
    await settle();
    let th = await thread(from);
    // (both within one second: the thread's order between them is not the point here)
    const byMid = (mid: string) => th.messages.find((m) => m.mid === mid);
    expect(th.messages).toHaveLength(2);
    expect(byMid(original)).toMatchObject({ content: { reaction: '❤️' } });
    expect(byMid(reply)).toMatchObject({
      text: 'Mejor la L',
      content: { replyTo: { mid: original, found: true, kind: 'text', text: 'Hola, ¿tienen stock de la talla M?', direction: 'in' } },
    });
    // removed
    await deliver(t, '/api/webhooks/whatsapp', whatsappMessages(LINE, from, [{ id: wamid(), item: whatsappReaction(original, '') }]));
    await settle();
    th = await thread(from);
    expect(th.messages).toHaveLength(2);
    expect(byMid(original)?.content?.reaction).toBeUndefined();
    // a reaction to a message Mostrador never had is kept as a message of its own
    await deliver(t, '/api/webhooks/whatsapp', whatsappMessages(LINE, from, [{ id: wamid(), item: whatsappReaction('wamid.DESCONOCIDO', '👍') }]));
    await settle();
    th = await thread(from);
    expect(th.messages).toHaveLength(3);
    expect(th.messages.find((m) => m.kind === 'reaction')).toMatchObject({ content: { reactionTo: { mid: 'wamid.DESCONOCIDO', emoji: '👍' } } });
    expect(th.preview).toBe('Reaccionó 👍 a un mensaje');
    // Meta does not promise order: when that message arrives after all, the reaction moves onto it
    await deliver(t, '/api/webhooks/whatsapp', whatsappMessages(LINE, from, [{ id: 'wamid.DESCONOCIDO', item: { type: 'text', text: { body: 'Llegué tarde' } } }]));
    await settle();
    th = await thread(from);
    expect(th.messages).toHaveLength(3);
    expect(th.messages.find((m) => m.kind === 'reaction')).toBeUndefined();
    expect(byMid('wamid.DESCONOCIDO')).toMatchObject({ text: 'Llegué tarde', content: { reaction: '👍' } });
  });
});

describe('every Messenger and Instagram kind', () => {
  let n = 0;
  const psid = () => `65432109876${String(n++).padStart(5, '0')}`;
  async function metaThread(object: 'page' | 'instagram', sender: string, items: object[]) {
    const res = await deliver(t, '/api/webhooks/meta', metaMessaging(object, object === 'page' ? PAGE : IG, sender, items));
    expect(res.statusCode).toBe(200);
    await settle();
    return thread(sender, acme, acmeCo);
  }

  it('keeps every attachment of a message (images, file, fallback link)', async () => {
    const sender = psid();
    const { messages, preview } = await metaThread('page', sender, [metaItems.attachments(mid())]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      kind: 'image',
      mediaUrl: 'https://scontent.xx.fbcdn.net/v/foto-1.jpg',
      content: {
        attachments: [
          { type: 'image', url: 'https://scontent.xx.fbcdn.net/v/foto-1.jpg' },
          { type: 'image', url: 'https://scontent.xx.fbcdn.net/v/foto-2.jpg' },
          { type: 'file', url: 'https://cdn.fbsbx.com/v/lista-precios.pdf' },
          { type: 'fallback', url: 'https://acme.pe/polo-basico', title: 'Polo básico — Tienda Acme' },
        ],
      },
    });
    expect(preview).toBe('[Imagen]');
  });

  it('location, postback, quick reply, reply and reactions', async () => {
    const sender = psid();
    const first = mid();
    const { messages } = await metaThread('page', sender, [
      metaItems.location(first),
      metaItems.postback(mid()),
      metaItems.quickReply(mid()),
      metaItems.reply(mid(), first),
      metaItems.reaction(first, '😍'),
    ]);
    expect(messages.map((m) => m.kind)).toEqual(['location', 'interactive', 'interactive', 'text']);
    expect(messages[0]).toMatchObject({ content: { location: { latitude: -33.4372, longitude: -70.6506, name: 'Mi ubicación' }, reaction: '😍' } });
    expect(messages[1]).toMatchObject({ text: 'Ver catálogo', content: { interactive: { type: 'postback', title: 'Ver catálogo', payload: 'VER_CATALOGO' } } });
    expect(messages[2]).toMatchObject({ text: 'Talla M', content: { interactive: { type: 'quick_reply', payload: 'TALLA_M' } } });
    expect(messages[3]).toMatchObject({ content: { replyTo: { mid: first, found: true, kind: 'location' } } });
    const after = await metaThread('page', sender, [metaItems.reaction(first, '', 'unreact')]);
    expect(after.messages[0].content?.reaction).toBeUndefined();
  });

  it('an ad referral, alone and on a message, kept on the lead', async () => {
    const sender = psid();
    const { messages, preview } = await metaThread('page', sender, [metaItems.referral(), metaItems.messageWithReferral(mid())]);
    expect(messages).toMatchObject([
      { kind: 'referral', content: { referral: { ref: 'campana-verano', source: 'ADS', type: 'OPEN_THREAD', adId: '23850000000000001', headline: 'Verano Acme: 2x1 en polos', postId: '201000000000001_999' } } },
      { kind: 'text', text: 'Quiero la promo', content: { referral: { adId: '23850000000000002', headline: 'Promo 2x1' } } },
    ]);
    expect(preview).toBe('Quiero la promo');
    const referrals = await t.sql<{ platform: string }>('select r.platform from lead_referrals r join leads l on l.id = r.lead_id where l.platform_user_id = $1', [sender]);
    expect(referrals).toHaveLength(2);
    expect(referrals[0].platform).toBe('facebook');
  });

  it('Instagram story replies and story mentions', async () => {
    const sender = `1784140000${String(n++).padStart(7, '0')}`;
    const { messages, preview } = await metaThread('instagram', sender, [metaItems.storyReply(mid()), metaItems.storyMention(mid())]);
    expect(messages).toMatchObject([
      { kind: 'story', text: '¡Me encanta! ¿Precio?', content: { story: { type: 'reply', id: '17920000000000001', url: expect.stringContaining('asset_id=179') } } },
      { kind: 'story', mediaUrl: expect.stringContaining('asset_id=180'), content: { story: { type: 'mention' } } },
    ]);
    expect(preview).toBe('📸 Te mencionó en su historia');
  });

  it('an Instagram message the person unsends shows as deleted', async () => {
    const sender = `1784140000${String(n++).padStart(7, '0')}`;
    const gone = mid();
    await metaThread('instagram', sender, [{ message: { mid: gone, text: 'Uy, me equivoqué de chat' } }]);
    const { messages } = await metaThread('instagram', sender, [{ message: { mid: gone, is_deleted: true } }]);
    expect(messages).toMatchObject([{ mid: gone, isActive: false }]);
  });
});

describe('nothing is lost', () => {
  it('a delivery with NUL characters and a lone surrogate: 200, stored without them', async () => {
    const from = nextPhone();
    const id = wamid();
    const payload = whatsappText({ phoneNumberId: LINE, from, id, name: 'Ana\u0000 Rojas', text: 'Hola\u0000 mundo \uD83D fin' });
    const res = await deliver(t, '/api/webhooks/whatsapp', payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 1, stored: 1 });
    await settle();
    const { messages } = await thread(from);
    expect(messages[0].text).toBe('Hola mundo \uFFFD fin');
    const [lead] = await t.sql<{ name: string }>('select name from leads where platform_user_id = $1', [from]);
    expect(lead.name).toBe('Ana Rojas');
  });

  it('one poison event in a batch: the good ones are processed, the bad one is a dead letter with its error', async () => {
    const from = nextPhone();
    const [good1, bad, good2] = [wamid(), wamid(), wamid()];
    // a sender id longer than any platform user id: creating its lead throws, every time
    const poison = whatsappMessages(LINE, '5'.repeat(250), [{ id: bad, item: whatsappItems.text }]);
    const batch = whatsappMessages(LINE, from, [
      { id: good1, item: whatsappItems.text },
      { id: good2, item: whatsappItems.location },
    ]);
    batch.entry.push(...poison.entry);
    const res = await deliver(t, '/api/webhooks/whatsapp', batch);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 3, stored: 3 });
    // the queue's tries, quickly: each failure is counted, the last makes it a dead letter
    const quick = createWebhookProcessor(t.database.db, t.app.secrets, undefined, undefined, { maxAttempts: 2 });
    const [row] = await t.sql<{ id: string }>('select id from webhook_events where event_id = $1', [bad]);
    await expect(quick.process(row.id)).rejects.toThrow();
    await settle();
    // the last try (the queue's own runs may have counted some): a dead letter, no more throwing
    let last: string | undefined;
    for (let i = 0; i < 3 && !last; i++) last = await quick.process(row.id).catch(() => undefined);
    expect(['failed', 'skipped']).toContain(last);
    const states = await t.sql<{ event_id: string; status: string; attempts: number; last_error: string | null; company_id: string | null }>(
      'select event_id, status, attempts, last_error, company_id from webhook_events where event_id = any($1)',
      [[good1, bad, good2]],
    );
    const byId = Object.fromEntries(states.map((s) => [s.event_id, s]));
    expect(byId[good1].status).toBe('processed');
    expect(byId[good2].status).toBe('processed');
    expect(byId[bad]).toMatchObject({ status: 'failed', company_id: peru });
    expect(byId[bad].last_error).toBe('Datos no válidos: platformUserId: Este campo es demasiado largo');
    expect((await thread(from)).messages.map((m) => m.kind).sort()).toEqual(['location', 'text']);

    // the admin sees it, with what went wrong; another company and an agent do not
    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks/dead-letters', headers: as(admin, peru) });
    expect(list.statusCode, list.body).toBe(200);
    const dead = list.json().payload.find((d: { eventId: string }) => d.eventId === bad);
    expect(dead).toMatchObject({ provider: 'whatsapp', type: 'message', status: 'failed', summary: expect.stringContaining('Hola, ¿tienen stock') });
    expect(dead.error).toBeTruthy();
    const other = await t.app.inject({ method: 'GET', url: '/api/webhooks/dead-letters', headers: as(admin, chile) });
    expect(other.json().payload.find((d: { eventId: string }) => d.eventId === bad)).toBeUndefined();
    const denied = await t.app.inject({ method: 'GET', url: '/api/webhooks/dead-letters', headers: as(agent, peru) });
    expect(denied.statusCode).toBe(401);
    const notTheirs = await t.app.inject({ method: 'POST', url: `/api/webhooks/dead-letters/${dead._id}/replay`, headers: as(acme, acmeCo) });
    expect(notTheirs.statusCode).toBe(404);

    // replayed: back to pending and queued; still failing, it comes back to the list after its tries
    const replay = await t.app.inject({ method: 'POST', url: `/api/webhooks/dead-letters/${dead._id}/replay`, headers: as(admin, peru) });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toMatchObject({ _id: dead._id, status: 'pending', attempts: 0 });
    // (the queue runs it too): its tries again, then back in the list
    for (let i = 0; i < 3; i++) await quick.process(row.id).catch(() => {});
    const [again] = await t.sql<{ status: string }>('select status from webhook_events where id = $1', [row.id]);
    expect(again.status).toBe('failed');
  });

  it("the demo's failed message is listed for Demo Perú and «Reintentar» turns it into a conversation", async () => {
    const listed = await t.app.inject({ method: 'GET', url: '/api/webhooks/dead-letters', headers: as(admin, peru) });
    const dead = listed.json().payload.find((d: { eventId: string }) => d.eventId === 'wamid.DEMOFAILED1');
    expect(dead).toMatchObject({ status: 'failed', attempts: 6, summary: 'Marco Paredes: Hola, ¿hacen envíos a Arequipa? Quiero dos packs familiares' });
    // this suite moved Demo Perú off the demo's sandbox line: the event stays the company's that received it
    const replay = await t.app.inject({ method: 'POST', url: `/api/webhooks/dead-letters/${dead._id}/replay`, headers: as(admin, peru) });
    expect(replay.statusCode, replay.body).toBe(200);
    await settle();
    const [row] = await t.sql<{ status: string; last_error: string | null; reason: string | null }>("select status, last_error, reason from webhook_events where event_id = 'wamid.DEMOFAILED1'");
    expect(row).toMatchObject({ status: 'processed' });
    const chats = await t.app.inject({ url: '/api/chats/get_chats?filter=Marco%20Paredes', headers: as(admin, peru) });
    expect(chats.json().payload).toHaveLength(1);
    expect(chats.json().payload[0].lastMessagePreview ?? chats.json().payload[0].lastMessage).toContain('Arequipa');
  });

  it('a replayed event that can now be processed is processed; replaying a processed event changes nothing', async () => {
    const from = nextPhone();
    const id = wamid();
    await deliver(t, '/api/webhooks/whatsapp', whatsappMessages(LINE, from, [{ id, item: whatsappItems.contacts }]));
    await settle();
    const [row] = await t.sql<{ id: string; processed_at: Date }>('select id, processed_at from webhook_events where event_id = $1', [id]);
    // a processed event: nothing to replay
    const noop = await t.app.inject({ method: 'POST', url: `/api/webhooks/dead-letters/${row.id}/replay`, headers: as(admin, peru) });
    expect(noop.statusCode).toBe(200);
    expect(noop.json()).toMatchObject({ status: 'processed' });
    const [after] = await t.sql<{ processed_at: Date }>('select processed_at from webhook_events where id = $1', [row.id]);
    expect(after.processed_at).toEqual(row.processed_at);
    expect((await thread(from)).messages).toHaveLength(1);

    // an event that failed (say the database was away) and works now
    const failing = wamid();
    const from2 = nextPhone();
    await t.sql(
      `insert into webhook_events (provider, event_id, type, account_id, payload, status, attempts, last_error)
       values ('whatsapp', $1, 'message', $2, $3, 'failed', 6, 'Error: connection terminated')`,
      [failing, LINE, JSON.stringify({ from: from2, phone: from2, name: 'Luis', messageId: failing, timestamp: new Date().toISOString(), kind: 'text', text: 'Sigo esperando' })],
    );
    const listed = await t.app.inject({ method: 'GET', url: '/api/webhooks/dead-letters', headers: as(admin, peru) });
    const dead = listed.json().payload.find((d: { eventId: string }) => d.eventId === failing);
    expect(dead).toMatchObject({ status: 'failed', error: 'Error: connection terminated', summary: 'Luis: Sigo esperando' });
    const replay = await t.app.inject({ method: 'POST', url: `/api/webhooks/dead-letters/${dead._id}/replay`, headers: as(admin, peru) });
    expect(replay.json()).toMatchObject({ status: 'pending' });
    await settle();
    expect((await thread(from2)).messages).toMatchObject([{ text: 'Sigo esperando' }]);
    const gone = await t.app.inject({ method: 'GET', url: '/api/webhooks/dead-letters', headers: as(admin, peru) });
    expect(gone.json().payload.find((d: { eventId: string }) => d.eventId === failing)).toBeUndefined();
  });

  it('an event the database refuses is kept as a dead letter; the rest of its delivery is stored', async () => {
    const good = wamid();
    const refused = `${wamid()}\u0000`; // a NUL in the id: PostgreSQL refuses it in text (what cleaning prevents upstream)
    const event = (eventId: string, text: string) => ({
      provider: 'whatsapp' as const,
      eventId,
      accountId: LINE,
      type: 'message' as const,
      data: { from: '51987650099', messageId: eventId, timestamp: new Date().toISOString(), kind: 'text' as const, text },
    });
    const stored = await storeEvents(t.database.db, [event(refused, 'Hola\u0000'), event(good, 'Hola')]);
    expect(stored).toMatchObject({ deadLetters: 1, lost: 0 });
    expect(stored.ids).toHaveLength(1);
    const [dead] = await t.sql<{ status: string; last_error: string; payload: { unstored: string } }>(
      'select status, last_error, payload from webhook_events where event_id = $1',
      [refused.replace('\u0000', '')],
    );
    expect(dead.status).toBe('failed');
    expect(dead.last_error).toMatch(/^No se pudo guardar: Base de datos: /);
    expect(dead.last_error).not.toContain('\u0000');
    expect(JSON.parse(dead.payload.unstored)).toMatchObject({ text: 'Hola' });
    // with nothing storable at all, the caller answers 5xx so Meta retries
    const broken = { insert: () => { throw new Error('base caída'); } } as unknown as Parameters<typeof storeEvents>[0];
    expect(await storeEvents(broken, [event(wamid(), 'x')])).toEqual({ ids: [], deadLetters: 0, lost: 1 });
  });

  it('an item that cannot be read is kept (raw), not dropped', async () => {
    const from = nextPhone();
    const payload = whatsappMessages(LINE, from, [{ id: wamid(), item: whatsappItems.text }]);
    (payload.entry[0].changes[0].value.messages as object[]).push({ type: 'text', text: { body: 'sin id ni remitente' } });
    const res = await deliver(t, '/api/webhooks/whatsapp', payload);
    expect(res.json()).toEqual({ received: 2, stored: 2 });
    const [kept] = await t.sql<{ payload: { raw: { text: { body: string } } } }>("select payload from webhook_events where type = 'other' and payload->'raw'->'text'->>'body' = 'sin id ni remitente'", []);
    expect(kept).toBeDefined();
  });
});
