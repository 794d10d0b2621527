import type { MassiveLogReport, SendOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookProcessor, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import type { CloudLine } from './fakes/cloud-line.js';
import { deliver, whatsappStatus } from './fakes/meta.js';
import { type LineApp, startLineApp } from './fixtures/line-app.js';
import { createLabel, whatsappPeople } from './fixtures/whatsapp-people.js';
import { as, demo, login, type Signed, type TestApp, until } from './helpers.js';

/**
 * The message histories (issue 13, decision 0042): the template history follows the template
 * chat messages — from a chat and from a campaign chunk — with the status webhooks moving it
 * (delivered, read, failed with the reason); its filters and CSV; a massive send's
 * per-recipient report, and tenant isolation.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9historialTokenDePrueba42';
const LINE = '109000000000042';
const WABA = '102290129340042';

let lineApp: LineApp;
let t: TestApp;
let line: CloudLine;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let processor: WebhookProcessor;
let templateId: string;

type Log = { _id: string; templateName: string; telefono?: string; nombre?: string; status: string; error?: string; chatId?: string; leadId?: string; source: string; sendName?: string };

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });

/** People with a WhatsApp chat each and an open 24-hour window, labelled `label`. */
const people = (prefix: string, n: number, label: string) => whatsappPeople(t, peru, prefix, n, label, { inWindow: n });
const label = (name: string) => createLabel(call, name);

/** The status webhooks of the line for a provider message id, processed as the queue would. */
async function report(providerId: string, status: 'sent' | 'delivered' | 'read' | 'failed') {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappStatus({ phoneNumberId: LINE, id: providerId, status }))).statusCode).toBe(200);
  for (const id of await processor.pendingIds()) await processor.process(id);
}

