import { chatStateReasons, type ScheduledMessageOut, scheduledMessageTexts } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduledMessages, scheduledMessageId } from '../src/modules/chats/scheduled.js';
import { createChatService } from '../src/modules/chats/service.js';
import { createTemplateService } from '../src/modules/whatsapp-templates/service.js';
import { deliver, type FakeGraph, startFakeGraph, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * «Enviar más tarde» (issue 29, decision 0079) on the fake Graph API: a scheduled message goes at
 * its minute through the chat's send (an image as an image, its caption with it), once even when the job runs twice at once; a cancelled one
 * never goes; one gone on cannot be changed; the closed window is the reason it failed; another
 * company's chats and ids are unknown; bad input is a Spanish 400.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9reglasTokenDePruebaProg';
const LINE = '109000000000079';
const WABA = '209000000000079';

let t: TestApp;
let fake: FakeGraph;
let admin: Signed;
let peru: string;
let chile: string;
type Rec = Record<string, unknown>;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(admin, company), payload });
async function ok<T = Rec>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, company = peru): Promise<T> {
  const res = await call(method, url, payload, company);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as T;
}
const sentTexts = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).map((r) => (r.body as { text?: { body?: string } }).text?.body);
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function receive(from: string, text: string): Promise<string> {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text }))).statusCode).toBe(200);
  for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
  const [row] = await t.sql<{ chat_id: string }>('select chat_id::text from lead_identities where platform_user_id = $1', [from]);
  return row.chat_id;
}
/** The job's function, on the app's own pieces. */
let runDue: () => Promise<number>;
/** Its minute comes: the message's send time goes into the past. */
const due = (id: string) => t.sql(`update scheduled_messages set send_at = now() - interval '1 second' where id = $1`, [id]);
const stored = async (id: string) => (await t.sql<{ status: string; error: string | null; message_id: string | null }>('select status, error, message_id::text from scheduled_messages where id = $1', [id]))[0];

