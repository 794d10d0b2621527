import type { TelegramExecuteOut, TelegramExecutionOut } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telegramDefaults } from '../src/integrations/telegram/client.js';
import { runDueRoutines } from '../src/modules/telegram/executions.js';
import { type FakeTelegramServer, startFakeTelegram } from './fakes/telegram.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

const TOKEN = '7000000001:AAH-fake-token-for-tests-0123456789';
let t: TestApp;
let admin: Signed;
let peru: Record<string, string>;
let chile: Record<string, string>;
let peruId: string;
let chileId: string;
let fake: FakeTelegramServer;
type Rec = Record<string, unknown>;

const inject = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers = peru, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as Rec } : {}) });
const count = async (table: string, companyId: string) => Number((await t.sql<{ n: string }>(`select count(*) as n from ${table} where company_id = $1`, [companyId]))[0]?.n);

async function group(chatId: string, name: string, headers = peru): Promise<string> {
  const res = await inject('POST', '/api/telegram-groups', headers, { name, chatId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._id as string;
}
async function routine(body: Rec, headers = peru): Promise<string> {
  const res = await inject('POST', '/api/telegram-routines', headers, { name: 'Rutina', message: 'Hola equipo', days: ['dom'], time: '06:15', active: true, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()._id as string;
}

let ventas: string;
let reparto: string;
let expulsado: string;

beforeAll(async () => {
  fake = await startFakeTelegram(TOKEN, [
    { id: -1001, title: 'Ventas Lima', type: 'supergroup' },
    { id: -1002, title: 'Reparto', type: 'group' },
    { id: -1003, title: 'Antiguo', type: 'group' },
    { id: -1004, title: 'Promos', type: 'channel', username: 'promos_demo' },
  ]);
  fake.account.kicked.add(-1003);
  telegramDefaults.apiRoot = fake.url;
  t = await startTestApp();
  admin = await login(t, demo.admin);
  peruId = admin.company('Demo Perú');
  chileId = admin.company('Demo Chile');
  peru = as(admin, peruId);
  chile = as(admin, chileId);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('the bot token', () => {
  it('refuses a malformed token and one Telegram does not know, in Spanish, writing nothing', async () => {
    const bad = await inject('PUT', '/api/telegram/settings', peru, { token: 'hola' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toMatch(/token/);
    const unknown = await inject('PUT', '/api/telegram/settings', peru, { token: '7000000001:AAH-another-token-nobody-has-00' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.msg).toBe('Telegram no reconoce el token del bot: cópialo de nuevo desde @BotFather');
    // Telegram out of reach: said at once, not retried without end
    telegramDefaults.apiRoot = 'http://127.0.0.1:9';
    const offline = await inject('PUT', '/api/telegram/settings', peru, { token: TOKEN });
    telegramDefaults.apiRoot = fake.url;
    expect(offline.statusCode).toBe(400);
    expect(offline.json().errors.msg).toBe('No se pudo conectar con Telegram: revisa la conexión a internet del servidor');
    // the demo's sandbox bot is still the one kept
    const [row] = await t.sql<{ token: string }>('select token from telegram_settings where company_id = $1', [peruId]);
    expect(t.app.secrets.open(row?.token as string)).toBe('sandbox-demo-bot');
    expect((await inject('GET', '/api/telegram/settings', peru)).json()).toMatchObject({ configured: true, sandbox: true, botUsername: 'mostrador_sandbox_bot' });
    const test = await inject('POST', '/api/telegram/settings/test', peru);
    expect(test.json()).toEqual({ ok: true, msg: 'Conexión correcta con Telegram: el bot es @mostrador_sandbox_bot (sandbox: los mensajes no salen a Telegram)' });
    expect((await inject('POST', '/api/telegram/settings/test', chile)).statusCode).toBe(404);
  });

  it('the demo’s sandbox bot posts a seeded routine with no internet, beside its history', async () => {
    const routines = (await inject('GET', '/api/telegram-routines?limit=100', peru)).json().payload as Rec[];
    const active = routines.find((r) => r.active !== false) as Rec;
    const history = (await inject('GET', `/api/telegram-routines/${active._id}/executions`, peru)).json().payload as TelegramExecutionOut[];
    expect(history.length).toBeGreaterThanOrEqual(3);
    const res = await inject('POST', `/api/telegram-routines/${active._id}/execute`, peru);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('Rutina ejecutada con éxito');
    expect(res.json().execution.results.every((r: Rec) => r.status === 'sent' && typeof r.messageId === 'number')).toBe(true);
    expect(fake.account.calls.filter((c) => c.method.startsWith('send'))).toHaveLength(0);
  });

  it('keeps the token sealed and never answers it back; the test says who the bot is', async () => {
    const saved = await inject('PUT', '/api/telegram/settings', peru, { token: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(TOKEN);
    expect(saved.json()).toMatchObject({ configured: true, sandbox: false, botUsername: 'mostrador_demo_bot', tokenHint: '…6789' });
    const [row] = await t.sql<{ token: string }>('select token from telegram_settings where company_id = $1', [peruId]);
    expect(row?.token.startsWith('v1.')).toBe(true);
    expect(row?.token).not.toContain('AAH');
    expect(t.app.secrets.open(row?.token as string)).toBe(TOKEN);
    const read = await inject('GET', '/api/telegram/settings', peru);
    expect(read.body).not.toContain(TOKEN);
    const test = await inject('POST', '/api/telegram/settings/test', peru);
    expect(test.json()).toEqual({ ok: true, msg: 'Conexión correcta con Telegram: el bot es @mostrador_demo_bot' });
    // another company has no bot
    expect((await inject('GET', '/api/telegram/settings', chile)).json()).toEqual({ configured: false });
  });

  it('checks a group by its id or @username with getChat', async () => {
    const byId = await inject('POST', '/api/telegram/groups/check', peru, { chatId: '-1001' });
    expect(byId.json()).toEqual({ chatId: '-1001', title: 'Ventas Lima', type: 'supergroup' });
    const byName = await inject('POST', '/api/telegram/groups/check', peru, { chatId: '@promos_demo' });
    expect(byName.json()).toMatchObject({ chatId: '-1004', title: 'Promos', type: 'channel' });
    const missing = await inject('POST', '/api/telegram/groups/check', peru, { chatId: '-1999' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.msg).toBe('Telegram no encuentra el grupo: revisa el id o el @usuario y que el bot esté en el grupo');
    const noBot = await inject('POST', '/api/telegram/groups/check', chile, { chatId: '-1001' });
    expect(noBot.statusCode).toBe(400);
  });
});

describe('POST /telegram-routines/{id}/execute', () => {
  beforeAll(async () => {
    ventas = await group('-1001', 'Ventas Lima');
    reparto = await group('-1002', 'Reparto');
    expulsado = await group('-1003', 'Antiguo');
  });

  it('asks Telegram again for a saved group and keeps its title and type', async () => {
    const res = await inject('POST', `/api/telegram-groups/${ventas}/check`, peru);
    expect(res.json()).toEqual({ chatId: '-1001', title: 'Ventas Lima', type: 'supergroup' });
    expect((await inject('GET', `/api/telegram-groups/${ventas}`, peru)).json()).toMatchObject({ title: 'Ventas Lima', type: 'supergroup' });
    expect((await inject('POST', `/api/telegram-groups/${ventas}/check`, chile)).statusCode).toBe(404);
  });

  it('posts to each group, one failing does not stop the others, and logs the outcome per group', async () => {
    const id = await routine({ telegramGroupId: ventas, telegramGroupIds: [expulsado, reparto], mediaUrl: 'https://example.com/promo.jpg', mediaKind: 'photo', message: 'Promo del día' });
    const before = fake.account.sent.length;
    const res = await inject('POST', `/api/telegram-routines/${id}/execute`, peru);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as TelegramExecuteOut;
    expect(body.msg).toBe('Rutina ejecutada con éxito');
    expect(body.execution.status).toBe('partial');
    const byName = Object.fromEntries(body.execution.results.map((r) => [r.name, r]));
    expect(byName['Ventas Lima']).toMatchObject({ status: 'sent', chatId: '-1001' });
    expect(byName.Reparto?.status).toBe('sent');
    expect(byName.Antiguo).toMatchObject({ status: 'failed', error: 'El bot fue expulsado del grupo: agrégalo de nuevo al grupo' });
    const sent = fake.account.sent.slice(before);
    expect(sent.map((s) => s.chatId).sort((a, b) => a - b)).toEqual([-1002, -1001]);
    expect(sent.every((s) => s.method === 'sendPhoto' && s.media === 'https://example.com/promo.jpg' && s.text === 'Promo del día')).toBe(true);
    expect(byName['Ventas Lima']?.messageId).toBe(sent.find((s) => s.chatId === -1001)?.messageId);

    const log = await inject('GET', `/api/telegram-routines/${id}/executions`, peru);
    const executions = log.json().payload as TelegramExecutionOut[];
    expect(executions).toHaveLength(1);
    expect(executions[0]).toMatchObject({ trigger: 'manual', status: 'partial' });
    expect(executions[0]?.results).toHaveLength(3);
  });

  it('honours retry_after on a 429 and then sends', async () => {
    const id = await routine({ telegramGroupId: reparto, message: 'Después de esperar' });
    fake.account.throttle = { next: 1, retryAfter: 1 };
    const from = fake.account.calls.length;
    const started = Date.now();
    const res = await inject('POST', `/api/telegram-routines/${id}/execute`, peru);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().execution.status).toBe('sent');
    const calls = fake.account.calls.slice(from).filter((c) => c.method === 'sendMessage');
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('answers a Spanish 502 when no group could be posted to, and still logs it', async () => {
    const id = await routine({ telegramGroupId: expulsado, message: 'Nadie lo verá' });
    const res = await inject('POST', `/api/telegram-routines/${id}/execute`, peru);
    expect(res.statusCode).toBe(502);
    expect(res.json().errors.msg).toBe('No se pudo publicar la rutina en ningún grupo: El bot fue expulsado del grupo: agrégalo de nuevo al grupo');
    const log = (await inject('GET', `/api/telegram-routines/${id}/executions`, peru)).json().payload as TelegramExecutionOut[];
    expect(log[0]?.status).toBe('failed');
  });

  it('refuses bad input in Spanish and writes nothing', async () => {
    const before = await count('telegram_routines', peruId);
    const ftp = await inject('POST', '/api/telegram-routines', peru, { name: 'X', message: 'Hola', days: ['lun'], time: '09:00', telegramGroupId: ventas, mediaUrl: 'ftp://x/y.jpg' });
    expect(ftp.statusCode).toBe(400);
    expect(JSON.stringify(ftp.json())).toContain('Debe ser un enlace que empiece con https://');
    const noDays = await inject('POST', '/api/telegram-routines', peru, { name: 'X', message: 'Hola', days: [], time: '09:00', telegramGroupId: ventas });
    expect(noDays.statusCode).toBe(400);
    const badTime = await inject('POST', '/api/telegram-routines', peru, { name: 'X', message: 'Hola', days: ['lun'], time: '25:00', telegramGroupId: ventas });
    expect(badTime.statusCode).toBe(400);
    expect(JSON.stringify(badTime.json())).toContain('Usa el formato HH:MM');
    // a routine with no group was accepted, then answered 502 at every execution (decision 0040: the group is required)
    const noGroup = await inject('POST', '/api/telegram-routines', peru, { name: 'Sin grupo', message: 'Hola', days: ['lun'], time: '09:00' });
    expect(noGroup.statusCode).toBe(400);
    expect(noGroup.json().errors.details).toContainEqual({ path: 'telegramGroupId', msg: 'Elige el grupo de Telegram en el que se publica la rutina' });
    const kept = await routine({ telegramGroupId: ventas, message: 'Con grupo' });
    const cleared = await inject('PUT', `/api/telegram-routines/${kept}`, peru, { telegramGroupId: null });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json().errors.details).toContainEqual({ path: 'telegramGroupId', msg: 'Elige el grupo de Telegram en el que se publica la rutina' });
    expect((await inject('PUT', `/api/telegram-routines/${kept}`, peru, { active: false })).statusCode).toBe(200);
    const before2 = await count('telegram_routines', peruId);
    const badGroup = await inject('POST', '/api/telegram/groups/check', peru, { chatId: 'grupo' });
    expect(badGroup.statusCode).toBe(400);
    expect(await count('telegram_routines', peruId)).toBe(before2);
    expect(before2).toBe(before + 1);
    const missing = await inject('POST', '/api/telegram-routines/00000000-0000-4000-8000-000000000000/execute', peru);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors.msg).toBe('La rutina de Telegram no existe');
  });

  it('keeps companies apart: another company’s groups in a routine are refused, its routines are not found', async () => {
    const chileGroup = await group('-1002', 'Reparto Santiago', chile);
    const before = await count('telegram_routines', peruId);
    const nested = await inject('POST', '/api/telegram-routines', peru, { name: 'Ajena', message: 'Hola', days: ['lun'], time: '09:00', telegramGroupId: ventas, telegramGroupIds: [chileGroup] });
    expect(nested.statusCode).toBe(400);
    const first = await inject('POST', '/api/telegram-routines', peru, { name: 'Ajena', message: 'Hola', days: ['lun'], time: '09:00', telegramGroupId: chileGroup });
    expect(first.statusCode).toBe(400);
    expect(await count('telegram_routines', peruId)).toBe(before);
    const id = await routine({ telegramGroupId: ventas });
    const update = await inject('PUT', `/api/telegram-routines/${id}`, peru, { telegramGroupIds: [chileGroup] });
    expect(update.statusCode).toBe(400);
    expect((await inject('POST', `/api/telegram-routines/${id}/execute`, chile)).statusCode).toBe(404);
    expect((await inject('GET', `/api/telegram-routines/${id}/executions`, chile)).statusCode).toBe(404);
    expect(await count('telegram_executions', chileId)).toBe(0);
  });
});

describe('the per-minute schedule', () => {
  const executionsOf = async (id: string) => (await inject('GET', `/api/telegram-routines/${id}/executions`, peru)).json().payload as TelegramExecutionOut[];

  it('runs a routine due at this minute in the company’s time zone, once per minute even with several workers', async () => {
    // 2030-01-03 is a Thursday; 09:30 in Lima (UTC−5) is 14:30 UTC
    const id = await routine({ telegramGroupId: ventas, time: '09:30', days: ['jue'], message: 'Buenos días, Lima' });
    const off = await routine({ telegramGroupId: ventas, time: '09:30', days: ['jue'], active: false, message: 'Apagada' });
    const { db } = t.app.database;
    const run = (iso: string) => runDueRoutines(db, t.app.secrets, new Date(iso), { companyId: peruId });
    expect(await run('2030-01-03T14:29:10Z')).toBe(0);
    expect(await run('2030-01-03T09:30:10Z')).toBe(0); // 09:30 UTC is 04:30 in Lima
    expect(await run('2030-01-02T14:30:10Z')).toBe(0); // a Wednesday
    const before = fake.account.sent.length;
    const made = await Promise.all([run('2030-01-03T14:30:05Z'), run('2030-01-03T14:30:30Z'), run('2030-01-03T14:30:59Z')]);
    expect(made.reduce((a, b) => a + b, 0)).toBe(1);
    // a restart a minute later (the catch-up window) does not run it again
    expect(await run('2030-01-03T14:31:02Z')).toBe(0);
    expect(fake.account.sent.slice(before).filter((s) => s.text === 'Buenos días, Lima')).toHaveLength(1);
    const log = await executionsOf(id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ trigger: 'schedule', status: 'sent', scheduledFor: '2030-01-03T14:30:00.000Z' });
    expect(await executionsOf(off)).toHaveLength(0);
    // deleting a routine deletes its log
    expect((await inject('DELETE', `/api/telegram-routines/${off}`, peru)).statusCode).toBe(200);
    // the next Thursday is another minute: it runs
    expect(await run('2030-01-10T14:30:00Z')).toBe(1);
  });

  it('a late job still runs a minute it missed, once', async () => {
    const id = await routine({ telegramGroupId: reparto, time: '10:00', days: ['jue'], message: 'Tarde pero una vez' });
    const { db } = t.app.database;
    expect(await runDueRoutines(db, t.app.secrets, new Date('2030-01-03T15:02:00Z'), { companyId: peruId })).toBe(1);
    expect(await runDueRoutines(db, t.app.secrets, new Date('2030-01-03T15:00:30Z'), { companyId: peruId })).toBe(0);
    expect((await executionsOf(id))[0]?.scheduledFor).toBe('2030-01-03T15:00:00.000Z');
    expect((await inject('DELETE', `/api/telegram-routines/${id}`, peru)).statusCode).toBe(200);
    expect(Number((await t.sql<{ n: string }>('select count(*) as n from telegram_executions where routine_id = $1', [id]))[0]?.n)).toBe(0);
  });

  it('reads each company’s own time zone (Santiago is UTC−3 in January)', async () => {
    const saved = await inject('PUT', '/api/telegram/settings', chile, { token: TOKEN });
    expect(saved.statusCode).toBe(200);
    const chileGroup = (await inject('GET', '/api/telegram-groups', chile)).json().payload.find((g: Rec) => g.chatId === '-1002')._id as string;
    const id = await routine({ telegramGroupId: chileGroup, time: '09:30', days: ['jue'], message: 'Buenos días, Santiago' }, chile);
    const { db } = t.app.database;
    expect(await runDueRoutines(db, t.app.secrets, new Date('2030-01-03T14:30:00Z'), { companyId: chileId })).toBe(0);
    expect(await runDueRoutines(db, t.app.secrets, new Date('2030-01-03T12:30:00Z'), { companyId: chileId })).toBe(1);
    const log = (await inject('GET', `/api/telegram-routines/${id}/executions`, chile)).json().payload as TelegramExecutionOut[];
    expect(log[0]?.scheduledFor).toBe('2030-01-03T12:30:00.000Z');
  });
});
