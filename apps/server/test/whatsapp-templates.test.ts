import { type ChatMessage, type ChatTemplates, type TemplateSyncOut, type WhatsappTemplate, type WhatsappTemplateList, templateMessages } from '@mostrador/contract';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookProcessor, type WebhookProcessor } from '../src/modules/webhooks/process.js';
import { deliver, type FakeGraph, startFakeGraph, whatsappText } from './fakes/meta.js';
import { type FakeTemplates, fakeTemplates } from './fakes/meta-templates.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * WhatsApp message templates (issue 13, decision 0038) against the fake Graph template API:
 * create (submitted to Meta, nothing stored when Meta or our validation refuses), sync with
 * paging, statuses and the rejection reason in Spanish, tenant isolation, and an approved
 * template sent from a chat whose 24-hour window is closed.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9plantillasTokenDePrueba7Q2x';
const PERU_LINE = '109000000000038';
const PERU_WABA = '102290129340038';
const ACME_LINE = '109000000000039';
const ACME_WABA = '102290129340039';

let t: TestApp;
let fake: FakeGraph;
let tpl: FakeTemplates;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let processor: WebhookProcessor;
let files: Server;
let filesUrl: string;
const APP_ID = '567000000000038';
const EXAMPLE_BYTES = Buffer.from('GIF89a-imagen-de-ejemplo-para-la-plantilla');

