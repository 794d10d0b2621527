import { massSendMessages, type SendCheckOut, sendingMessages, type SendOut, usdTo, whatsappRates } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudLine } from './fakes/cloud-line.js';
import { createWebhookProcessor } from '../src/modules/webhooks/process.js';
import { deliver, whatsappStatus } from './fakes/meta.js';
import { type LineApp, startLineApp } from './fixtures/line-app.js';
import { createLabel, whatsappPeople } from './fixtures/whatsapp-people.js';
import { as, type Signed, type TestApp } from './helpers.js';

/**
 * Massive sends to an audience and the Imagina template calls (issue 13, decision 0043), against
 * a fake WhatsApp line: the pre-send check (who and why not, the line's daily limit, the cost in
 * the company's currency) writes nothing; a send goes once to each person, as free text inside
 * their 24-hour window and as the linked template outside it; references are the company's.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9masivosTokenDePrueba43';
const LINE = '109000000000043';
const WABA = '102290129340043';

let lineApp: LineApp;
let t: TestApp;
let line: CloudLine;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let promoId: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });

/** People with a WhatsApp chat each, labelled `label`; the first `inWindow` wrote in the last 24 hours, the rest two days ago. */
async function people(prefix: string, n: number, label: string, inWindow: number) {
  const list = await whatsappPeople(t, peru, prefix, n, label, { inWindow });
  return { phones: list.map((p) => p.phone), chats: list.map((p) => p.chatId) };
}
const label = (name: string) => createLabel(call, name);

