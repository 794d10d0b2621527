import { type ChatMessage, type TemplateSyncOut, type WhatsappTemplate, type WhatsappTemplateList, waTemplateStatuses } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WABA } from '../src/seed/demo-templates.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The demo's sandbox answers the template API offline (decision 0038): the seeded templates
 * in every status, a sync that changes nothing, and the sandbox's review of a new template
 * (approved after a few seconds, rejected when its body says #rechazo); a template sent from a
 * demo chat. SEND_PROVIDER is the sandbox (the default outside production).
 */
let t: TestApp;
let admin: Signed;
let peru: string;
const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url: `/api${url}`, headers: as(admin, peru), payload });
const list = async () => (await call('GET', '/whatsapp-templates?limit=100')).json() as WhatsappTemplateList;

beforeAll(async () => {
  t = await startTestApp();
  admin = await login(t, demo.admin);
  peru = admin.company('Demo Perú');
});
afterAll(async () => {
  await t?.close();
});

describe('the sandbox template API', () => {
  it('the demo line shows templates in every status, and a sync keeps them', async () => {
    const before = await list();
    expect(before.line).toMatchObject({ businessAccountId: DEMO_WABA, sandbox: true });
    expect(new Set(before.payload.map((x) => x.status))).toEqual(new Set(waTemplateStatuses));
    expect(before.payload.find((x) => x.status === 'REJECTED')?.reason).toBe('Contenido promocional en una categoría que no lo admite');
    const res = await call('POST', '/whatsapp-templates/sync');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json() as TemplateSyncOut).toMatchObject({ created: 0, removed: 0, total: before.totalDocs });
    const after = await list();
    expect(after.payload.map((x) => [x.name, x.status])).toEqual(before.payload.map((x) => [x.name, x.status]));
  });

  it('reviews a new template: approved after a while, rejected when its body says #rechazo', async () => {
    const base = { language: 'es', category: 'UTILITY', body: 'Hola {{1}}, tu turno es mañana.', bodyExamples: ['María'], variableFields: ['nombre'] };
    for (const [name, body] of [
      ['turno_manana', base.body],
      ['turno_rechazo', 'Hola {{1}}, #rechazo de prueba.'],
    ]) {
      const res = await call('POST', '/whatsapp-templates', { ...base, name, body });
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as WhatsappTemplate).status).toBe('PENDING');
    }
    await call('POST', '/whatsapp-templates/sync');
    expect((await list()).payload.find((x) => x.name === 'turno_manana')?.status).toBe('PENDING');
    await t.sql(`update whatsapp_templates set created_at = now() - interval '1 minute' where name like 'turno_%'`);
    await call('POST', '/whatsapp-templates/sync');
    const by = Object.fromEntries((await list()).payload.map((x) => [x.name, x]));
    expect(by.turno_manana.status).toBe('APPROVED');
    expect(by.turno_rechazo).toMatchObject({ status: 'REJECTED', reason: 'Formato no válido (variables, saltos de línea o caracteres no admitidos)' });
  });

  it('sends an approved template to a demo chat whose window is closed', async () => {
    const [chat] = await t.sql<{ id: string }>(
      `select c.id from chats c join leads l on l.id = c.lead_id where c.company_id = $1 and c.platform = 'whatsapp' and l.telefono is not null order by c.id limit 1`,
      [peru],
    );
    await t.sql(`update chat_windows set last_inbound_at = now() - interval '2 days' where chat_id = $1`, [chat.id]);
    const picker = (await call('GET', `/chats/${chat.id}/templates`)).json() as { payload: WhatsappTemplate[]; values: Record<string, string> };
    const template = picker.payload.find((x) => x.name === 'seguimiento_cotizacion') as WhatsappTemplate;
    expect(template).toBeTruthy();
    const res = await call('POST', `/chats/${chat.id}/template`, { templateId: template._id, bodyValues: [picker.values.nombre, picker.values.empresa] });
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json() as ChatMessage;
    expect(message.status).toBe('sent');
    expect(message.text).toContain(`Hola ${picker.values.nombre}, te escribimos de Demo Perú`);
  });

  it('approves a new template by itself a few seconds later (a queued sync), no click needed', async () => {
    const res = await call('POST', '/whatsapp-templates', { name: 'aviso_solo', language: 'es', category: 'UTILITY', body: 'Tu pedido está listo, {{1}}.', bodyExamples: ['María'] });
    expect(res.statusCode, res.body).toBe(201);
    const deadline = Date.now() + 40_000;
    let status = 'PENDING';
    while (status === 'PENDING' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      status = (await list()).payload.find((x) => x.name === 'aviso_solo')?.status ?? 'missing';
    }
    expect(status).toBe('APPROVED');
  }, 60_000);
});