beforeAll(async () => {
  fake = await startFakeGraph(TOKEN);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  admin = await login(t, demo.admin);
  peru = admin.company('Demo Perú');
  chile = admin.company('Demo Chile');
  expect((await call('PUT', '/channels/whatsapp', { phoneNumberId: LINE, businessAccountId: WABA, accessToken: TOKEN })).statusCode).toBe(200);
  await t.sql('update automation_rules set enabled = false');
  const { db } = t.app.database;
  const chats = createChatService({ db, secrets: t.app.secrets, realtime: t.app.realtime, jobs: t.app.jobs, config: t.app.settings, log: t.app.log });
  const service = createScheduledMessages({
    db,
    chats,
    templates: createTemplateService({ db, secrets: t.app.secrets, config: t.app.settings }),
    realtime: t.app.realtime,
    log: t.app.log,
  });
  runDue = () => service.runDue();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('a scheduled message', () => {
  it('the demo has two for next week, pending (none goes by itself today)', async () => {
    const demoRows = await t.sql<{ status: string; days: number; text: string }>(
      `select status, extract(epoch from send_at - now()) / 86400 as days, text from scheduled_messages where company_id = $1 order by send_at`,
      [peru],
    );
    expect(demoRows.map((r) => r.status)).toEqual(['pending', 'pending']);
    for (const r of demoRows) expect(Number(r.days)).toBeGreaterThan(6);
    expect(demoRows[0].text).toContain('nueva colección');
  });

  it('goes at its minute through the chat send, exactly once even when the job runs twice at once; audited', async () => {
    const chat = await receive('51944000001', 'Hola, ¿me avisan cuando llegue el stock?');
    const scheduled = await ok<ScheduledMessageOut>('POST', `/chats/${chat}/scheduled-messages`, { text: 'Buenos días, ya llegó el stock que pediste', sendAt: inAnHour() });
    expect(scheduled).toMatchObject({ chatId: chat, kind: 'text', status: 'pending', error: null, messageId: null });
    expect((await ok<{ payload: ScheduledMessageOut[] }>('GET', `/chats/${chat}/scheduled-messages`)).payload.map((s) => s._id)).toEqual([scheduled._id]);

    // before its minute nothing goes
    const before = sentTexts().length;
    await runDue();
    expect((await stored(scheduled._id)).status).toBe('pending');

    await due(scheduled._id);
    await Promise.all([runDue(), runDue()]);
    expect(sentTexts().slice(before)).toEqual(['Buenos días, ya llegó el stock que pediste']);
    const after = await stored(scheduled._id);
    expect(after).toMatchObject({ status: 'sent', error: null, message_id: scheduledMessageId(scheduled._id) });
    const [message] = await t.sql<{ text: string; status: string }>('select text, status from chat_messages where id = $1', [after.message_id]);
    expect(message).toMatchObject({ text: 'Buenos días, ya llegó el stock que pediste' });

    // a dead process's claim taken again after the lease: the stable message id makes the send a no-op
    await t.sql(`update scheduled_messages set status = 'sending', claimed_at = now() - interval '5 minutes' where id = $1`, [scheduled._id]);
    await runDue();
    expect(sentTexts().length - before).toBe(1);
    expect((await stored(scheduled._id)).status).toBe('sent');

    // changing it after it went: a Spanish 409
    const late = await call('PUT', `/chats/${chat}/scheduled-messages/${scheduled._id}`, { text: 'Otro texto', sendAt: inAnHour() });
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain(scheduledMessageTexts.notPending.sent);
    expect((await call('DELETE', `/chats/${chat}/scheduled-messages/${scheduled._id}`)).statusCode).toBe(409);

    const audits = await t.sql<{ action: string }>(`select action from audit_log where entity = 'scheduled_messages' and entity_id = $1 order by id`, [scheduled._id]);
    expect(audits.map((a) => a.action)).toEqual(['create']);
  });

  it('an image with its caption (the dialog\'s file, by its Drive link) goes at its minute as an image', async () => {
    const chat = await receive('51944000009', '¿Tienen la oferta en rojo?');
    const link = 'https://demo.mostrador.pe/api/drive/files/Ab3dEf6hIj9kLm2nOp5q/oferta.png';
    const scheduled = await ok<ScheduledMessageOut>('POST', `/chats/${chat}/scheduled-messages`, { kind: 'image', mediaUrl: link, text: 'Solo por hoy: 20 % menos', sendAt: inAnHour() });
    expect(scheduled).toMatchObject({ kind: 'image', mediaUrl: link, text: 'Solo por hoy: 20 % menos', status: 'pending' });
    const sends = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));
    const before = sends().length;
    await runDue();
    expect(sends().length).toBe(before);
    await due(scheduled._id);
    await runDue();
    expect(sends().slice(before).map((r) => r.body)).toEqual([expect.objectContaining({ type: 'image', image: expect.objectContaining({ link, caption: 'Solo por hoy: 20 % menos' }) })]);
    const after = await stored(scheduled._id);
    expect(after).toMatchObject({ status: 'sent', error: null, message_id: scheduledMessageId(scheduled._id) });
    const [message] = await t.sql<{ kind: string; media_url: string | null; text: string | null }>('select kind, media_url, text from chat_messages where id = $1', [after.message_id]);
    expect(message).toEqual({ kind: 'image', media_url: link, text: 'Solo por hoy: 20 % menos' });
  });

  it('edited while pending, then cancelled, never goes', async () => {
    const chat = await receive('51944000002', 'Llámenme mañana');
    const scheduled = await ok<ScheduledMessageOut>('POST', `/chats/${chat}/scheduled-messages`, { text: 'Hola, te escribimos como acordamos', sendAt: inAnHour() });
    const sendAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const edited = await ok<ScheduledMessageOut>('PUT', `/chats/${chat}/scheduled-messages/${scheduled._id}`, { text: 'Hola, te escribimos como quedamos', sendAt });
    expect(edited).toMatchObject({ text: 'Hola, te escribimos como quedamos', sendAt, status: 'pending' });
    const cancelled = await ok<ScheduledMessageOut>('DELETE', `/chats/${chat}/scheduled-messages/${scheduled._id}`);
    expect(cancelled.status).toBe('cancelled');
    const before = sentTexts().length;
    await due(scheduled._id);
    await runDue();
    expect(sentTexts().length).toBe(before);
    expect((await stored(scheduled._id)).status).toBe('cancelled');
    const again = await call('PUT', `/chats/${chat}/scheduled-messages/${scheduled._id}`, { text: 'Otra vez', sendAt: inAnHour() });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(scheduledMessageTexts.notPending.cancelled);
    const audits = await t.sql<{ action: string }>(`select action from audit_log where entity = 'scheduled_messages' and entity_id = $1 order by id`, [scheduled._id]);
    expect(audits.map((a) => a.action)).toEqual(['create', 'update', 'cancel']);
  });

  it('a text whose 24-hour window closed fails with the send’s reason, kept and listed', async () => {
    const chat = await receive('51944000003', 'Hola');
    const scheduled = await ok<ScheduledMessageOut>('POST', `/chats/${chat}/scheduled-messages`, { text: 'Seguimos atentos a tu pedido', sendAt: inAnHour() });
    await t.sql(`update chat_windows set last_inbound_at = now() - interval '25 hours' where chat_id = $1`, [chat]);
    const before = sentTexts().length;
    await due(scheduled._id);
    await runDue();
    expect(sentTexts().length).toBe(before);
    const failed = await stored(scheduled._id);
    expect(failed).toMatchObject({ status: 'failed', error: chatStateReasons.windowClosed('whatsapp'), message_id: null });
    const [listed] = (await ok<{ payload: ScheduledMessageOut[] }>('GET', `/chats/${chat}/scheduled-messages`)).payload;
    expect(listed).toMatchObject({ status: 'failed', error: chatStateReasons.windowClosed('whatsapp') });
  });

  it('a template goes even when the window closed, with its values', async () => {
    const chat = await receive('51944000007', 'Hola');
    const [tpl] = await t.sql<{ id: string }>(
      `insert into whatsapp_templates (company_id, business_account_id, name, language, category, status, body, body_examples)
       values ($1, $2, 'recordatorio_cita', 'es_PE', 'UTILITY', 'APPROVED', 'Hola {{1}}, te recordamos tu cita de mañana.', '["Rosa"]'::jsonb) returning id::text`,
      [peru, WABA],
    );
    // a template with a value missing is refused when scheduled
    const incomplete = await call('POST', `/chats/${chat}/scheduled-messages`, { kind: 'template', template: { templateId: tpl.id }, sendAt: inAnHour() });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.body).toContain('Completa el valor de {{1}}');
    const scheduled = await ok<ScheduledMessageOut>('POST', `/chats/${chat}/scheduled-messages`, { kind: 'template', template: { templateId: tpl.id, bodyValues: ['Rosa'] }, sendAt: inAnHour() });
    expect(scheduled).toMatchObject({ kind: 'template', template: { templateId: tpl.id, bodyValues: ['Rosa'] }, text: null });
    await t.sql(`update chat_windows set last_inbound_at = now() - interval '30 hours' where chat_id = $1`, [chat]);
    const before = fake.requests.length;
    await due(scheduled._id);
    await runDue();
    const after = await stored(scheduled._id);
    expect(after, JSON.stringify(after)).toMatchObject({ status: 'sent', error: null });
    const sentTemplates = fake.requests.slice(before).filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).map((r) => (r.body as { template?: { name: string } }).template?.name);
    expect(sentTemplates).toEqual(['recordatorio_cita']);
    const [message] = await t.sql<{ text: string }>('select text from chat_messages where id = $1', [after.message_id]);
    expect(message.text).toContain('Hola Rosa, te recordamos tu cita de mañana.');
  });

  it("another company's chat and ids are unknown (404)", async () => {
    const chat = await receive('51944000004', 'Hola');
    const mine = await ok<ScheduledMessageOut>('POST', `/chats/${chat}/scheduled-messages`, { text: 'Hola', sendAt: inAnHour() });
    const body = { text: 'Hola', sendAt: inAnHour() };
    expect((await call('POST', `/chats/${chat}/scheduled-messages`, body, chile)).statusCode).toBe(404);
    expect((await call('GET', `/chats/${chat}/scheduled-messages`, undefined, chile)).statusCode).toBe(404);
    expect((await call('PUT', `/chats/${chat}/scheduled-messages/${mine._id}`, body, chile)).statusCode).toBe(404);
    expect((await call('DELETE', `/chats/${chat}/scheduled-messages/${mine._id}`, undefined, chile)).statusCode).toBe(404);
    // a chat of the company, but the scheduled message of another of its chats
    const other = await receive('51944000005', 'Hola');
    expect((await call('DELETE', `/chats/${other}/scheduled-messages/${mine._id}`)).statusCode).toBe(404);
    expect((await stored(mine._id)).status).toBe('pending');
  });

  it('bad input is a Spanish 400', async () => {
    const chat = await receive('51944000006', 'Hola');
    const cases: Array<[object, string]> = [
      [{ text: 'Hola', sendAt: new Date(Date.now() - 60_000).toISOString() }, scheduledMessageTexts.sendAtPast],
      [{ text: 'Hola', sendAt: new Date(Date.now() + 91 * 86_400_000).toISOString() }, scheduledMessageTexts.sendAtFar],
      [{ text: '', sendAt: inAnHour() }, scheduledMessageTexts.textMissing],
      [{ text: 'Hola', sendAt: 'mañana' }, 'Debe ser una fecha y hora'],
      [{ kind: 'image', sendAt: inAnHour() }, scheduledMessageTexts.mediaMissing],
      [{ kind: 'template', sendAt: inAnHour() }, scheduledMessageTexts.templateMissing],
      [{ kind: 'image', mediaUrl: 'https://example.com/a.jpg', text: 'x'.repeat(1100), sendAt: inAnHour() }, 'WhatsApp admite hasta 1024 caracteres'],
    ];
    for (const [payload, message] of cases) {
      const res = await call('POST', `/chats/${chat}/scheduled-messages`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).toContain(message);
    }
    expect(await t.sql('select 1 from scheduled_messages where chat_id = $1', [chat])).toEqual([]);
  });
});