async function imagina(name: string, body: string, whatsappTemplate?: string, status = 'approved') {
  const res = await call('POST', '/imagina_template_messages', { name, language: 'es_PE', category: 'MARKETING', body, status, ...(whatsappTemplate ? { whatsappTemplate } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._id as string;
}

async function waitSend(id: string, ms = 30_000): Promise<SendOut> {
  const until = Date.now() + ms;
  for (;;) {
    const s = (await call('GET', `/sends/${id}`)).json() as SendOut;
    if (['sent', 'error', 'sent_with_some_errors', 'stopped'].includes(s.status)) return s;
    if (Date.now() > until) throw new Error(`el envío no terminó: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const sendsTo = (phones: string[]) => line.log.filter((l) => phones.includes(l.to));
const countOf = async (table: string) => Number((await t.sql<{ n: number }>(`select count(*)::int as n from ${table} where company_id = $1`, [peru]))[0].n);

beforeAll(async () => {
  lineApp = await startLineApp({ token: TOKEN, phoneNumberId: LINE, waba: WABA });
  ({ t, line, admin, acme, peru, acmeCo } = lineApp);
  line.messagingLimit = 'TIER_250';
  const [promo] = await t.sql<{ id: string }>(
    `insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, body, body_examples, variable_fields)
     values ($1, $2, '7300001', 'promo_masiva', 'es_PE', 'MARKETING', 'APPROVED', 'Hola {{1}}, llegó el 2x1 en gaseosas.', '["María"]', '["nombre"]'),
            ($1, $2, '7300002', 'aviso_pedido', 'es_PE', 'UTILITY', 'APPROVED', 'Hola {{1}}, tu pedido está en camino.', '["María"]', '["nombre"]')
     returning id`,
    [peru, WABA],
  );
  promoId = promo.id;
}, 120_000);
afterAll(() => lineApp?.close());

describe('the pre-send check of a massive send', () => {
  it('says who gets free text and why the others do not, against the daily limit, at no cost — and writes nothing', async () => {
    const tag = await label('Masivo texto');
    const { phones } = await people('51966510', 6, tag, 4);
    await t.sql(`update clean_leads set opt_out = true where company_id = $1 and telefono = $2`, [peru, phones[0]]);
    const [sends, logs] = [await countOf('sends'), await countOf('massive_messages_logs')];

    const res = await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag] }, message: { text: 'Hoy cerramos a las 6 p. m.' } });
    expect(res.statusCode, res.body).toBe(200);
    const check = res.json() as SendCheckOut;
    expect(check).toMatchObject({ audience: 6, queued: 3, insideWindow: 3, outsideWindow: 0 });
    expect(check.skipped).toEqual([
      { reason: sendingMessages.windowClosed, count: 2 },
      { reason: sendingMessages.optedOut, count: 1 },
    ]);
    expect(check.skippedSample.map((s) => s.telefono).sort()).toEqual([phones[0], phones[4], phones[5]].sort());
    // free text inside the window costs nothing; the line's limit is Meta's (fake: 250)
    expect(check.cost).toMatchObject({ currency: 'PEN', total: 0, lines: [], free: 3 });
    expect(check.dailyLimit).toMatchObject({ tier: 'TIER_250', limit: 250, known: true, over: 0 });
    expect(check.blocking).toBeUndefined();
    expect([await countOf('sends'), await countOf('massive_messages_logs')]).toEqual([sends, logs]);
    expect(sendsTo(phones)).toHaveLength(0);
  });

  it('prices a template by category and country in the company’s currency, and counts who would go over the limit', async () => {
    const tag = await label('Masivo plantilla');
    const { phones } = await people('51966520', 5, tag, 2);
    // a Colombian number is priced at Colombia's rate
    await t.sql(`update clean_leads set telefono = '573001234567' where company_id = $1 and telefono = $2`, [peru, phones[4]]);
    await t.sql(`update leads set telefono = '573001234567', platform_user_id = '573001234567' where company_id = $1 and telefono = $2`, [peru, phones[4]]);
    const res = await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag] }, message: { whatsappTemplateId: promoId } });
    expect(res.statusCode, res.body).toBe(200);
    const check = res.json() as SendCheckOut;
    expect(check).toMatchObject({ audience: 5, queued: 5, insideWindow: 2, outsideWindow: 3 });
    const pen = usdTo.PEN;
    const peruLine = check.cost.lines.find((l) => l.market === whatsappRates.PE.label);
    const colombia = check.cost.lines.find((l) => l.market === whatsappRates.CO.label);
    expect(peruLine).toMatchObject({ category: 'MARKETING', count: 4 });
    expect(peruLine?.amount).toBeCloseTo(4 * whatsappRates.PE.MARKETING * pen, 2);
    expect(colombia).toMatchObject({ category: 'MARKETING', count: 1 });
    expect(check.cost.total).toBeCloseTo(4 * whatsappRates.PE.MARKETING * pen + whatsappRates.CO.MARKETING * pen, 2);
    expect(check.cost.free).toBe(0);

    // a utility template is free for those whose window is open
    const [utility] = await t.sql<{ id: string }>(`select id from whatsapp_templates where company_id = $1 and name = 'aviso_pedido'`, [peru]);
    const u = (await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag] }, message: { whatsappTemplateId: utility.id } })).json() as SendCheckOut;
    expect(u.cost.free).toBe(2);
    expect(u.cost.lines.reduce((n, l) => n + l.count, 0)).toBe(3);

    // 248 people reached with a template today: of the 3 outside their window, 1 fits under 250
    const { chats } = await people('51966530', 248, await label('Ya contactados'), 0);
    await t.sql(
      `insert into chat_messages (company_id, chat_id, direction, kind, text, content, status, sent_at)
       select $1, c, 'out', 'text', 'Hola', '{"template":{"name":"promo_masiva","language":"es_PE"}}'::jsonb, 'delivered', now() - interval '2 hours' from unnest($2::uuid[]) c`,
      [peru, chats],
    );
    const over = (await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag] }, message: { whatsappTemplateId: promoId } })).json() as SendCheckOut;
    expect(over.dailyLimit).toMatchObject({ limit: 250, over: 1 });
    expect(over.dailyLimit.used).toBeGreaterThanOrEqual(248);
  });

  it('refuses a bad audience or message in Spanish: both or neither, another company’s segment or label, a draft Imagina template', async () => {
    const tag = await label('Masivo errores');
    const both = await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag], segmentId: tag }, message: { text: 'Hola' } });
    expect(both.statusCode).toBe(400);
    expect(JSON.stringify(both.json())).toContain('Elige un segmento o una selección de etiquetas');
    const none = await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag] }, message: {} });
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json())).toContain('Elige qué enviar');

    const foreignLabel = await call('POST', '/mostrador-labels', { name: 'De Acme', color: '#28156C' }, acme, acmeCo);
    const foreignSeg = await call('POST', '/marketing-segments', { name: 'Segmento de Acme', filters: {} }, acme, acmeCo);
    const l = await call('POST', '/sends/check', { audience: { mostradorLabelIds: [foreignLabel.json()._id] }, message: { text: 'Hola' } });
    expect(l.statusCode).toBe(400);
    const s = await call('POST', '/sends', { name: 'Ajeno', audience: { segmentId: foreignSeg.json()._id }, message: { text: 'Hola' } });
    expect(s.statusCode).toBe(400);
    expect(s.json().errors.msg).toBe(sendingMessages.segmentNotFound);

    // a template with a variable typed by hand in a chat cannot go to many people: said before anything is sent
    const [typed] = await t.sql<{ id: string }>(
      `insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, body, body_examples, variable_fields)
       values ($1, $2, '7300009', 'pedido_a_mano', 'es_PE', 'UTILITY', 'APPROVED', 'Hola {{1}}, tu pedido {{2}} está listo.', '["María","A-1"]', '["nombre",""]') returning id`,
      [peru, WABA],
    );
    const typedCheck = (await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag] }, message: { whatsappTemplateId: typed.id } })).json() as SendCheckOut;
    expect(typedCheck).toMatchObject({ blocking: sendingMessages.typedVariable('pedido_a_mano', 2), queued: 0 });
    const typedSend = await call('POST', '/sends', { name: 'A mano', audience: { mostradorLabelIds: [tag] }, message: { whatsappTemplateId: typed.id } });
    expect(typedSend.statusCode).toBe(409);
    expect(typedSend.json().errors.msg).toBe(sendingMessages.typedVariable('pedido_a_mano', 2));

    const draft = await imagina('borrador_masivo', 'Hola {{nombre}}', undefined, 'draft');
    const d = await call('POST', '/sends', { name: 'Borrador', audience: { mostradorLabelIds: [tag] }, message: { imaginaTemplateId: draft } });
    expect(d.statusCode).toBe(409);
    expect(d.json().errors.msg).toBe(massSendMessages.imaginaNotApproved('borrador_masivo'));
    const bad = await call('POST', '/imagina_template_messages', { name: 'variable_rara', language: 'es_PE', category: 'MARKETING', body: 'Hola {{apodo}}' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('{{nombre}}');
  });
});

describe('a massive send', () => {
  it('sends an Imagina template once to each person: free text inside the window, the linked template outside; the history counts it', async () => {
    const tag = await label('Masivo Imagina');
    const { phones } = await people('51966540', 6, tag, 3);
    const id = await imagina('saludo_masivo', 'Hola {{nombre}}, te escribe {{empresa}}: hoy 2x1 en gaseosas.', 'promo_masiva');
    const res = await call('POST', '/sends', { name: 'Saludo de fin de mes', audience: { mostradorLabelIds: [tag] }, message: { imaginaTemplateId: id } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().msg).toBe(massSendMessages.queued);
    const done = await waitSend(res.json().send._id);
    expect(done).toMatchObject({ kind: 'massive', status: 'sent', counts: { total: 6, sent: 6, failed: 0, skipped: 0 } });

    const out = sendsTo(phones);
    expect(out).toHaveLength(6);
    expect(new Set(out.map((l) => l.to)).size).toBe(6);
    const inside = out.filter((l) => phones.slice(0, 3).includes(l.to));
    expect(inside.every((l) => !l.template && l.text?.startsWith(`Hola Persona ${tag}`) && l.text.includes('te escribe Demo Perú'))).toBe(true);
    const outside = out.filter((l) => phones.slice(3).includes(l.to));
    expect(outside.every((l) => l.template === 'promo_masiva')).toBe(true);

    const [log] = await t.sql<{ name: string; total: number; sent: number; status: string }>(`select name, total, sent, status from massive_messages_logs where id = $1`, [res.json().logId]);
    expect(log).toMatchObject({ name: 'Saludo de fin de mes', total: 6, sent: 6, status: 'sent' });

    // the Imagina calls: one chat, several chats (another company's refused, nothing written)
    const [chat] = await t.sql<{ id: string }>(`select c.id from chats c join leads l on l.id = c.lead_id where c.company_id = $1 and l.telefono = $2`, [peru, phones[0]]);
    const single = await call('POST', '/imagina_template_messages/send_single_message', { imaginaTemplateId: id, chatId: chat.id });
    expect(single.statusCode, single.body).toBe(202);
    expect(single.json().msg).toBe(massSendMessages.singleQueued);
    await waitSend(single.json().send._id);
    expect(sendsTo([phones[0]])).toHaveLength(2);

    const [acmeChat] = await t.sql<{ id: string }>(
      `insert into chats (company_id, contact_name, platform, status, unread_count, created_at, updated_at) values ($1, 'Cliente de Acme', 'whatsapp', 'open', 0, now(), now()) returning id`,
      [acmeCo],
    );
    const before = await countOf('sends');
    const bulk = await call('POST', '/imagina_template_messages/send_bulk_messages', { imaginaTemplateId: id, chatIds: [chat.id, acmeChat.id] });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json().errors.msg).toBe(massSendMessages.chatNotFound);
    expect(await countOf('sends')).toBe(before);

    const massive = await call('POST', '/imagina_template_messages/send_massive_messages', { imaginaTemplateId: id, name: 'Otra vez', audience: { mostradorLabelIds: [tag] } });
    expect(massive.statusCode, massive.body).toBe(202);
    expect((await waitSend(massive.json().send._id)).counts.sent).toBe(6);
  });

  it('keeps its history row true when WhatsApp later reports a message it sent as failed', async () => {
    const tag = await label('Masivo falla tardía');
    const { phones } = await people('51966590', 3, tag, 3);
    const res = await call('POST', '/sends', { name: 'Aviso de horario', audience: { mostradorLabelIds: [tag] }, message: { text: 'Mañana abrimos a las 10 a. m.' } });
    await waitSend(res.json().send._id);
    const logOf = async () => (await t.sql<{ sent: number; failed: number; status: string }>(`select sent, failed, status from massive_messages_logs where id = $1`, [res.json().logId]))[0];
    expect(await logOf()).toMatchObject({ sent: 3, failed: 0, status: 'sent' });
    const wamid = line.log.find((l) => l.to === phones[1])?.id as string;
    const processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
    const failed = whatsappStatus({ phoneNumberId: LINE, id: wamid, status: 'failed', recipient: phones[1] });
    expect((await deliver(t, '/api/webhooks/whatsapp', failed)).statusCode).toBe(200);
    for (const pid of await processor.pendingIds()) await processor.process(pid);
    expect(await logOf()).toMatchObject({ sent: 2, failed: 1, status: 'sent_with_some_errors' });
    // the same report again changes nothing
    expect((await deliver(t, '/api/webhooks/whatsapp', failed)).statusCode).toBe(200);
    for (const pid of await processor.pendingIds()) await processor.process(pid);
    expect(await logOf()).toMatchObject({ sent: 2, failed: 1 });
  });

  it('of an Imagina template without a linked template leaves out, with why, those whose window is closed', async () => {
    const tag = await label('Masivo sin plantilla');
    const { phones } = await people('51966550', 4, tag, 1);
    const id = await imagina('solo_texto', 'Hola {{nombre}}, ¿te separamos tu pedido?');
    const res = await call('POST', '/sends', { name: 'Solo texto', audience: { mostradorLabelIds: [tag] }, message: { imaginaTemplateId: id } });
    expect(res.statusCode, res.body).toBe(202);
    const done = await waitSend(res.json().send._id);
    expect(done.counts).toMatchObject({ total: 4, sent: 1, skipped: 3 });
    expect(sendsTo(phones).map((l) => l.to)).toEqual([phones[0]]);
  });

  it('opens a WhatsApp chat for people who never wrote and sends them the template there; free text cannot reach them', async () => {
    const tag = await label('Masivo sin chat');
    await t.sql(
      `insert into clean_leads (company_id, name, telefono, status, mostrador_labels) values
         ($1, 'Importada Uno', '51966580001', 'sin-asignar', jsonb_build_array($2::text)),
         ($1, 'Importada Dos', '51966580002', 'sin-asignar', jsonb_build_array($2::text)),
         ($1, 'Sin número válido', '5100', 'sin-asignar', jsonb_build_array($2::text))`,
      [peru, tag],
    );
    const text = (await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag] }, message: { text: 'Hola' } })).json() as SendCheckOut;
    expect(text).toMatchObject({ queued: 0, skipped: [{ reason: sendingMessages.noChat, count: 3 }] });
    const check = (await call('POST', '/sends/check', { audience: { mostradorLabelIds: [tag] }, message: { whatsappTemplateId: promoId } })).json() as SendCheckOut;
    expect(check).toMatchObject({ queued: 2, outsideWindow: 2, skipped: [{ reason: sendingMessages.noPhone, count: 1 }] });

    const res = await call('POST', '/sends', { name: 'Clientes importados', audience: { mostradorLabelIds: [tag] }, message: { whatsappTemplateId: promoId } });
    expect(res.statusCode, res.body).toBe(202);
    expect((await waitSend(res.json().send._id)).counts).toMatchObject({ total: 3, sent: 2, skipped: 1 });
    expect(sendsTo(['51966580001', '51966580002']).map((l) => l.template)).toEqual(['promo_masiva', 'promo_masiva']);
    // each has a chat now, holding the message, found by their number when they answer
    const chats = await t.sql<{ telefono: string; messages: number; identity: string | null }>(
      `select l.telefono, (select count(*)::int from chat_messages m where m.chat_id = c.id) as messages,
              (select i.chat_id::text from lead_identities i where i.company_id = c.company_id and i.platform = 'whatsapp' and i.platform_user_id = l.telefono) as identity, c.id::text as chat
         from clean_leads cl join leads l on l.clean_lead_id = cl.id join chats c on c.lead_id = l.id
        where cl.company_id = $1 and cl.mostrador_labels ? $2 order by l.telefono`,
      [peru, tag],
    );
    expect(chats.map((c) => [c.telefono, c.messages])).toEqual([
      ['51966580001', 1],
      ['51966580002', 1],
    ]);
    expect(chats.every((c) => c.identity === (c as unknown as { chat: string }).chat)).toBe(true);
  });

  it('is refused when nobody of the audience would get it', async () => {
    const tag = await label('Masivo vacío');
    await people('51966560', 2, tag, 0);
    const res = await call('POST', '/sends', { name: 'Nadie', audience: { mostradorLabelIds: [tag] }, message: { text: 'Hola' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toBe(massSendMessages.emptyAudience);
  });
});

describe('a campaign’s pre-send check', () => {
  it('leaves out who already got the campaign and prices the rest', async () => {
    const tag = await label('Campaña con revisión');
    await people('51966570', 4, tag, 0);
    const seg = await call('POST', '/marketing-segments', { name: 'Segmento revisión', filters: { mostradorLabelIds: [tag] } });
    const c = await call('POST', '/marketing-campaigns', { name: 'Revisión previa', segmentId: seg.json()._id, channel: 'whatsapp', templateName: 'promo_masiva', chunkSize: 2, status: 'pending' });
    const first = (await call('GET', `/marketing-campaigns/${c.json()._id}/check`)).json() as SendCheckOut;
    expect(first).toMatchObject({ audience: 4, queued: 4, outsideWindow: 4 });
    expect(first.cost.total).toBeGreaterThan(0);
    const chunk = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 2, segment: seg.json()._id, campaign: c.json()._id });
    await waitSend(chunk.json().chunk._id);
    const after = (await call('GET', `/marketing-campaigns/${c.json()._id}/check`)).json() as SendCheckOut;
    expect(after).toMatchObject({ audience: 4, queued: 2, skipped: [{ reason: sendingMessages.alreadySent, count: 2 }] });
    expect((await call('GET', `/marketing-campaigns/${c.json()._id}/check`, undefined, acme, acmeCo)).statusCode).toBe(404);
  });
});
