import { type AutomationRuleOut, type AutomationRunOut, type BusinessHoursOut, businessHoursMessages, hoursWeekdays } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, type FakeGraph, startFakeGraph, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Business hours (issue 29, decision 0078) on signed WhatsApp webhook fixtures: the company's
 * hours saved and read with Spanish validation, another company's untouched; a customer writing
 * outside them gets the away message once per chat and closed period, none inside; a rule asking
 * «Dentro del horario de atención» = no fires outside hours only.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9horarioTokenDePrueba7Q2x';
const LINE = '109000000000078';
const AWAY = 'Gracias por escribirnos. Atendemos de lunes a viernes de 9:00 a 18:00; te respondemos apenas abramos.';

let t: TestApp;
let fake: FakeGraph;
let admin: Signed;
let peru: string;
let chile: string;
type Rec = Record<string, unknown>;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, company = peru) => t.app.inject({ method, url: `/api${url}`, headers: as(admin, company), payload });
async function ok<T = Rec>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, company = peru): Promise<T> {
  const res = await call(method, url, payload, company);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as T;
}
const sentTexts = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).map((r) => (r.body as { text?: { body?: string } }).text?.body);

async function receive(from: string, text: string): Promise<string> {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: LINE, from, text }))).statusCode).toBe(200);
  for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
  for (let i = 0; i < 4; i++) await t.app.spine.drain();
  const [row] = await t.sql<{ chat_id: string }>('select chat_id::text from lead_identities where platform_user_id = $1', [from]);
  return row.chat_id;
}

const every = (intervals: Array<{ start: string; end: string }>) => Object.fromEntries(hoursWeekdays.map((d) => [d, intervals]));
const alwaysOpen = { zone: 'America/Lima', schedule: every([{ start: '00:00', end: '24:00' }]), holidays: [], awayEnabled: true, awayText: AWAY };
const neverOpen = { ...alwaysOpen, schedule: every([]) };