const logs = async (query: string) => {
  const res = await call('GET', `/template-messages-logs?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { payload: Log[]; totalDocs: number };
};
const providerIdOf = async (id: string) => (await t.sql<{ provider_message_id: string }>('select provider_message_id from chat_messages where id = $1', [id]))[0].provider_message_id;


beforeAll(async () => {
  lineApp = await startLineApp({ token: TOKEN, phoneNumberId: LINE, waba: WABA, env: { WHATSAPP_THROUGHPUT: '50' } });
  ({ t, line, admin, acme, peru, acmeCo } = lineApp);
  processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
  const [row] = await t.sql<{ id: string }>(
    `insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, body, body_examples, variable_fields)
     values ($1, $2, '7200001', 'historial_promo', 'es_PE', 'MARKETING', 'APPROVED', 'Hola {{1}}, esta semana tenemos 2x1 en gaseosas.', '["María"]', '["nombre"]') returning id`,
    [peru, WABA],
  );
  templateId = row.id;
}, 120_000);
afterAll(() => lineApp?.close());

describe('the template history', () => {
  it('has a row for each template sent from a chat, whose status follows the webhooks (delivered, read, failed with the reason)', async () => {
    const [ana, beto] = await people('51977420', 2, await label('Historial chat'));
    const sent = await call('POST', `/chats/${ana.chatId}/template`, { templateId, bodyValues: ['Ana'] });
    expect(sent.statusCode, sent.body).toBe(201);
    const messageId = sent.json()._id as string;

    let [log] = (await logs(`filter=${ana.phone}`)).payload;
    expect(log).toMatchObject({ _id: messageId, templateName: 'historial_promo', telefono: ana.phone, status: 'sent', chatId: ana.chatId, source: 'chat' });
    expect(log.nombre).toContain('Persona');
    expect(log.leadId).toMatch(/^[0-9a-f-]{36}$/);

    const pid = await providerIdOf(messageId);
    await report(pid, 'delivered');
    expect((await logs(`filter=${ana.phone}`)).payload[0].status).toBe('delivered');
    await report(pid, 'read');
    expect((await logs(`filter=${ana.phone}`)).payload[0].status).toBe('read');

    // WhatsApp accepts, then reports it failed: the reason in Spanish
    const other = await call('POST', `/chats/${beto.chatId}/template`, { templateId, bodyValues: ['Beto'] });
    expect(other.statusCode, other.body).toBe(201);
    await report(await providerIdOf(other.json()._id), 'failed');
    [log] = (await logs(`filter=${beto.phone}`)).payload;
    expect(log.status).toBe('failed');
    expect(log.error).toMatch(/24 horas/);

    // one row per message: GET by id, and the spec's writes are not offered on a read model
    expect((await call('GET', `/template-messages-logs/${messageId}`)).json()).toMatchObject({ status: 'read', source: 'chat' });
    expect((await call('POST', '/template-messages-logs', { templateName: 'x', status: 'sent', source: 'chat' })).statusCode).toBe(404);
  });

  it('has a row for each person of a campaign chunk, named by the chunk, queued while pending, gone when a stop takes it back', async () => {
    const tag = await label('Historial campaña');
    const who = await people('51977430', 3, tag);
    const seg = await call('POST', '/marketing-segments', { name: 'Segmento historial', filters: { mostradorLabelIds: [tag] } });
    const c = await call('POST', '/marketing-campaigns', { name: 'Historial 2x1', segmentId: seg.json()._id, channel: 'whatsapp', templateName: 'historial_promo', chunkSize: 3, status: 'pending' });
    const res = await call('POST', '/marketing-campaigns/send_chunk', { chunkPage: 0, chunkSize: 3, segment: seg.json()._id, campaign: c.json()._id });
    expect(res.statusCode, res.body).toBe(202);
    await until(
      async () => (await call('GET', `/sends/${res.json().chunk._id}`)).json() as SendOut,
      (s) => s.status === 'sent',
    );
    const rows = (await logs('source=campaign&templateName=historial_promo')).payload.filter((l) => who.some((p) => p.phone === l.telefono));
    expect(rows).toHaveLength(3);
    expect(rows.every((l) => l.status === 'sent' && l.sendName === 'Historial 2x1 · bloque 1')).toBe(true);
    await report(await providerIdOf(rows[0]._id), 'read');
    expect((await call('GET', `/template-messages-logs/${rows[0]._id}`)).json().status).toBe('read');

    // a message the engine wrote and has not sent yet reads «En cola»; one it takes back is gone
    const [m] = await t.sql<{ id: string }>(
      `insert into chat_messages (company_id, chat_id, direction, kind, text, content, status, sent_at)
       values ($1, $2, 'out', 'text', 'Hola', '{"template":{"name":"historial_promo","language":"es_PE"}}', 'pending', now()) returning id`,
      [peru, who[0].chatId],
    );
    expect((await call('GET', `/template-messages-logs/${m.id}`)).json()).toMatchObject({ status: 'pending', source: 'chat', telefono: who[0].phone });
    await t.sql('delete from chat_messages where id = $1', [m.id]);
    expect((await call('GET', `/template-messages-logs/${m.id}`)).statusCode).toBe(404);
  });

  it('filters by status, template and dates, searches by phone and name, exports the filtered list as CSV', async () => {
    const failed = await logs('status=failed&templateName=historial_promo');
    expect(failed.totalDocs).toBeGreaterThanOrEqual(1);
    expect(failed.payload.every((l) => l.status === 'failed' && l.templateName === 'historial_promo')).toBe(true);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await logs(`from=${encodeURIComponent(tomorrow)}`)).totalDocs).toBe(0);
    expect((await logs(`templateName=historial_promo&to=${encodeURIComponent(tomorrow)}`)).totalDocs).toBeGreaterThanOrEqual(5);
    expect((await logs('filter=Historial%20chat')).payload.every((l) => l.nombre?.includes('Historial chat'))).toBe(true);
    expect((await call('GET', '/template-messages-logs?status=perdido')).statusCode).toBe(400);

    const csv = await call('GET', '/template-messages-logs/export?status=failed&templateName=historial_promo');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('fecha,plantilla,nombre,telefono,estado,motivo,origen,envio');
    expect(lines).toHaveLength(failed.totalDocs + 1);
    expect(lines[1]).toContain(',historial_promo,');
    expect(lines[1]).toContain(',Fallido,');

    // an agent lists the history (messaging · list) but may not take every recipient's phone away
    // as a file: that is a leads export, which agents cannot do (decision 0061)
    const agent = await login(t, demo.agent);
    expect((await call('GET', '/template-messages-logs?limit=1', undefined, agent)).statusCode).toBe(200);
    expect((await call('GET', '/leads/export', undefined, agent)).statusCode).toBe(401);
    const refused = await call('GET', '/template-messages-logs/export', undefined, agent);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors.msg).toBe('No tienes permiso para exportar leads (Leads y contactos · Exportar)');
    expect(refused.body).not.toContain('historial_promo');

    // another company sees none of it
    const theirs = await call('GET', '/template-messages-logs?templateName=historial_promo', undefined, acme, acmeCo);
    expect(theirs.json().totalDocs).toBe(0);
    const id = failed.payload[0]._id;
    expect((await call('GET', `/template-messages-logs/${id}`, undefined, acme, acmeCo)).statusCode).toBe(404);
  });
});

describe('a massive send in the history', () => {
  it('opens its per-recipient report with its live send, filtered by status and searched; another company gets a 404', async () => {
    const who = await people('51977440', 4, await label('Historial masivo'));
    line.failFor.set(who[1].phone, { code: 131026, message: 'Message undeliverable' });
    const res = await call('POST', '/chats/send_massive_message', { chatIds: who.map((p) => p.chatId), text: 'Este sábado abrimos hasta las 10 p. m.' });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const [log] = await t.sql<{ id: string }>(`select id from massive_messages_logs where company_id = $1 and message = $2`, [peru, 'Este sábado abrimos hasta las 10 p. m.']);

    const done = await until(
      async () => (await call('GET', `/massive-messages-logs/${log.id}/recipients`)).json() as MassiveLogReport,
      (r) => r.send?.status === 'sent_with_some_errors',
    );
    expect(done.total).toBe(4);
    expect(done.send).toMatchObject({ kind: 'massive', counts: { total: 4, sent: 3, failed: 1 } });
    expect(done.payload.map((r) => r.telefono)).toEqual(who.map((p) => p.phone));
    expect((await call('GET', `/massive-messages-logs/${log.id}/send`)).json()._id).toBe(done.send?._id);

    const failed = (await call('GET', `/massive-messages-logs/${log.id}/recipients?status=failed`)).json() as MassiveLogReport;
    expect(failed.total).toBe(1);
    expect(failed.payload[0]).toMatchObject({ telefono: who[1].phone, status: 'failed', chatId: who[1].chatId });
    expect(failed.payload[0].reason).toBeTruthy();
    const found = (await call('GET', `/massive-messages-logs/${log.id}/recipients?q=${who[2].phone.slice(-4)}&limit=1`)).json() as MassiveLogReport;
    expect(found).toMatchObject({ total: 1, limit: 1, payload: [{ telefono: who[2].phone }] });

    // the list: its counts, and its status and date filters
    const list = (await call('GET', '/massive-messages-logs?status=sent_with_some_errors')).json();
    expect(list.payload.find((l: { _id: string }) => l._id === log.id)).toMatchObject({ total: 4, sent: 3, failed: 1 });
    expect((await call('GET', `/massive-messages-logs?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).json().totalDocs).toBe(0);

    for (const path of ['recipients', 'send']) {
      const theirs = await call('GET', `/massive-messages-logs/${log.id}/${path}`, undefined, acme, acmeCo);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().errors.msg).toBe('El envío masivo no existe en esta compañía');
    }
    expect((await call('GET', `/massive-messages-logs/${log.id}/recipients?status=perdido`)).statusCode).toBe(400);
  });
});
