import { CSAT_DEFAULT_QUESTION, type ChatDetail, type CsatReport, type CsatSettingsOut, chatStateReasons, csatMessages } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, type FakeGraph, startFakeGraph, wamid, whatsappEnvelope, whatsappText } from './fakes/meta.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * CSAT the customer gives (issue 31, decision 0100), on signed WhatsApp webhook fixtures and the
 * fake Graph API: off by default (nothing goes out); on, a resolved chat gets one interactive
 * survey (the right buttons or list), once per resolution even when the event is heard again, again
 * after a reopen; outside the 24-hour window none, with the reason kept; the customer's tap stores
 * the score (the chat stays resolved); the report per agent is the caller's company's only.
 */
const TOKEN = 'EAAGm0PX4ZCpsBAJ9csatTokenDePrueba7Q2x';
const LINE = '109000000000100';
const CHILE_LINE = '109000000000101';
const QUESTION = '¿Qué tal te atendimos hoy?';

let t: TestApp;
let fake: FakeGraph;
let admin: Signed;
let peru: string;
let chile: string;
type Rec = Record<string, unknown>;
type Interactive = { type: string; body: { text: string }; action: Rec };

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, company = peru) => t.app.inject({ method, url: `/api${url}`, headers: as(admin, company), payload });
async function ok<T = Rec>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, company = peru): Promise<T> {
  const res = await call(method, url, payload, company);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as T;
}
/** The interactive messages the line sent, oldest first. */
const surveysSent = (line = LINE) =>
  fake.requests
    .filter((r) => r.method === 'POST' && r.path.endsWith(`/${line}/messages`) && (r.body as { type?: string }).type === 'interactive')
    .map((r) => r.body as { to: string; interactive: Interactive });

async function settle() {
  for (const id of await t.app.webhookProcessor.pendingIds()) await t.app.webhookProcessor.process(id);
  for (let i = 0; i < 4; i++) await t.app.spine.drain();
}
async function receive(from: string, text: string, line = LINE): Promise<string> {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: line, from, text }))).statusCode).toBe(200);
  await settle();
  const [row] = await t.sql<{ chat_id: string }>('select chat_id::text from lead_identities where platform_user_id = $1', [from]);
  return row.chat_id;
}
/** The customer taps an option (button_reply or list_reply), as WhatsApp reports it. */
async function tap(from: string, reply: { id: string; title: string }, kind: 'button_reply' | 'list_reply' = 'button_reply', line = LINE) {
  const message = { from, id: wamid(), timestamp: String(Math.floor(Date.now() / 1000)), type: 'interactive', interactive: { type: kind, [kind]: reply } };
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappEnvelope(line, from, 'Cliente', [message]))).statusCode).toBe(200);
  await settle();
}
async function setStatus(chatId: string, status: 'open' | 'closed', company = peru) {
  await ok('POST', `/chats/${chatId}/status`, { status }, company);
  await settle();
}
const surveys = (chatId: string) =>
  t.sql<{ status: string; reason: string | null; score: number | null; style: string; agent_id: string | null }>(
    'select status, reason, score, style, agent_id::text from csat_surveys where chat_id = $1 order by resolved_at, created_at',
    [chatId],
  );
const settingsOn = { enabled: true, style: 'buttons', question: QUESTION } as const;