beforeAll(async () => {
  fake = await startFakeGraph(TOKEN);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  admin = await login(t, demo.admin);
  peru = admin.company('Demo Perú');
  chile = admin.company('Demo Chile');
  expect((await call('PUT', '/channels/whatsapp', { phoneNumberId: LINE, accessToken: TOKEN })).statusCode).toBe(200);
  // the demo's rules are off here: these tests count the away message's effects alone
  await t.sql('update automation_rules set enabled = false where company_id = $1', [peru]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('GET/PUT /business-hours', () => {
  it('saves the whole week, reads it back, audits it, and leaves another company alone', async () => {
    const chileBefore = await ok<BusinessHoursOut>('GET', '/business-hours', undefined, chile);
    const week = {
      zone: 'America/Lima',
      schedule: {
        ...every([]),
        mon: [
          { start: '09:00', end: '13:00' },
          { start: '14:00', end: '19:00' },
        ],
        sat: [{ start: '09:00', end: '13:00' }],
      },
      holidays: [{ date: '2026-12-25', name: 'Navidad' }, { date: '2027-01-01' }],
      awayEnabled: false,
      awayText: 'Estamos cerrados',
    };
    const saved = await ok<BusinessHoursOut>('PUT', '/business-hours', week);
    expect(saved).toMatchObject({ zone: 'America/Lima', saved: true, awayEnabled: false, awayText: 'Estamos cerrados' });
    expect(saved.schedule.mon).toHaveLength(2);
    expect(saved.holidays).toEqual([
      { date: '2026-12-25', name: 'Navidad' },
      { date: '2027-01-01', name: '' },
    ]);
    expect(await ok<BusinessHoursOut>('GET', '/business-hours')).toEqual(saved);
    expect(await ok<BusinessHoursOut>('GET', '/business-hours', undefined, chile)).toEqual(chileBefore);
    const [entry] = await t.sql<{ action: string; entity: string }>(`select action, entity from audit_log where company_id = $1 and entity = 'business_hours' order by at desc limit 1`, [peru]);
    expect(entry).toEqual({ action: expect.stringMatching(/create|update/), entity: 'business_hours' });
  });

  it('refuses a malformed week with Spanish messages at their fields, storing nothing', async () => {
    const before = await ok<BusinessHoursOut>('GET', '/business-hours');
    const bad = await call('PUT', '/business-hours', {
      zone: 'Marte/Olimpo',
      schedule: {
        ...every([]),
        mon: [{ start: '18:00', end: '09:00' }],
        tue: [
          { start: '09:00', end: '13:00' },
          { start: '12:00', end: '15:00' },
        ],
        wed: [{ start: '9', end: '12:00' }],
      },
      holidays: [{ date: '2026-02-30' }],
    });
    expect(bad.statusCode).toBe(400);
    for (const m of [businessHoursMessages.zone, businessHoursMessages.order, businessHoursMessages.overlap, businessHoursMessages.time, businessHoursMessages.date])
      expect(bad.body).toContain(m);
    const noText = await call('PUT', '/business-hours', { ...alwaysOpen, awayText: '   ' });
    expect(noText.statusCode).toBe(400);
    expect(noText.json().errors.details).toEqual([{ path: 'awayText', msg: businessHoursMessages.awayRequired }]);
    expect((await call('PUT', '/business-hours', { ...alwaysOpen, awayText: 'x'.repeat(1001) })).statusCode).toBe(400);
    expect(await ok<BusinessHoursOut>('GET', '/business-hours')).toEqual(before);
  });
});

describe('the away message', () => {
  it('goes once per chat and closed period outside hours, as a system message through the channel', async () => {
    await ok('PUT', '/business-hours', neverOpen);
    const before = sentTexts().length;
    const chat = await receive('51978000001', 'Hola, ¿están abiertos?');
    await receive('51978000001', '¿Hola?');
    expect(sentTexts().slice(before)).toEqual([AWAY]);
    const [row] = await t.sql<{ n: number }>('select count(*)::int as n from away_messages where chat_id = $1', [chat]);
    expect(row.n).toBe(1);
    const [msg] = await t.sql<{ text: string; direction: string }>(`select text, direction from chat_messages where chat_id = $1 and direction = 'out'`, [chat]);
    expect(msg).toEqual({ text: AWAY, direction: 'out' });

    // another chat in the same period gets its own
    await receive('51978000002', 'Buenas noches');
    expect(sentTexts().slice(before)).toEqual([AWAY, AWAY]);

    // a later closed period (open yesterday for a minute, closed since): once more
    const yesterday = hoursWeekdays[(new Date(Date.now() - 86_400_000).getUTCDay() + 6) % 7];
    await ok('PUT', '/business-hours', { ...neverOpen, zone: 'UTC', schedule: { ...every([]), [yesterday]: [{ start: '00:00', end: '00:01' }] } });
    await receive('51978000001', 'Sigo esperando');
    expect(sentTexts().slice(before)).toEqual([AWAY, AWAY, AWAY]);
  });

  it('is not sent inside hours, nor when it is off', async () => {
    await ok('PUT', '/business-hours', alwaysOpen);
    const before = sentTexts().length;
    await receive('51978000003', 'Hola');
    await ok('PUT', '/business-hours', { ...neverOpen, awayEnabled: false });
    await receive('51978000004', 'Hola');
    expect(sentTexts().slice(before)).toEqual([]);
  });
});

describe('the rules’ condition «Dentro del horario de atención»', () => {
  it('a rule asking business_hours = no fires outside hours only', async () => {
    const rule = await ok<AutomationRuleOut>('POST', '/automation-rules', {
      name: 'Fuera de horario: etiqueta',
      trigger: { event: 'message.received' },
      conditions: [{ field: 'business_hours', op: 'is', value: false }],
      actions: [{ type: 'note', text: 'Escribió fuera del horario' }],
    });
    await ok('PUT', '/business-hours', { ...alwaysOpen, awayEnabled: false });
    await receive('51978000005', 'Hola de día');
    expect((await ok<{ payload: AutomationRunOut[] }>('GET', `/automation-rules/${rule._id}/runs`)).payload).toHaveLength(0);

    await ok('PUT', '/business-hours', { ...neverOpen, awayEnabled: false });
    const chat = await receive('51978000006', 'Hola de noche');
    const runs = (await ok<{ payload: AutomationRunOut[] }>('GET', `/automation-rules/${rule._id}/runs`)).payload;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ chatId: chat, status: 'ok' });
    expect(runs[0].conditions).toEqual([{ field: 'business_hours', op: 'is', value: false, actual: false, passed: true }]);
  });
});
