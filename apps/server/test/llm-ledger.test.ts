import { llmMessages, type LlmSettingsOut, type LlmSummaryOut, usdTo } from '@mostrador/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BATCH, createAnalysisJobs } from '../src/modules/analysis/jobs.js';
import { ESTIMATED_COMPLETION_TOKENS, estimatePromptTokens } from '../src/modules/analysis/openai-engine.js';
import { currencyOf } from '../src/db/company-currency.js';
import { outboundSettings } from '../src/integrations/outbound.js';
import { companyAnalyzers, PAID_CONCURRENCY } from '../src/modules/llm/analyzer.js';
import { type FakeOpenAiServer, startFakeOpenAi } from './fakes/openai.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * The OpenAI-compatible engine and the model-call ledger (issue 14, decision 0046), against a
 * local fake of the chat completions API (test/fakes/openai.ts): each call's tokens and cost (USD
 * and the company's currency) in llm_tracker; the fallback to the embedded engine on each kind
 * of failure; the monthly budget that pauses the paid engine while the analysis goes on; the
 * summary; the key sealed and never answered; tenant isolation.
 */
const KEY = 'sk-test-fake-0000-abcd';
const PRICE = { input: 0.15, output: 0.6 };
const costOf = (prompt: number, completion: number) => (prompt * PRICE.input + completion * PRICE.output) / 1_000_000;

let t: TestApp;
let fake: FakeOpenAiServer;
let admin: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let started: string;

interface LedgerRow {
  name: string;
  model: string;
  feature: string;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  cost_local: number;
  currency: string;
  latency_ms: number;
  outcome: string;
  error: string | null;
}