const call = (s: Signed, company: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(s, company), payload });
const templateCount = async (company: string) => Number((await t.sql<{ n: number }>('select count(*) as n from whatsapp_templates where company_id = $1', [company]))[0].n);
const list = async (s: Signed, company: string, query = '') => {
  const res = await call(s, company, 'GET', `/whatsapp-templates${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as WhatsappTemplateList;
};
const sync = async (s: Signed, company: string) => {
  const res = await call(s, company, 'POST', '/whatsapp-templates/sync');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TemplateSyncOut;
};

const good = {
  name: 'seguimiento_pedido',
  language: 'es_PE',
  category: 'UTILITY',
  header: { format: 'TEXT', text: 'Pedido {{1}}', example: 'A-1024' },
  body: 'Hola {{1}}, tu pedido sale hoy a las {{2}}. ¡Gracias por comprar!',
  bodyExamples: ['María', '15:00'],
  footer: 'Bodega Lucho',
  buttons: [{ type: 'QUICK_REPLY', text: 'Gracias' }],
  variableFields: ['nombre', ''],
};

beforeAll(async () => {
  tpl = fakeTemplates(TOKEN);
  fake = await startFakeGraph(TOKEN, tpl.route);
  // a public link to an example image (a media header's example is read from it and uploaded to Meta)
  files = createServer((req, res) => {
    if (req.url !== '/promo.jpg') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(EXAMPLE_BYTES.length) }).end(EXAMPLE_BYTES);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  // the example files are served on 127.0.0.1: private targets allowed (decision 0060; test/outbound.test.ts runs with it off)
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url, META_APP_ID: APP_ID, OUTBOUND_ALLOW_PRIVATE_URLS: '1' });
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  processor = createWebhookProcessor(t.database.db, t.app.secrets, t.app.realtime);
  // the seeded demo templates belong to the sandbox's WABA: this line has its own
  await t.sql('delete from whatsapp_templates');
  expect((await call(admin, peru, 'PUT', '/channels/whatsapp', { phoneNumberId: PERU_LINE, businessAccountId: PERU_WABA, accessToken: TOKEN })).statusCode).toBe(200);
  expect((await call(acme, acmeCo, 'PUT', '/channels/whatsapp', { phoneNumberId: ACME_LINE, businessAccountId: ACME_WABA, accessToken: TOKEN })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => files?.close(resolve));
});

describe('creating a template submits it to Meta', () => {
  it('stores it PENDING with Meta’s id after Meta accepts the components it was sent', async () => {
    const res = await call(admin, peru, 'POST', '/whatsapp-templates', good);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as WhatsappTemplate;
    expect(created).toMatchObject({ name: 'seguimiento_pedido', language: 'es_PE', category: 'UTILITY', status: 'PENDING', businessAccountId: PERU_WABA, variableFields: ['nombre', ''] });
    expect(created.providerId).toMatch(/^\d+$/);
    const sent = fake.requests.find((r) => r.method === 'POST' && r.path === `/v21.0/${PERU_WABA}/message_templates`);
    expect(sent?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent?.body).toEqual({
      name: 'seguimiento_pedido',
      language: 'es_PE',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['A-1024'] } },
        { type: 'BODY', text: good.body, example: { body_text: [['María', '15:00']] } },
        { type: 'FOOTER', text: 'Bodega Lucho' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Gracias' }] },
      ],
    });
  });

  it.each([
    ['a name with capitals', { name: 'Promo Verano' }, 'name', templateMessages.name],
    ['a body over 1024 characters', { body: `Hola {{1}} ${'a'.repeat(1030)}`, bodyExamples: ['María'] }, 'body', templateMessages.bodyTooLong],
    ['variables with a gap', { body: 'Hola {{1}}, tu pedido {{3}} ya salió.', bodyExamples: ['María', 'x', 'y'] }, 'body', templateMessages.variablesInOrder(2)],
    ['a variable without its example', { bodyExamples: ['María'] }, 'bodyExamples.1', templateMessages.examplesRequired(2)],
    ['a header over 60 characters', { header: { format: 'TEXT', text: 'x'.repeat(61) } }, 'header.text', templateMessages.headerTooLong],
    ['a footer over 60 characters', { footer: 'y'.repeat(61) }, 'footer', templateMessages.footerTooLong],
    ['eleven buttons', { buttons: Array.from({ length: 11 }, (_, i) => ({ type: 'QUICK_REPLY', text: `Opción ${i}` })) }, 'buttons', templateMessages.tooManyButtons],
    ['an unknown category', { category: 'PROMO' }, 'category', 'Elige una de las opciones disponibles'],
  ])('refuses %s with a Spanish 400, sending and storing nothing', async (_what, change, path, msg) => {
    const before = [await templateCount(peru), fake.requests.length];
    const res = await call(admin, peru, 'POST', '/whatsapp-templates', { ...good, name: 'otra_plantilla', ...change });
    expect(res.statusCode, res.body).toBe(400);
    const { errors } = res.json() as { errors: { msg: string; details?: Array<{ path: string; msg: string }> } };
    expect(errors.details?.some((d) => d.path === path && d.msg === msg) || errors.msg === msg, JSON.stringify(errors)).toBe(true);
    expect([await templateCount(peru), fake.requests.length]).toEqual(before);
  });

  it('a media header’s example is uploaded to Meta (Resumable Upload API) and submitted by its handle; the link stays ours', async () => {
    const res = await call(admin, peru, 'POST', '/whatsapp-templates', {
      name: 'promo_con_imagen',
      language: 'es_PE',
      category: 'MARKETING',
      header: { format: 'IMAGE', mediaUrl: `${filesUrl}/promo.jpg` },
      body: '¡Hola {{1}}! Mira lo nuevo de la semana.',
      bodyExamples: ['María'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as WhatsappTemplate).header).toEqual({ format: 'IMAGE', mediaUrl: `${filesUrl}/promo.jpg` });
    expect(tpl.uploads.at(-1)).toMatchObject({ fileName: 'promo.jpg', fileType: 'image/jpeg', fileLength: EXAMPLE_BYTES.length, received: EXAMPLE_BYTES.length });
    const submitted = fake.requests.filter((r) => r.method === 'POST' && r.path === `/v21.0/${PERU_WABA}/message_templates`).at(-1);
    expect((submitted?.body as { components: object[] } | undefined)?.components[0]).toEqual({ type: 'HEADER', format: 'IMAGE', example: { header_handle: [tpl.uploads.at(-1)?.handle] } });
    expect(fake.requests.some((r) => r.path.startsWith(`/v21.0/${APP_ID}/uploads?`) && r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(fake.requests.some((r) => r.path.startsWith('/v21.0/upload:') && r.authorization === `OAuth ${TOKEN}`)).toBe(true);
    // a link that does not answer: a 502 that names the field, nothing submitted or stored
    const before = [await templateCount(peru), fake.requests.filter((r) => r.path.endsWith('/message_templates')).length];
    const bad = await call(admin, peru, 'POST', '/whatsapp-templates', {
      name: 'promo_sin_imagen',
      language: 'es_PE',
      category: 'MARKETING',
      header: { format: 'IMAGE', mediaUrl: `${filesUrl}/no-existe.jpg` },
      body: 'Hola {{1}}, mira lo nuevo.',
      bodyExamples: ['María'],
    });
    expect(bad.statusCode).toBe(502);
    expect(bad.json().errors.details).toEqual([{ path: 'header.mediaUrl', msg: expect.stringContaining('No se pudo descargar el archivo de ejemplo (HTTP 404)') }]);
    expect([await templateCount(peru), fake.requests.filter((r) => r.path.endsWith('/message_templates')).length]).toEqual(before);
  });

  it('a name already used in that language is a 409 before reaching Meta', async () => {
    const before = fake.requests.length;
    const res = await call(admin, peru, 'POST', '/whatsapp-templates', good);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toBe(templateMessages.duplicate);
    expect(fake.requests.length).toBe(before);
  });

  it('Meta’s refusal and its throttling (429 / 80008) store nothing and say why in Spanish', async () => {
    const before = await templateCount(peru);
    tpl.failNext(400, { message: 'Invalid parameter', code: 100, error_subcode: 2388043 });
    let res = await call(admin, peru, 'POST', '/whatsapp-templates', { ...good, name: 'rechazada_por_meta' });
    expect(res.statusCode).toBe(502);
    expect(res.json().errors.msg).toMatch(/^Meta no aceptó la plantilla: /);
    tpl.failNext(429, { message: '(#80008) There have been too many calls to this WhatsApp Business account.', code: 80008 });
    res = await call(admin, peru, 'POST', '/whatsapp-templates', { ...good, name: 'demasiadas_llamadas' });
    expect(res.statusCode).toBe(429);
    expect(res.json().errors.msg).toContain('Demasiadas llamadas a la cuenta de WhatsApp Business');
    expect(await templateCount(peru)).toBe(before);
  });
});

describe('sync', () => {
  it('reads every page (paging.cursors.after), takes Meta’s statuses and the rejection reason in Spanish, and removes what Meta no longer has', async () => {
    tpl.pageSize = 2;
    tpl.setStatus(PERU_WABA, 'seguimiento_pedido', 'APPROVED');
    tpl.add(PERU_WABA, { name: 'promo_navidad', language: 'es', category: 'MARKETING', status: 'REJECTED', rejected_reason: 'PROMOTIONAL', components: [{ type: 'BODY', text: '¡Ofertas!' }] });
    tpl.add(PERU_WABA, { name: 'encuesta', language: 'es', category: 'MARKETING', status: 'PAUSED', components: [{ type: 'BODY', text: '¿Nos calificas?' }] });
    tpl.add(PERU_WABA, { name: 'antigua', language: 'es', category: 'MARKETING', status: 'DISABLED', components: [{ type: 'BODY', text: 'Hola' }] });
    tpl.add(PERU_WABA, {
      name: 'con_imagen',
      language: 'es_PE',
      category: 'MARKETING',
      status: 'APPROVED',
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://scontent.example/promo.jpg'] } },
        { type: 'BODY', text: '{{1}}, mira lo nuevo', example: { body_text: [['María']] } },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Ver', url: 'https://x.example/{{1}}', example: ['https://x.example/a'] }] },
      ],
    });
    const before = fake.requests.length;
    const result = await sync(admin, peru);
    expect(result).toMatchObject({ created: 4, updated: 2, removed: 0, total: 6 });
    const pages = fake.requests.slice(before).filter((r) => r.method === 'GET' && r.path.startsWith(`/v21.0/${PERU_WABA}/message_templates`));
    expect(pages).toHaveLength(3);
    expect(pages[1].path).toContain('after=');

    const all = await list(admin, peru);
    expect(all.totalDocs).toBe(6);
    const by = Object.fromEntries(all.payload.map((x) => [x.name, x]));
    expect(by.seguimiento_pedido).toMatchObject({ status: 'APPROVED', variableFields: ['nombre', ''], sendable: true });
    expect(by.promo_navidad).toMatchObject({ status: 'REJECTED', reason: 'Contenido promocional en una categoría que no lo admite' });
    expect(by.encuesta.status).toBe('PAUSED');
    expect(by.antigua.status).toBe('DISABLED');
    // a media header keeps the link we send it with, not Meta's copy
    expect(by.promo_con_imagen.header).toEqual({ format: 'IMAGE', mediaUrl: `${filesUrl}/promo.jpg` });
    expect(by.con_imagen).toMatchObject({ header: { format: 'IMAGE', mediaUrl: 'https://scontent.example/promo.jpg' }, sendable: false });
    expect((await list(admin, peru, '?status=REJECTED')).payload.map((x) => x.name)).toEqual(['promo_navidad']);
    expect((await list(admin, peru, '?q=navidad&limit=1')).totalDocs).toBe(1);

    tpl.accounts.set(PERU_WABA, (tpl.accounts.get(PERU_WABA) ?? []).filter((x) => x.name !== 'antigua'));
    expect(await sync(admin, peru)).toMatchObject({ created: 0, removed: 1, total: 5 });
    tpl.pageSize = 25;
  });

  it('throttling while syncing (130429) is a 429 in Spanish and changes nothing', async () => {
    const before = await templateCount(peru);
    tpl.failNext(400, { message: '(#130429) Rate limit hit', code: 130429 });
    const res = await call(admin, peru, 'POST', '/whatsapp-templates/sync');
    expect(res.statusCode).toBe(429);
    expect(res.json().errors.msg).toContain('límite de envíos por segundo');
    expect(await templateCount(peru)).toBe(before);
  });
});

describe('tenant isolation', () => {
  it('another company sees, reads, deletes and sends none of them', async () => {
    const [mine] = (await list(admin, peru)).payload;
    expect((await list(acme, acmeCo)).totalDocs).toBe(0);
    expect((await call(acme, acmeCo, 'GET', `/whatsapp-templates/${mine._id}`)).statusCode).toBe(404);
    expect((await call(acme, acmeCo, 'DELETE', `/whatsapp-templates/${mine._id}`)).statusCode).toBe(404);
    // a company's X-Company-Id it has no membership in is refused
    expect((await call(acme, peru, 'GET', '/whatsapp-templates')).statusCode).toBeGreaterThanOrEqual(401);
    expect(await templateCount(peru)).toBeGreaterThan(0);
  });

  it('a company without a WABA id is told what is missing, and cannot sync', async () => {
    const chile = admin.company('Demo Chile');
    const res = await list(admin, chile);
    expect(res.payload).toEqual([]);
    expect(res.blocked).toMatch(/no tiene una línea de WhatsApp/);
    expect((await call(admin, chile, 'POST', '/whatsapp-templates/sync')).statusCode).toBe(409);
  });
});

describe('a template from a chat whose window is closed', () => {
  let chat: string;
  let approved: WhatsappTemplate;
  beforeAll(async () => {
    expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: PERU_LINE, from: '51977300001', name: 'Rosa Quispe', text: 'Hola' }))).statusCode).toBe(200);
    for (const id of await processor.pendingIds()) await processor.process(id);
    [{ chat_id: chat }] = await t.sql<{ chat_id: string }>('select chat_id from lead_identities where platform_user_id = $1', ['51977300001']);
    await t.sql(`update chat_windows set last_inbound_at = now() - interval '30 hours' where chat_id = $1`, [chat]);
    approved = (await list(admin, peru)).payload.find((x) => x.name === 'seguimiento_pedido') as WhatsappTemplate;
  });

  it('offers only the approved templates of the line, with the lead’s values to prefill', async () => {
    const res = await call(admin, peru, 'GET', `/chats/${chat}/templates`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ChatTemplates;
    expect(body.payload.every((x) => x.status === 'APPROVED')).toBe(true);
    expect(body.payload.map((x) => x.name)).toContain('seguimiento_pedido');
    expect(body.values).toMatchObject({ nombre: 'Rosa Quispe', empresa: 'Demo Perú', agente: 'Ana Administradora' });
    expect((await call(acme, acmeCo, 'GET', `/chats/${chat}/templates`)).statusCode).toBe(404);
  });

  it('sends `type: template` with the parameters; the thread shows the rendered text', async () => {
    const res = await call(admin, peru, 'POST', `/chats/${chat}/template`, { templateId: approved._id, bodyValues: ['Rosa', '16:00'], headerValue: 'B-77' });
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json() as ChatMessage;
    expect(message).toMatchObject({ direction: 'out', kind: 'text', status: 'sent', content: { template: { name: 'seguimiento_pedido', language: 'es_PE' } } });
    expect(message.text).toBe('Pedido B-77\n\nHola Rosa, tu pedido sale hoy a las 16:00. ¡Gracias por comprar!\n\nBodega Lucho\n\n[Gracias]');
    expect(tpl.sends.at(-1)).toEqual({
      to: '51977300001',
      template: {
        name: 'seguimiento_pedido',
        language: { code: 'es_PE' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'B-77' }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Rosa' }, { type: 'text', text: '16:00' }] },
        ],
      },
    });
    const thread = await call(admin, peru, 'GET', `/chats/${chat}/messages`);
    expect(JSON.stringify(thread.json())).toContain('Hola Rosa, tu pedido sale hoy');
    // a free-form message is still refused
    expect((await call(admin, peru, 'POST', `/chats/${chat}/messages`, { text: 'Hola' })).statusCode).toBe(409);
  });

  it('the same Idempotency-Key sends once (a repeated click, a lost answer); a malformed key is a 400', async () => {
    const sends = tpl.sends.length;
    const body = { templateId: approved._id, bodyValues: ['Rosa', '17:00'], headerValue: 'B-78' };
    const headers = { ...as(admin, peru), 'idempotency-key': 'tpl-0f5c2d8e-key-1' };
    const first = await t.app.inject({ method: 'POST', url: `/api/chats/${chat}/template`, headers, payload: body });
    const again = await t.app.inject({ method: 'POST', url: `/api/chats/${chat}/template`, headers, payload: body });
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json()._id).toBe(first.json()._id);
    expect(tpl.sends.length).toBe(sends + 1);
    const bad = await t.app.inject({ method: 'POST', url: `/api/chats/${chat}/template`, headers: { ...as(admin, peru), 'idempotency-key': 'x' }, payload: body });
    expect(bad.statusCode).toBe(400);
    expect(tpl.sends.length).toBe(sends + 1);
  });

  it('a missing value, a template not approved or of another company: refused, nothing stored or sent', async () => {
    const count = async () => Number((await t.sql<{ n: number }>('select count(*) as n from chat_messages where chat_id = $1', [chat]))[0].n);
    const before = [await count(), tpl.sends.length];
    let res = await call(admin, peru, 'POST', `/chats/${chat}/template`, { templateId: approved._id, bodyValues: ['Rosa', ' '], headerValue: 'B-77' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.msg).toBe('Completa el valor de {{2}}');
    const paused = (await list(admin, peru, '?status=PAUSED')).payload[0];
    res = await call(admin, peru, 'POST', `/chats/${chat}/template`, { templateId: paused._id, bodyValues: [] });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toMatch(/no está aprobada \(pausada\)/);
    res = await call(acme, acmeCo, 'POST', `/chats/${chat}/template`, { templateId: approved._id, bodyValues: ['a', 'b'], headerValue: 'c' });
    expect(res.statusCode).toBe(404);
    expect([await count(), tpl.sends.length]).toEqual(before);
  });

  it('Meta’s template errors (132001, 131047…) fail the message with the Spanish reason', async () => {
    tpl.failNext(404, { message: '(#132001) Template name does not exist in the translation', code: 132001 });
    const res = await call(admin, peru, 'POST', `/chats/${chat}/template`, { templateId: approved._id, bodyValues: ['Rosa', '16:00'], headerValue: 'B-77' });
    expect(res.statusCode).toBe(502);
    expect(res.json().errors.msg).toContain('La plantilla no existe o no está aprobada en ese idioma');
    const [failed] = await t.sql<{ id: string; status: string; status_error: string }>(
      `select id, status, status_error from chat_messages where chat_id = $1 and direction = 'out' order by created_at desc limit 1`,
      [chat],
    );
    expect(failed.status).toBe('failed');
    expect(failed.status_error).toContain('(código 132001)');
    // sent again as the same template, though the window is closed
    const retry = await call(admin, peru, 'POST', `/chats/${chat}/messages/${failed.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().status).toBe('sent');
    expect(tpl.sends.at(-1)?.template.name).toBe('seguimiento_pedido');
  });
});