beforeAll(async () => {
  fake = await startFakeGraph(TOKEN);
  t = await startTestApp({ SEND_PROVIDER: 'graph', GRAPH_API_URL: fake.url });
  admin = await login(t, demo.admin);
  peru = admin.company('Demo Perú');
  chile = admin.company('Demo Chile');
  expect((await call('PUT', '/channels/whatsapp', { phoneNumberId: LINE, accessToken: TOKEN })).statusCode).toBe(200);
  expect((await call('PUT', '/channels/whatsapp', { phoneNumberId: CHILE_LINE, accessToken: TOKEN }, chile)).statusCode).toBe(200);
  // the demo's rules are off here: these tests count the survey's messages alone
  await t.sql('update automation_rules set enabled = false where company_id = any($1::uuid[])', [[peru, chile]]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('GET/PUT /csat/settings', () => {
  it('is off by default, saves the whole settings with Spanish refusals, and leaves another company alone', async () => {
    expect(await ok<CsatSettingsOut>('GET', '/csat/settings')).toEqual({ enabled: false, style: 'buttons', question: CSAT_DEFAULT_QUESTION });
    const empty = await call('PUT', '/csat/settings', { ...settingsOn, question: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.details).toEqual([{ path: 'question', msg: csatMessages.question }]);
    const badStyle = await call('PUT', '/csat/settings', { ...settingsOn, style: 'estrellas' });
    expect(badStyle.statusCode).toBe(400);
    expect(badStyle.body).toContain(csatMessages.style);
    const saved = await ok<CsatSettingsOut>('PUT', '/csat/settings', { ...settingsOn, enabled: false });
    expect(saved).toMatchObject({ enabled: false, style: 'buttons', question: QUESTION, updatedAt: expect.any(String) });
    expect(await ok<CsatSettingsOut>('GET', '/csat/settings')).toEqual(saved);
    expect(await ok<CsatSettingsOut>('GET', '/csat/settings', undefined, chile)).toEqual({ enabled: false, style: 'buttons', question: CSAT_DEFAULT_QUESTION });
    const agent = await login(t, demo.agent);
    const refused = await t.app.inject({ method: 'PUT', url: '/api/csat/settings', headers: as(agent), payload: settingsOn });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
  });
});

describe('the survey on resolve', () => {
  it('is not sent while the setting is off', async () => {
    await ok('PUT', '/csat/settings', { ...settingsOn, enabled: false });
    const before = surveysSent().length;
    const chat = await receive('51979000001', 'Hola, una consulta');
    await setStatus(chat, 'closed');
    expect(surveysSent().length).toBe(before);
    expect(await surveys(chat)).toEqual([]);
  });

  it('goes once per resolution as reply buttons, even when the event is heard again; a reopen and resolve asks again', async () => {
    await ok('PUT', '/csat/settings', settingsOn);
    const before = surveysSent().length;
    const since = new Date(Date.now() - 1000);
    const chat = await receive('51979000002', '¿Tienen la talla M?');
    await setStatus(chat, 'closed');
    const sent = surveysSent().slice(before);
    expect(sent).toHaveLength(1);
    const [survey] = await t.sql<{ id: string }>('select id::text from csat_surveys where chat_id = $1', [chat]);
    expect(sent[0]).toMatchObject({ to: '51979000002' });
    expect(sent[0].interactive).toEqual({
      type: 'button',
      body: { text: QUESTION },
      action: {
        buttons: [
          { type: 'reply', reply: { id: `csat:${survey.id}:1`, title: '😞 Mal' } },
          { type: 'reply', reply: { id: `csat:${survey.id}:3`, title: '😐 Regular' } },
          { type: 'reply', reply: { id: `csat:${survey.id}:5`, title: '😀 Bien' } },
        ],
      },
    });
    // the survey is a message of the thread, sent through the chat's send
    const [message] = await t.sql<{ kind: string; text: string; status: string }>(
      `select kind, text, status from chat_messages where chat_id = $1 and direction = 'out' and kind = 'interactive'`,
      [chat],
    );
    expect(message).toEqual({ kind: 'interactive', text: QUESTION, status: 'sent' });

    // the spine hands the resolution again: still one survey, nothing sent again
    expect(await t.app.spine.replay('csat.ask', since)).toBeGreaterThanOrEqual(1);
    await settle();
    expect(surveysSent().slice(before)).toHaveLength(1);
    expect(await surveys(chat)).toHaveLength(1);

    // reopened and resolved again: a second survey
    await setStatus(chat, 'open');
    await setStatus(chat, 'closed');
    expect(surveysSent().slice(before)).toHaveLength(2);
    expect((await surveys(chat)).map((s) => s.status)).toEqual(['sent', 'sent']);
  });

  it('stores the score of a button reply on the chat, which stays resolved; a second or late tap is just a message', async () => {
    const from = '51979000003';
    const chat = await receive(from, 'Gracias por la ayuda');
    await setStatus(chat, 'closed');
    const [sent] = surveysSent().slice(-1);
    const bien = (sent.interactive.action.buttons as Array<{ reply: { id: string; title: string } }>)[2].reply;
    await tap(from, bien);
    const [row] = await surveys(chat);
    expect(row).toMatchObject({ status: 'answered', score: 5 });
    const [state] = await t.sql<{ status: string }>('select status from chats where id = $1', [chat]);
    expect(state.status).toBe('closed');
    const detail = await ok<ChatDetail>('GET', `/chats/${chat}`);
    expect(detail.csat).toMatchObject({ status: 'answered', score: 5, scoreLabel: '😀 Bien', answeredAt: expect.any(String) });

    // another tap (Mal) does not change the answer; it is a message of the thread
    const mal = (sent.interactive.action.buttons as Array<{ reply: { id: string; title: string } }>)[0].reply;
    await tap(from, mal);
    expect((await surveys(chat))[0]).toMatchObject({ status: 'answered', score: 5 });
    const [taps] = await t.sql<{ n: number }>(`select count(*)::int as n from chat_messages where chat_id = $1 and direction = 'in' and kind = 'interactive'`, [chat]);
    expect(taps.n).toBe(2);

    // a survey sent long ago: the tap is late, just a message
    const other = '51979000004';
    const late = await receive(other, 'Hola');
    await setStatus(late, 'closed');
    const [lateSent] = surveysSent().slice(-1);
    await t.sql(`update csat_surveys set sent_at = now() - interval '4 days' where chat_id = $1`, [late]);
    await tap(other, (lateSent.interactive.action.buttons as Array<{ reply: { id: string; title: string } }>)[1].reply);
    expect((await surveys(late))[0]).toMatchObject({ status: 'sent', score: null });
  });

  it('goes as a 1–5 list when the setting says so, and a list reply stores its score', async () => {
    await ok('PUT', '/csat/settings', { ...settingsOn, style: 'list' });
    const from = '51979000005';
    const chat = await receive(from, 'Consulta de envío');
    await setStatus(chat, 'closed');
    const [sent] = surveysSent().slice(-1);
    const [survey] = await t.sql<{ id: string }>('select id::text from csat_surveys where chat_id = $1', [chat]);
    expect(sent.interactive).toEqual({
      type: 'list',
      body: { text: QUESTION },
      action: {
        button: 'Calificar',
        sections: [
          {
            title: 'Calificar',
            rows: [
              { id: `csat:${survey.id}:1`, title: '1 · Muy mala' },
              { id: `csat:${survey.id}:2`, title: '2 · Mala' },
              { id: `csat:${survey.id}:3`, title: '3 · Regular' },
              { id: `csat:${survey.id}:4`, title: '4 · Buena' },
              { id: `csat:${survey.id}:5`, title: '5 · Excelente' },
            ],
          },
        ],
      },
    });
    await tap(from, { id: `csat:${survey.id}:4`, title: '4 · Buena' }, 'list_reply');
    expect((await surveys(chat))[0]).toMatchObject({ status: 'answered', score: 4, style: 'list' });
    await ok('PUT', '/csat/settings', settingsOn);
  });

  it('is not sent outside the 24-hour window, and the reason is kept', async () => {
    const before = surveysSent().length;
    const chat = await receive('51979000006', 'Hola');
    await t.sql(`update chat_windows set last_inbound_at = now() - interval '25 hours' where chat_id = $1`, [chat]);
    await setStatus(chat, 'closed');
    expect(surveysSent().length).toBe(before);
    const [row] = await surveys(chat);
    expect(row).toMatchObject({ status: 'not_sent', reason: chatStateReasons.windowClosed('whatsapp') });
    const detail = await ok<ChatDetail>('GET', `/chats/${chat}`);
    expect(detail.csat).toMatchObject({ status: 'not_sent', statusLabel: 'Encuesta no enviada', reason: chatStateReasons.windowClosed('whatsapp') });
  });
});

describe('GET /metrics/csat', () => {
  it('reports per agent, of the caller’s company only', async () => {
    // Chile asks too, and its customer answers «Mal»
    await ok('PUT', '/csat/settings', settingsOn, chile);
    const from = '56979000007';
    const chileChat = await receive(from, 'Hola desde Chile', CHILE_LINE);
    await setStatus(chileChat, 'closed', chile);
    const [sent] = surveysSent(CHILE_LINE).slice(-1);
    await tap(from, (sent.interactive.action.buttons as Array<{ reply: { id: string; title: string } }>)[0].reply, 'button_reply', CHILE_LINE);
    expect((await surveys(chileChat))[0]).toMatchObject({ status: 'answered', score: 1 });

    const report = await ok<CsatReport>('GET', '/metrics/csat');
    // Perú: 2 + 1 + 1 + 1 sent (the reopened chat twice, the late one unanswered), 2 answered (5 and 4), 1 not sent (the window)
    expect(report.total).toEqual({ sent: 5, answered: 2, responseRate: 0.4, average: 4.5, satisfiedShare: 1, notSent: 1 });
    expect(report.agents.reduce((n, a) => n + a.sent, 0)).toBe(5);
    const [credited] = await t.sql<{ agent_id: string | null; name: string | null }>(
      `select v.agent_id::text, a.name from csat_surveys v left join agentes a on a.id = v.agent_id where v.company_id = $1 and v.status = 'answered' and v.score = 5`,
      [peru],
    );
    const row = report.agents.find((a) => a.agentId === credited.agent_id);
    expect(row).toMatchObject({ agentName: credited.name ?? 'Sin agente' });
    expect(row?.answered).toBeGreaterThanOrEqual(1);

    const chileReport = await ok<CsatReport>('GET', '/metrics/csat', undefined, chile);
    expect(chileReport.total).toEqual({ sent: 1, answered: 1, responseRate: 1, average: 1, satisfiedShare: 0, notSent: 0 });

    // a window before any survey: nothing
    const old = await ok<CsatReport>('GET', '/metrics/csat?from=2020-01-01&to=2020-01-31');
    expect(old).toMatchObject({ from: '2020-01-01', to: '2020-01-31', agents: [], total: { sent: 0, responseRate: null, average: null } });
    const bad = await call('GET', '/metrics/csat?from=2026-03-10&to=2026-03-01');
    expect(bad.statusCode).toBe(400);
  });
});