beforeAll(async () => {
  // the fake model runs on this machine: the operator's switch lets a base URL be an internal address
  [t, fake] = await Promise.all([startTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: '1' }), startFakeOpenAi(KEY)]);
  [admin, acme] = await Promise.all([login(t, demo.admin), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
  started = new Date(Date.now() - 1000).toISOString();
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => {
  fake.mode = 'ok';
});

const settings = (payload: Record<string, unknown>, who = admin, companyId = peru) =>
  t.app.inject({ method: 'PUT', url: '/api/llm/settings', headers: as(who, companyId), payload });
const configure = (extra: Record<string, unknown> = {}) =>
  settings({ enabled: true, baseUrl: fake.url, model: 'gpt-4o-mini', apiKey: KEY, monthlyBudgetUsd: 5, ...extra });

let chatCount = 0;
/** A chat of the company with a complaint, dirty for the analysis. */
async function chat(companyId = peru, texts = ['hola, mi pedido no llega hace una semana', 'pésimo servicio, nadie responde 😡']) {
  chatCount++;
  const [row] = await t.sql<{ id: string }>(
    `insert into chats (company_id, contact_name, platform, status, unread_count, last_message_at, created_at, updated_at)
     values ($1, $2, 'whatsapp', 'open', 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), now(), now()) returning id`,
    [companyId, `Cliente LLM ${chatCount}`],
  );
  for (const text of texts) {
    await t.sql(`insert into chat_messages (company_id, chat_id, direction, kind, text, status, sent_at) values ($1, $2, 'in', 'text', $3, 'received', now())`, [companyId, row.id, text]);
  }
  return row.id;
}

const jobs = (timeoutMs = 2000, concurrency = PAID_CONCURRENCY) =>
  createAnalysisJobs({
    db: t.database.db,
    jobs: t.app.jobs,
    analyzer: { name: 'unused', analyze: () => Promise.reject(new Error('unused')) },
    analyzerFor: companyAnalyzers({ db: t.database.db, secrets: t.app.secrets, timeoutMs, concurrency }),
    log: t.app.log,
  });

const analysisOf = async (chatId: string) => (await t.sql<{ engine: string; sentiment: string; company_id: string }>('select engine, sentiment, company_id from chat_analyses where chat_id = $1', [chatId]))[0];
const ledger = (companyId = peru) =>
  t.sql<LedgerRow>(
    `select name, model, feature, prompt_tokens, completion_tokens, cost_usd, cost_local, currency, latency_ms, outcome, error
     from llm_tracker where company_id = $1 and created_at >= $2 order by created_at desc, id`,
    [companyId, started],
  );
const lastRow = async () => (await ledger())[0];
const summary = async (who = admin, companyId = peru) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/llm-tracker/summary?from=${encodeURIComponent(started)}`, headers: as(who, companyId) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LlmSummaryOut;
};
const resetMonth = () => t.sql('delete from llm_budget_months where company_id = $1', [peru]);

describe('settings', () => {
  it('seals the key, answers only whether it is saved and its last 4, keeps it when left out', async () => {
    const saved = await configure();
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(KEY);
    expect(saved.json()).toMatchObject({ configured: true, enabled: true, apiKeySet: true, apiKeyLast4: 'abcd', inputPriceUsd: 0.15, outputPriceUsd: 0.6 });
    const [row] = await t.sql<{ api_key: string }>('select api_key from llm_settings where company_id = $1', [peru]);
    expect(row.api_key.startsWith('v1.')).toBe(true);
    expect(row.api_key).not.toContain(KEY);
    expect(t.app.secrets.open(row.api_key)).toBe(KEY);

    const again = await settings({ enabled: true, baseUrl: fake.url, model: 'gpt-4o-mini', monthlyBudgetUsd: 5 });
    expect(again.statusCode, again.body).toBe(200);
    const read = await t.app.inject({ method: 'GET', url: '/api/llm/settings', headers: as(admin, peru) });
    expect(read.body).not.toContain(KEY);
    expect((read.json() as LlmSettingsOut).apiKeySet).toBe(true);
    const [kept] = await t.sql<{ api_key: string }>('select api_key from llm_settings where company_id = $1', [peru]);
    expect(t.app.secrets.open(kept.api_key)).toBe(KEY);
  });

  it('says in Spanish what is missing: a price for an unknown model, a budget, a valid URL', async () => {
    const unknown = await configure({ model: 'llama-3.1-8b-instruct' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.msg).toContain('No conocemos el precio de «llama-3.1-8b-instruct»');
    const noBudget = await configure({ monthlyBudgetUsd: 0 });
    expect(noBudget.statusCode).toBe(400);
    expect(noBudget.json().errors.msg).toContain('presupuesto mensual mayor que 0');
    const badUrl = await configure({ baseUrl: 'api.openai' });
    expect(badUrl.statusCode).toBe(400);
    expect((await configure()).statusCode).toBe(200);
  });

  it('«Probar conexión» calls the endpoint once and says what to fix', async () => {
    const ok = await t.app.inject({ method: 'POST', url: '/api/llm/settings/test', headers: as(admin, peru) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true });
    expect(ok.json().msg).toContain('Conexión correcta con gpt-4o-mini');
    expect(await lastRow()).toMatchObject({ feature: 'connection_test', outcome: 'ok', prompt_tokens: 1200, completion_tokens: 80 });

    await settings({ enabled: false, baseUrl: fake.url, model: 'gpt-4o-mini', apiKey: 'sk-wrong-key-9999', monthlyBudgetUsd: 5 });
    const wrong = await t.app.inject({ method: 'POST', url: '/api/llm/settings/test', headers: as(admin, peru) });
    expect(wrong.json()).toMatchObject({ ok: false });
    expect(wrong.json().msg).toContain('La API key no es válida');
    expect(await lastRow()).toMatchObject({ feature: 'connection_test', outcome: 'error' });
    expect((await configure()).statusCode).toBe(200);
  });
});

describe('the engine and the ledger', () => {
  it('writes each call’s tokens and cost in USD and in the company’s currency; the model’s answer is the analysis', async () => {
    await resetMonth();
    const chatId = await chat();
    const before = fake.log.length;
    expect(await jobs().analyzeCompany(peru, [chatId])).toEqual({ analyzed: 1, more: false });
    expect(await analysisOf(chatId)).toMatchObject({ engine: 'openai', sentiment: 'negative' });
    const call = fake.log[before];
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(call.body).toMatchObject({ model: 'gpt-4o-mini', response_format: { type: 'json_schema', json_schema: { name: 'chat_analysis', strict: true } } });
    expect(JSON.stringify(call.body?.messages)).toContain('mi pedido no llega');

    const currency = await currencyOf(t.database.db, peru);
    expect(currency).toBe('PEN');
    const row = await lastRow();
    expect(row).toMatchObject({ feature: 'analysis', model: 'gpt-4o-mini', prompt_tokens: 1200, completion_tokens: 80, outcome: 'ok', currency: 'PEN', error: null });
    expect(row.name).toContain('Cliente LLM');
    expect(row.cost_usd).toBeCloseTo(costOf(1200, 80), 12);
    expect(row.cost_local).toBeCloseTo(costOf(1200, 80) * usdTo.PEN, 12);
    expect(row.latency_ms).toBeGreaterThanOrEqual(0);
    const [month] = await t.sql<{ spent_usd: number; reserved_usd: number }>('select spent_usd, reserved_usd from llm_budget_months where company_id = $1', [peru]);
    expect(month.spent_usd).toBeCloseTo(costOf(1200, 80), 12);
    expect(month.reserved_usd).toBeCloseTo(0, 12);
  });

  it.each([
    ['http500', 'El servicio respondió 500', 0],
    ['http429', '429', 0],
    ['timeout', 'Tiempo de espera agotado', 0],
    ['invalid-json', 'no es JSON válido', 1200],
    ['wrong-schema', 'no cumple el esquema', 1200],
  ] as const)('%s: the embedded engine answers and the ledger says why', async (mode, message, promptTokens) => {
    fake.mode = mode;
    fake.hangMs = 1500;
    const chatId = await chat();
    expect(await jobs(300).analyzeCompany(peru, [chatId])).toEqual({ analyzed: 1, more: false });
    expect(await analysisOf(chatId)).toMatchObject({ engine: 'embedded', sentiment: 'negative' });
    const row = await lastRow();
    expect(row).toMatchObject({ feature: 'analysis', outcome: 'fallback', prompt_tokens: promptTokens });
    expect(row.error).toContain(message);
    expect(row.cost_usd).toBeCloseTo(promptTokens ? costOf(1200, 80) : 0, 12);
  });

  it('a base URL on an internal address is refused unless the operator allows it: the embedded engine answers and the ledger says why', async () => {
    const chatId = await chat();
    const requestsBefore = fake.log.length;
    // the operator's setting off for this one call: the fake on 127.0.0.1 is refused where the connection is made
    outboundSettings.allowPrivate = false;
    try {
      expect(await jobs(2000).analyzeCompany(peru, [chatId])).toEqual({ analyzed: 1, more: false });
    } finally {
      outboundSettings.allowPrivate = true;
    }
    expect(fake.log.length).toBe(requestsBefore);
    expect(await analysisOf(chatId)).toMatchObject({ engine: 'embedded' });
    const row = await lastRow();
    expect(row).toMatchObject({ outcome: 'fallback', prompt_tokens: 0 });
    expect(row.error).toContain('dirección interna (127.0.0.1)');
  });

  it('a reached monthly budget pauses the paid engine; the analysis goes on with the embedded one; a new budget lifts it', async () => {
    await resetMonth();
    // each call costs 0.000228 USD; its estimate before the call is smaller: two fit in 0.0005, the third does not
    expect((await configure({ monthlyBudgetUsd: 0.0005 })).statusCode).toBe(200);
    const ids = [await chat(), await chat(), await chat(), await chat()];
    const calls = fake.log.length;
    for (const id of ids) await jobs().analyzeCompany(peru, [id]);
    expect(fake.log.length - calls).toBe(2);
    const engines = await Promise.all(ids.map(async (id) => (await analysisOf(id)).engine));
    expect(engines).toEqual(['openai', 'openai', 'embedded', 'embedded']);
    const rows = (await ledger()).slice(0, 4).reverse();
    expect(rows.map((r) => r.outcome)).toEqual(['ok', 'ok', 'budget', 'budget']);
    expect(rows[3]).toMatchObject({ prompt_tokens: 0, cost_usd: 0, error: llmMessages.budgetSkipped });

    const s = await summary();
    expect(s.month).toMatchObject({ paused: true, budgetUsd: 0.0005 });
    expect(s.month.spentUsd).toBeCloseTo(2 * costOf(1200, 80), 12);
    expect(s.month.percent).toBeCloseTo(91.2, 1);
    expect(s.engine).toBe('embedded');
    expect(llmMessages.budgetReached(s.month.resumesOn)).toMatch(/^Se alcanzó el presupuesto mensual de IA: el análisis sigue con el motor integrado hasta el 1 de [a-z]+$/);

    expect((await configure({ monthlyBudgetUsd: 5 })).statusCode).toBe(200);
    expect((await summary()).month.paused).toBe(false);
    const next = await chat();
    await jobs().analyzeCompany(peru, [next]);
    expect((await analysisOf(next)).engine).toBe('openai');
  });

  it('a batch calls the paid model a few chats at a time (PAID_CONCURRENCY), never more, and analyses every chat', async () => {
    await resetMonth();
    // the timeout tests' answers still on their way are not this batch's
    for (let i = 0; i < 100 && fake.inFlight > 0; i++) await new Promise((r) => setTimeout(r, 50));
    fake.delayMs = 80;
    fake.maxInFlight = 0;
    try {
      const ids = await Promise.all(Array.from({ length: 10 }, () => chat()));
      expect(await jobs().analyzeCompany(peru, ids)).toEqual({ analyzed: 10, more: false });
      expect(fake.maxInFlight).toBe(PAID_CONCURRENCY);
      const engines = await Promise.all(ids.map(async (id) => (await analysisOf(id)).engine));
      expect(engines).toEqual(Array(10).fill('openai'));
      expect((await ledger()).slice(0, 10).map((r) => r.outcome)).toEqual(Array(10).fill('ok'));
    } finally {
      fake.delayMs = 0;
    }
  });

  it('two workers at once, a call each in flight, do not pass the budget by more than one call', async () => {
    await resetMonth();
    const budget = 0.0015;
    expect((await configure({ monthlyBudgetUsd: budget })).statusCode).toBe(200);
    const a = await Promise.all(Array.from({ length: 6 }, () => chat()));
    const b = await Promise.all(Array.from({ length: 6 }, () => chat()));
    await Promise.all([jobs(2000, 1).analyzeCompany(peru, a), jobs(2000, 1).analyzeCompany(peru, b)]);
    const [month] = await t.sql<{ spent_usd: number; reserved_usd: number }>('select spent_usd, reserved_usd from llm_budget_months where company_id = $1', [peru]);
    expect(month.spent_usd).toBeLessThanOrEqual(budget + costOf(1200, 80));
    expect(month.spent_usd).toBeGreaterThan(budget - 2 * costOf(1200, 80));
    expect(month.reserved_usd).toBeCloseTo(0, 12);
    const rows = (await ledger()).slice(0, 12);
    expect(rows.filter((r) => r.outcome === 'ok').length * costOf(1200, 80)).toBeCloseTo(month.spent_usd, 12);
    expect(rows.filter((r) => r.outcome === 'budget').length).toBeGreaterThan(0);
    expect((await configure()).statusCode).toBe(200);
  });
  it('four calls in flight pass the budget by at most what their reservations fell short of the real cost', async () => {
    await resetMonth();
    const budget = 0.0015;
    expect((await configure({ monthlyBudgetUsd: budget })).statusCode).toBe(200);
    const ids = await Promise.all(Array.from({ length: 12 }, () => chat()));
    await jobs().analyzeCompany(peru, ids);
    // each call reserves its estimate (the prompt's length / 4 + 200, 120 tokens of answer); the fake bills 1200 + 80
    const texts = ['hola, mi pedido no llega hace una semana', 'pésimo servicio, nadie responde 😡'];
    const estimate = costOf(estimatePromptTokens({ messages: texts.map((text) => ({ direction: 'in' as const, text })) }), ESTIMATED_COMPLETION_TOKENS);
    const shortfall = Math.max(0, costOf(1200, 80) - estimate);
    const [month] = await t.sql<{ spent_usd: number; reserved_usd: number }>('select spent_usd, reserved_usd from llm_budget_months where company_id = $1', [peru]);
    expect(month.spent_usd).toBeLessThanOrEqual(budget + PAID_CONCURRENCY * shortfall + 1e-12);
    // and it is paused: twelve calls would have cost more than the budget allows
    expect(12 * costOf(1200, 80)).toBeGreaterThan(budget + PAID_CONCURRENCY * shortfall);
    expect((await ledger()).slice(0, 12).filter((r) => r.outcome === 'budget').length).toBeGreaterThan(0);
    expect(month.reserved_usd).toBeCloseTo(0, 12);
    expect((await configure()).statusCode).toBe(200);
  });
});

describe('summary and isolation', () => {
  it('totals per day, month and feature agree with the rows, in USD and the company’s currency', async () => {
    const rows = await ledger();
    const s = await summary();
    expect(s.currency).toBe('PEN');
    expect(s.totals.calls).toBe(rows.length);
    const usd = rows.reduce((n, r) => n + r.cost_usd, 0);
    expect(s.totals.costUsd).toBeCloseTo(usd, 10);
    expect(s.totals.costLocal).toBeCloseTo(usd * usdTo.PEN, 10);
    expect(s.totals.promptTokens).toBe(rows.reduce((n, r) => n + r.prompt_tokens, 0));
    expect(s.days.reduce((n, d) => n + d.calls, 0)).toBe(rows.length);
    expect(s.months.reduce((n, m) => n + m.calls, 0)).toBe(rows.length);
    const byFeature = Object.fromEntries(s.features.map((f) => [f.feature, f.calls]));
    expect(byFeature).toEqual({ analysis: rows.filter((r) => r.feature === 'analysis').length, connection_test: rows.filter((r) => r.feature === 'connection_test').length });
    const bad = await t.app.inject({ method: 'GET', url: '/api/llm-tracker/summary?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', headers: as(admin, peru) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.msg).toContain('La fecha inicial debe ser anterior a la final');
  });

  it('another company sees none of it: its ledger, its summary and its settings are its own; its chats stay embedded', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/llm-tracker?feature=analysis&limit=100', headers: as(acme, acmeCo) });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).not.toContain('Cliente LLM');
    const s = await summary(acme, acmeCo);
    expect(s.totals.calls).toBe(0);
    expect(s.month.budgetUsd).toBeNull();
    const read = await t.app.inject({ method: 'GET', url: '/api/llm/settings', headers: as(acme, acmeCo) });
    expect(read.json()).toMatchObject({ configured: false, apiKeySet: false });
    const own = await chat(acmeCo);
    const calls = fake.log.length;
    await jobs().analyzeCompany(acmeCo, [own]);
    expect(fake.log.length).toBe(calls);
    expect(await analysisOf(own)).toMatchObject({ engine: 'embedded', company_id: acmeCo });
    expect(await ledger(acmeCo)).toEqual([]);
    // Demo Perú's own list has its rows, filtered by outcome
    const mine = await t.app.inject({ method: 'GET', url: '/api/llm-tracker?outcome=budget&limit=100', headers: as(admin, peru) });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().payload.length).toBeGreaterThan(0);
    expect(mine.json().payload.every((r: { outcome: string }) => r.outcome === 'budget')).toBe(true);
  });
});

describe('a slow paid model', () => {
  it('a batch that runs past its time hands over to a new job instead of outliving the job', async () => {
    fake.mode = 'timeout';
    fake.hangMs = 120;
    const slow = createAnalysisJobs({
      db: t.database.db,
      jobs: t.app.jobs,
      analyzer: { name: 'unused', analyze: () => Promise.reject(new Error('unused')) },
      analyzerFor: companyAnalyzers({ db: t.database.db, secrets: t.app.secrets, timeoutMs: 5000 }),
      log: t.app.log,
      batchMs: 300,
    });
    // every chat of the demo unanalysed again (the tests above analysed some): far more than fit in 300 ms
    await t.sql('delete from chat_analyses where company_id = $1', [peru]);
    const result = await slow.analyzeCompany(peru);
    expect(result.more).toBe(true);
    expect(result.analyzed).toBeGreaterThan(0);
    // cut long before its BATCH (100) chats: four calls of 120 ms at a time fit about ten in 300 ms
    expect(result.analyzed).toBeLessThan(BATCH / 2);
  });
});
