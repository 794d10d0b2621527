import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInbound } from '../src/modules/conversations/inbound.js';
import type { WebhookProcessor } from '../src/modules/webhooks/process.js';
import { startChannelSuite, TEST_TOKEN } from './channel-suite.js';
import { DEMO_VERIFY_TOKEN, deliver, metaMessage, sign, wamid, whatsappImage, whatsappStatus, whatsappText } from './fakes/meta.js';
import { as, type Signed, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let chile: string;
let acmeCo: string;
let processor: WebhookProcessor;

const PERU_LINE = '109000000000001';
const CHILE_LINE = '109000000000002';
const ACME_PAGE = '201000000000001';
const ACME_IG = '178400000000001';
const TOKEN = TEST_TOKEN;

beforeAll(async () => {
  ({ t, admin, agent, acme, peru, chile, acmeCo, processor } = await startChannelSuite([
    { company: 'peru', url: '/api/channels/whatsapp', payload: { phoneNumberId: PERU_LINE, businessAccountId: '102290129340398', accessToken: TOKEN } },
    { company: 'chile', url: '/api/channels/whatsapp', payload: { phoneNumberId: CHILE_LINE } },
    { company: 'acmeCo', url: '/api/channels/meta', payload: { pageId: ACME_PAGE, pageName: 'Acme Chile', instagramAccountId: ACME_IG, accessToken: TOKEN } },
  ]));
});
afterAll(async () => {
  await t?.close();
});

/** Processes every pending event now (the queue may be processing them too: each is done once). */
async function settle() {
  for (const id of await processor.pendingIds()) await processor.process(id);
}

/** Waits, with a deadline, until the queue has processed the event. */
async function processedByQueue(eventId: string, deadlineMs = 20_000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const [row] = await t.sql<{ status: string }>('select status from webhook_events where event_id = $1', [eventId]);
    if (row && row.status !== 'pending') return row.status;
    if (Date.now() > until) throw new Error(`el evento ${eventId} no se procesó a tiempo`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const count = async (text: string, values: unknown[]) => Number((await t.sql<{ n: number }>(text, values))[0].n);
const eventCount = () => count('select count(*) as n from webhook_events', []);

async function personIn(company: string, telefono: string) {
  const leads = await t.sql<{ id: string; name: string; clean_lead_id: string; platform: string; platform_user_id: string }>(
    'select id, name, clean_lead_id, platform, platform_user_id from leads where company_id = $1 and telefono = $2',
    [company, telefono],
  );
  const cleanLeads = await t.sql<{ id: string; details: Array<{ source?: string; message?: string; updatedAt: string }> }>(
    'select id, details from clean_leads where company_id = $1 and telefono = $2',
    [company, telefono],
  );
  const chats = await t.sql<{ id: string; unread_count: number; last_message_preview: string; platform: string; contact_name: string }>(
    'select c.id, c.unread_count, c.last_message_preview, c.platform, c.contact_name from chats c join leads l on l.id = c.lead_id where c.company_id = $1 and l.telefono = $2',
    [company, telefono],
  );
  const messages = await t.sql<{ chat_id: string; text: string; kind: string; direction: string; status: string; provider_message_id: string; is_active: boolean }>(
    'select m.chat_id, m.text, m.kind, m.direction, m.status, m.provider_message_id, m.is_active from chat_messages m where m.company_id = $1 and m.chat_id = any($2) order by m.sent_at, m.created_at',
    [company, chats.map((c) => c.id)],
  );
  return { leads, cleanLeads, chats, messages };
}

describe('channel settings', () => {
  it('list the company’s channels without the token, sealed at rest', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/channels', headers: as(admin, peru) });
    expect(res.statusCode).toBe(200);
    const [line] = res.json().payload;
    expect(line).toMatchObject({ kind: 'whatsapp', providerId: PERU_LINE, businessAccountId: '102290129340398', accessTokenSet: true, accessTokenLast4: '7Q2x' });
    expect(res.body).not.toContain(TOKEN);
    const [row] = await t.sql<{ access_token: string }>(`select access_token from channels where company_id = $1 and kind = 'whatsapp'`, [peru]);
    expect(row.access_token).toMatch(/^v1\./);
    expect(t.app.secrets.open(row.access_token)).toBe(TOKEN);
    // another company sees only its own
    const other = await t.app.inject({ method: 'GET', url: '/api/channels', headers: as(admin, chile) });
    expect(other.json().payload.map((c: { providerId: string }) => c.providerId)).toEqual([CHILE_LINE]);
  });

  it('keep the token when a PUT leaves it out, and list Messenger and Instagram of a page', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/channels/whatsapp', headers: as(admin, peru), payload: { phoneNumberId: PERU_LINE, displayPhoneNumber: '51987000000' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accessTokenSet: true, displayPhoneNumber: '51987000000' });
    const meta = await t.app.inject({ method: 'GET', url: '/api/channels', headers: as(acme, acmeCo) });
    expect(meta.json().payload).toMatchObject([
      { kind: 'messenger', providerId: ACME_PAGE, name: 'Acme Chile', accessTokenSet: true },
      { kind: 'instagram', providerId: ACME_IG, pageId: ACME_PAGE, accessTokenSet: true },
    ]);
  });

  it('refuse a provider id of another company, bad input and agents, in Spanish', async () => {
    const taken = await t.app.inject({ method: 'PUT', url: '/api/channels/whatsapp', headers: as(acme, acmeCo), payload: { phoneNumberId: PERU_LINE } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.msg).toMatch(/otra compañía/);
    const bad = await t.app.inject({ method: 'PUT', url: '/api/channels/whatsapp', headers: as(admin, chile), payload: { phoneNumberId: 'abc', companyId: peru } });
    expect(bad.statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'PUT', url: '/api/channels/meta', headers: as(admin, chile), payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.msg).toMatch(/requerido/);
    const denied = await t.app.inject({ method: 'GET', url: '/api/channels', headers: as(agent, peru) });
    expect(denied.statusCode).toBe(401);
  });
});

describe('webhook handshake', () => {
  it('answers the challenge as text when the verify token matches', async () => {
    for (const path of ['/api/webhooks/whatsapp', '/api/webhooks/meta']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${path}?hub.mode=subscribe&hub.verify_token=${DEMO_VERIFY_TOKEN}&hub.challenge=1158201444`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('1158201444');
    }
  });

  it('is refused with a wrong token or mode', async () => {
    const wrong = await t.app.inject({ method: 'GET', url: '/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().errors.msg).toMatch(/token de verificación/);
    const mode = await t.app.inject({ method: 'GET', url: `/api/webhooks/meta?hub.mode=unsubscribe&hub.verify_token=${DEMO_VERIFY_TOKEN}&hub.challenge=1` });
    expect(mode.statusCode).toBe(403);
  });
});

describe('webhook signatures', () => {
  it('refuse unsigned, tampered and wrongly keyed events, storing nothing', async () => {
    const before = await eventCount();
    const payload = whatsappText({ phoneNumberId: PERU_LINE, from: '51911000001', text: 'sin firma' });
    const unsigned = await deliver(t, '/api/webhooks/whatsapp', payload, { signature: null });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().errors.msg).toMatch(/Firma/);
    // signed for another body: a changed byte breaks it
    const tampered = await deliver(t, '/api/webhooks/whatsapp', payload, { signature: sign(JSON.stringify({ ...payload, object: 'x' })) });
    expect(tampered.statusCode).toBe(401);
    const wrongKey = await deliver(t, '/api/webhooks/meta', metaMessage({ pageId: ACME_PAGE, sender: '1', text: 'x' }), { secret: 'otro-secreto' });
    expect(wrongKey.statusCode).toBe(401);
    const garbage = await deliver(t, '/api/webhooks/whatsapp', payload, { signature: 'sha256=zz' });
    expect(garbage.statusCode).toBe(401);
    expect(await eventCount()).toBe(before);
    expect(await count('select count(*) as n from leads where telefono = $1', ['51911000001'])).toBe(0);
  });

  it('answers a signed body that is not JSON with a Spanish 400', async () => {
    const body = '{no es json';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/whatsapp',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body) },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toMatch(/JSON/);
  });
});

describe('an inbound WhatsApp message', () => {
  const from = '51987112200';

  it('creates lead, clean lead, chat and message in the line’s company, through the queue', async () => {
    const id = wamid();
    const res = await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: PERU_LINE, from, name: 'Jorge Salazar', id, text: '¿Tienen delivery a Miraflores?' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: 1, stored: 1 });
    expect(await processedByQueue(id)).toBe('processed');

    const p = await personIn(peru, from);
    expect(p.leads).toMatchObject([{ name: 'Jorge Salazar', platform: 'whatsapp', platform_user_id: from }]);
    expect(p.cleanLeads).toHaveLength(1);
    expect(p.leads[0].clean_lead_id).toBe(p.cleanLeads[0].id);
    expect(p.cleanLeads[0].details[0]).toMatchObject({ source: 'whatsapp', message: '¿Tienen delivery a Miraflores?' });
    expect(p.chats).toMatchObject([{ platform: 'whatsapp', unread_count: 1, contact_name: 'Jorge Salazar', last_message_preview: '¿Tienen delivery a Miraflores?' }]);
    expect(p.messages).toMatchObject([{ direction: 'in', kind: 'text', text: '¿Tienen delivery a Miraflores?', status: 'received', provider_message_id: id, is_active: true }]);
    const [event] = await t.sql<{ company_id: string }>('select company_id from webhook_events where event_id = $1', [id]);
    expect(event.company_id).toBe(peru);
    // no other company got anything
    for (const company of [chile, acmeCo]) expect((await personIn(company, from)).leads).toHaveLength(0);
    // and the lead is an ordinary record of the API
    const api = await t.app.inject({ method: 'GET', url: `/api/leads?filter=${from}`, headers: as(admin, peru) });
    expect(api.json().payload).toMatchObject([{ name: 'Jorge Salazar', telefono: from, platformUserId: from, cleanLeadId: p.cleanLeads[0].id }]);
  });

  it('delivered again (same message id) has no second effect', async () => {
    const id = wamid();
    const payload = whatsappText({ phoneNumberId: PERU_LINE, from: '51987112201', id, text: 'una sola vez' });
    expect((await deliver(t, '/api/webhooks/whatsapp', payload)).json()).toEqual({ received: 1, stored: 1 });
    await settle();
    const before = await personIn(peru, '51987112201');
    const events = await eventCount();
    for (let i = 0; i < 3; i++) {
      const again = await deliver(t, '/api/webhooks/whatsapp', payload);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ received: 1, stored: 0 });
    }
    await settle();
    expect(await eventCount()).toBe(events);
    expect(await personIn(peru, '51987112201')).toEqual(before);
    expect(before.messages).toHaveLength(1);
    expect(before.chats[0].unread_count).toBe(1);
  });

  it('a second message from the same number reuses lead and chat and counts unread', async () => {
    await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: PERU_LINE, from, name: 'Jorge Salazar', text: 'Y a San Isidro también?' }));
    await deliver(t, '/api/webhooks/whatsapp', whatsappImage({ phoneNumberId: PERU_LINE, from, caption: 'Este modelo' }));
    await settle();
    const p = await personIn(peru, from);
    expect(p.leads).toHaveLength(1);
    expect(p.cleanLeads).toHaveLength(1);
    expect(p.chats).toHaveLength(1);
    expect(p.chats[0].unread_count).toBe(3);
    expect(p.cleanLeads[0].details).toHaveLength(1);
    expect(p.messages.map((m) => m.kind)).toEqual(['text', 'text', 'image']);
    expect(p.messages[2]).toMatchObject({ text: 'Este modelo' });
  });
});

describe('clean leads', () => {
  it('merge a WhatsApp lead into the person’s clean lead from another channel, by normalised phone', async () => {
    // the person first came through a web form: a clean lead with their phone already exists
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/clean-leads',
      headers: as(admin, peru),
      payload: { name: 'Lucía Torres', telefono: '51944556677', email: 'lucia.torres@gmail.com', status: 'informado-al-agente', details: [{ email: 'lucia.torres@gmail.com', source: 'web', updatedAt: '2025-01-10T12:00:00Z' }] },
    });
    expect(form.statusCode, form.body).toBe(201);
    await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: PERU_LINE, from: '51944556677', name: 'Lucía', text: 'Hola, soy Lucía' }));
    await settle();
    const p = await personIn(peru, '51944556677');
    expect(p.cleanLeads).toHaveLength(1);
    expect(p.cleanLeads[0].id).toBe(form.json()._id);
    expect(p.leads[0].clean_lead_id).toBe(form.json()._id);
    // details newest first
    expect(p.cleanLeads[0].details.map((d) => d.source)).toEqual(['whatsapp', 'web']);

    // a number written the national way (987 …) is the same person once normalised with the company's country
    const inbound = createInbound(t.app.secrets);
    await t.database.db.transaction((tx) =>
      inbound.message(tx, peru, 'PE', 'whatsapp', {
        from: '944556677',
        phone: '944 556 677',
        name: 'Lucía T.',
        messageId: wamid(),
        timestamp: new Date().toISOString(),
        kind: 'text',
        text: 'Otra línea',
      }),
    );
    const after = await personIn(peru, '51944556677');
    expect(after.cleanLeads).toHaveLength(1);
    expect(after.leads).toHaveLength(1);
    // the same person again: activity, not a new contact
    expect(after.cleanLeads[0].details).toHaveLength(2);
  });
});

describe('a known person writes again', () => {
  it('their clean lead shows the activity; one deleted meanwhile is made again and joined', async () => {
    const inbound = createInbound(t.app.secrets);
    const write = (text: string) =>
      t.database.db.transaction((tx) =>
        inbound.message(tx, peru, 'PE', 'whatsapp', { from: '51955000111', phone: '51955000111', name: 'Rosa Q.', messageId: wamid(), timestamp: new Date().toISOString(), kind: 'text', text }),
      );
    await write('Hola, ¿tienen queso andino?');
    const first = await personIn(peru, '51955000111');
    expect(first.cleanLeads).toHaveLength(1);
    const cleanLeadId = first.cleanLeads[0].id;
    await t.sql(`update clean_leads set updated_at = '2020-01-01T00:00:00Z' where id = $1`, [cleanLeadId]);

    await write('¿Y mantequilla?');
    const [touched] = await t.sql<{ updated_at: Date }>('select updated_at from clean_leads where id = $1', [cleanLeadId]);
    expect(Date.now() - new Date(touched.updated_at).getTime()).toBeLessThan(60_000);

    // the clean lead deleted while the lead still names it: the person is a contact again
    await t.sql('delete from clean_leads where id = $1', [cleanLeadId]);
    await write('¿Siguen abiertos?');
    const after = await personIn(peru, '51955000111');
    expect(after.leads).toHaveLength(1);
    expect(after.cleanLeads).toHaveLength(1);
    expect(after.cleanLeads[0].id).not.toBe(cleanLeadId);
    expect(after.leads[0].clean_lead_id).toBe(after.cleanLeads[0].id);
    expect(after.messages.map((m) => m.text)).toEqual(['Hola, ¿tienen queso andino?', '¿Y mantequilla?', '¿Siguen abiertos?']);
  });
});

describe('message statuses', () => {
  it('move a sent message forward (delivered, read), never back, and record failures', async () => {
    const [{ id: chatId }] = (await personIn(peru, '51987112200')).chats;
    const sent = wamid();
    const failed = wamid();
    await t.sql(
      `insert into chat_messages (company_id, chat_id, direction, kind, text, provider_message_id, status)
       values ($1, $2, 'out', 'text', 'Sí, llegamos a Miraflores', $3, 'sent'), ($1, $2, 'out', 'text', 'Promo', $4, 'sent')`,
      [peru, chatId, sent, failed],
    );
    const status = async (id: string, s: string) => {
      expect((await deliver(t, '/api/webhooks/whatsapp', whatsappStatus({ phoneNumberId: PERU_LINE, id, status: s }))).statusCode).toBe(200);
      await settle();
      return (await t.sql<{ status: string; status_error: string | null }>('select status, status_error from chat_messages where provider_message_id = $1', [id]))[0];
    };
    expect((await status(sent, 'delivered')).status).toBe('delivered');
    expect((await status(sent, 'read')).status).toBe('read');
    // a late 'sent' does not move it back
    expect((await status(sent, 'sent')).status).toBe('read');
    const f = await status(failed, 'failed');
    expect(f.status).toBe('failed');
    expect(f.status_error).toMatch(/131047/);
    // a status of a message nobody stored is kept as ignored
    const unknown = wamid();
    await status(unknown, 'delivered');
    const [event] = await t.sql<{ status: string }>('select status from webhook_events where event_id = $1', [`${unknown}:delivered`]);
    expect(event.status).toBe('ignored');
  });
});

describe('Messenger and Instagram', () => {
  it('reach the company of the page id (and of the Instagram account)', async () => {
    const psid = '6543210987654321';
    const res = await deliver(t, '/api/webhooks/meta', metaMessage({ pageId: ACME_PAGE, sender: psid, text: 'Buenas, ¿precio del polo?' }));
    expect(res.json()).toEqual({ received: 1, stored: 1 });
    await deliver(t, '/api/webhooks/meta', metaMessage({ pageId: ACME_PAGE, sender: psid, attachment: { type: 'image', url: 'https://scontent.xx.fbcdn.net/foto.jpg' } }));
    await deliver(t, '/api/webhooks/meta', metaMessage({ object: 'instagram', pageId: ACME_IG, sender: '17841400000000777', text: 'Hola desde IG' }));
    await settle();
    const leads = await t.sql<{ id: string; platform: string; company_id: string; name: string }>(
      'select id, platform, company_id, name from leads where platform_user_id = any($1) order by platform',
      [[psid, '17841400000000777']],
    );
    expect(leads).toMatchObject([
      { platform: 'facebook', company_id: acmeCo },
      { platform: 'instagram', company_id: acmeCo },
    ]);
    const [chat] = await t.sql<{ id: string; unread_count: number }>('select id, unread_count from chats where lead_id = $1', [leads[0].id]);
    expect(chat.unread_count).toBe(2);
    const messages = await t.sql<{ kind: string; media_url: string | null }>('select kind, media_url from chat_messages where chat_id = $1 order by sent_at, created_at', [chat.id]);
    expect(messages).toMatchObject([{ kind: 'text' }, { kind: 'image', media_url: 'https://scontent.xx.fbcdn.net/foto.jpg' }]);
  });

  it('a read receipt marks the page’s messages up to its watermark as read, once, and only in that chat', async () => {
    const psid = '6543210987650001';
    const otherPsid = '6543210987650002';
    await deliver(t, '/api/webhooks/meta', metaMessage({ pageId: ACME_PAGE, sender: psid, text: 'Hola, ¿hay talla M?' }));
    await deliver(t, '/api/webhooks/meta', metaMessage({ pageId: ACME_PAGE, sender: otherPsid, text: 'Hola, ¿hay talla L?' }));
    await settle();
    const chatOf = async (id: string) =>
      (await t.sql<{ id: string }>('select c.id from chats c join leads l on l.id = c.lead_id where l.platform_user_id = $1', [id]))[0];
    const [chat, otherChat] = [await chatOf(psid), await chatOf(otherPsid)];
    expect(otherChat.id).not.toBe(chat.id);
    const watermark = Date.now() - 60_000;
    const answer = (minutesAgo: number, status: string, chatId = chat.id) =>
      t.sql<{ id: string }>(
        `insert into chat_messages (company_id, chat_id, direction, kind, text, provider_message_id, status, sent_at)
         values ($1, $2, 'out', 'text', 'Sí, hay talla M', $3, $4, now() - make_interval(mins => $5)) returning id`,
        [acmeCo, chatId, `m_${randomUUID()}`, status, minutesAgo],
      );
    const [before] = await answer(5, 'delivered');
    const [failed] = await answer(4, 'failed');
    const [after] = await answer(0, 'sent');
    // another person's chat of the same company and page: older than the watermark, yet not theirs to read
    const [elsewhere] = await answer(5, 'delivered', otherChat.id);
    const receipt = {
      object: 'page',
      entry: [{ id: ACME_PAGE, time: Date.now(), messaging: [{ sender: { id: psid }, recipient: { id: ACME_PAGE }, timestamp: Date.now(), read: { watermark } }] }],
    };
    expect((await deliver(t, '/api/webhooks/meta', receipt)).json()).toEqual({ received: 1, stored: 1 });
    expect((await deliver(t, '/api/webhooks/meta', receipt)).json()).toEqual({ received: 1, stored: 0 });
    await settle();
    const statusOf = async (id: string) => (await t.sql<{ status: string }>('select status from chat_messages where id = $1', [id]))[0].status;
    expect(await statusOf(before.id)).toBe('read');
    expect(await statusOf(failed.id)).toBe('failed');
    expect(await statusOf(after.id)).toBe('sent');
    expect(await statusOf(elsewhere.id)).toBe('delivered');
  });
});

describe('tenant isolation', () => {
  it('an event for an unknown phone number id is kept as ignored, with no effect', async () => {
    const id = wamid();
    const leadsBefore = await count('select count(*) as n from leads', []);
    await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: '999999999999999', from: '51900000009', id }));
    await settle();
    const [event] = await t.sql<{ status: string; company_id: string | null; reason: string }>('select status, company_id, reason from webhook_events where event_id = $1', [id]);
    expect(event).toMatchObject({ status: 'ignored', company_id: null });
    expect(event.reason).toMatch(/canal/);
    expect(await count('select count(*) as n from leads', [])).toBe(leadsBefore);
    expect(await count('select count(*) as n from chat_messages where provider_message_id = $1', [id])).toBe(0);
  });

  it('one company’s line never writes into another company, whatever the payload says', async () => {
    const from = '51987112200'; // already a lead of Demo Perú
    const peruBefore = await personIn(peru, from);
    const payload = whatsappText({ phoneNumberId: CHILE_LINE, from, name: 'Jorge Salazar', text: 'Escribo a la línea de Chile' });
    // fields naming a company in the payload are ignored: the company comes from the channel
    Object.assign(payload.entry[0], { company: peru, companyId: peru });
    await deliver(t, '/api/webhooks/whatsapp', payload);
    await settle();
    const inChile = await personIn(chile, from);
    expect(inChile.leads).toHaveLength(1);
    expect(inChile.chats).toHaveLength(1);
    expect(inChile.messages).toMatchObject([{ text: 'Escribo a la línea de Chile' }]);
    expect(inChile.cleanLeads[0].id).not.toBe(peruBefore.cleanLeads[0].id);
    expect(await personIn(peru, from)).toEqual(peruBefore);
    // and Acme's page events never land in the demo corporation
    expect(await count('select count(*) as n from leads where company_id = any($1) and platform_user_id = $2', [[peru, chile], '6543210987654321'])).toBe(0);
  });
});