describe('deleting', () => {
  it('deletes at Meta and here', async () => {
    const target = (await list(admin, peru)).payload.find((x) => x.name === 'encuesta') as WhatsappTemplate;
    const res = await call(admin, peru, 'DELETE', `/whatsapp-templates/${target._id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: expect.stringContaining(`/v21.0/${PERU_WABA}/message_templates?name=encuesta`) });
    expect((await call(admin, peru, 'GET', `/whatsapp-templates/${target._id}`)).statusCode).toBe(404);
  });
});

describe('Meta’s template status webhook', () => {
  const statusUpdate = (id: string, name: string, event: string, reason?: string, time = Math.floor(Date.now() / 1000)) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: PERU_WABA,
        time,
        changes: [{ field: 'message_template_status_update', value: { event, message_template_id: Number(id), message_template_name: name, message_template_language: 'es_PE', reason: reason ?? null } }],
      },
    ],
  });
  const settle = async () => {
    for (const id of await processor.pendingIds()) await processor.process(id);
  };

  it('moves the template to the status Meta reports, with the rejection reason, without a sync', async () => {
    const target = (await list(admin, peru)).payload.find((x) => x.name === 'seguimiento_pedido') as WhatsappTemplate;
    expect((await deliver(t, '/api/webhooks/whatsapp', statusUpdate(target.providerId as string, target.name, 'PAUSED', undefined, 1_800_000_000))).statusCode).toBe(200);
    await settle();
    expect(((await call(admin, peru, 'GET', `/whatsapp-templates/${target._id}`)).json() as WhatsappTemplate).status).toBe('PAUSED');
    expect((await deliver(t, '/api/webhooks/whatsapp', statusUpdate(target.providerId as string, target.name, 'REJECTED', 'INCORRECT_CATEGORY', 1_800_000_100))).statusCode).toBe(200);
    await settle();
    const after = (await call(admin, peru, 'GET', `/whatsapp-templates/${target._id}`)).json() as WhatsappTemplate;
    expect(after).toMatchObject({ status: 'REJECTED', reason: 'La categoría elegida no corresponde al contenido' });
    // another company's templates are untouched, and a FLAGGED warning changes nothing
    expect((await list(acme, acmeCo)).totalDocs).toBe(0);
    await deliver(t, '/api/webhooks/whatsapp', statusUpdate(target.providerId as string, target.name, 'FLAGGED', undefined, 1_800_000_200));
    await settle();
    expect(((await call(admin, peru, 'GET', `/whatsapp-templates/${target._id}`)).json() as WhatsappTemplate).status).toBe('REJECTED');
  });
});
