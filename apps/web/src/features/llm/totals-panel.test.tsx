import type { LlmSettingsOut, LlmSummaryOut } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import LlmTrackerPage from './llm-tracker-page';
import { LlmSettingsCard, settingsBody, withChange } from './settings-card';
import { LlmTotals } from './totals-panel';

vi.mock('./day-chart', () => ({ default: ({ days }: { days: Array<{ day: string }> }) => <div data-testid="day-chart">{days.length} días</div> }));
vi.setConfig({ testTimeout: 20_000 });

const zero = { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, costLocal: 0 };
const summaryOf = (month: Partial<LlmSummaryOut['month']> = {}, rest: Partial<LlmSummaryOut> = {}): LlmSummaryOut => ({
  timezone: 'America/Lima',
  currency: 'PEN',
  from: '2026-10-28T05:00:00.000Z',
  to: '2026-11-26T15:00:00.000Z',
  totals: { calls: 412, promptTokens: 900_000, completionTokens: 60_000, costUsd: 0.171, costLocal: 0.64125 },
  days: [
    { day: '2026-11-25', ...zero, calls: 12, costUsd: 0.004, costLocal: 0.015 },
    { day: '2026-11-26', ...zero, calls: 20, costUsd: 0.006, costLocal: 0.0225 },
  ],
  months: [{ month: '2026-11', ...zero, calls: 412 }],
  features: [
    { feature: 'analysis', calls: 400, promptTokens: 880_000, completionTokens: 58_000, costUsd: 0.167, costLocal: 0.62625 },
    { feature: 'connection_test', calls: 12, promptTokens: 20_000, completionTokens: 2000, costUsd: 0.004, costLocal: 0.015 },
  ],
  month: { month: '2026-11', calls: 300, promptTokens: 700_000, completionTokens: 45_000, costUsd: 4.6, costLocal: 17.25, spentUsd: 4.6, budgetUsd: 5, percent: 92, paused: false, resumesOn: '2026-12-01', ...month },
  engine: 'openai',
  model: 'gpt-4o-mini',
  ...rest,
});
const money = { currency: 'PEN', locale: 'es-PE' };

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('LlmTotals', () => {
  it('shows the month’s calls, tokens and cost in USD and in the company’s currency, the budget used and the engine', async () => {
    renderApp(<LlmTotals summary={summaryOf()} money={money} />);
    const month = screen.getByLabelText('Totales del mes');
    expect(within(month).getByText('300')).toBeTruthy();
    expect(within(month).getByText(/745[.,\s]?000/)).toBeTruthy();
    expect(within(month).getByText(/(US\$|USD)\s?4[.,]60/)).toBeTruthy();
    expect(within(month).getByText(/S\/\s?17[.,]25/)).toBeTruthy();
    expect(screen.getByText('92 %')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Presupuesto mensual usado' }).getAttribute('aria-valuenow')).toBe('92');
    expect(screen.getByText(/usa gpt-4o-mini/)).toBeTruthy();
    expect(screen.getByText('Este mes (noviembre de 2026)')).toBeTruthy();
    const features = screen.getByLabelText('Costo por función');
    expect(within(features).getByText('Análisis de conversaciones')).toBeTruthy();
    expect(within(features).getByText('Prueba de conexión')).toBeTruthy();
    expect(await screen.findByTestId('day-chart')).toBeTruthy();
  });

  it('says the paid engine is paused until the 1st of next month when the budget is reached', () => {
    renderApp(<LlmTotals summary={summaryOf({ paused: true, percent: 100.4, spentUsd: 5.02 }, { engine: 'embedded' })} money={money} />);
    expect(screen.getByRole('status').textContent).toBe('Se alcanzó el presupuesto mensual de IA: el análisis sigue con el motor integrado hasta el 1 de diciembre.');
    expect(screen.getByRole('progressbar', { name: 'Presupuesto mensual usado' }).getAttribute('aria-valuenow')).toBe('100');
  });

  it('with no paid engine says the embedded one analyses, without cost; no budget bar', () => {
    renderApp(<LlmTotals summary={summaryOf({ budgetUsd: null, percent: null, spentUsd: 0 }, { engine: 'embedded', model: undefined })} money={money} />);
    expect(screen.getByRole('status').textContent).toContain('usa el motor integrado en español: no llama a modelos de pago');
    expect(screen.queryByRole('progressbar', { name: 'Presupuesto mensual usado' })).toBeNull();
    expect(screen.getByText(/Sin presupuesto mensual/)).toBeTruthy();
  });
});

describe('AI engine settings form', () => {
  const saved: LlmSettingsOut = { configured: false, enabled: false, baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKeySet: false, inputPriceUsd: 0.15, outputPriceUsd: 0.6, monthlyBudgetUsd: 10 };
  const form = { enabled: true, baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-abcdefgh1234', inputPriceUsd: '', outputPriceUsd: '', monthlyBudgetUsd: '10' };
  it('fills a known model’s prices and sends the key only when typed', () => {
    expect(settingsBody(form, saved).body).toEqual({ enabled: true, baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-abcdefgh1234', inputPriceUsd: 0.15, outputPriceUsd: 0.6, monthlyBudgetUsd: 10 });
    expect(settingsBody({ ...form, apiKey: '' }, { ...saved, apiKeySet: true }).body).not.toHaveProperty('apiKey');
  });
  it('a known model brings its prices; an unknown one asks for them instead of inheriting the last model’s', () => {
    const base = { ...form, inputPriceUsd: '0.15', outputPriceUsd: '0.6' };
    expect(withChange(base, 'model', 'gpt-4o')).toMatchObject({ inputPriceUsd: '2.5', outputPriceUsd: '10' });
    const unknown = withChange(base, 'model', 'llama-3.1-8b');
    expect(unknown).toMatchObject({ inputPriceUsd: '', outputPriceUsd: '' });
    expect(settingsBody(unknown, saved).errors.inputPriceUsd).toBe('Escribe el precio: no conocemos este modelo');
    expect(withChange({ ...unknown, inputPriceUsd: '0.05', outputPriceUsd: '0.1' }, 'model', 'llama-3.1-70b')).toMatchObject({ inputPriceUsd: '0.05' });
  });

  it('says in Spanish what is missing', () => {
    const { body, errors } = settingsBody({ ...form, model: 'llama-3.1-8b', apiKey: '', monthlyBudgetUsd: '0', baseUrl: 'api' }, saved);
    expect(body).toBeUndefined();
    expect(errors.inputPriceUsd).toBe('Escribe el precio: no conocemos este modelo');
    expect(errors.apiKey).toBe('Escribe la API key para activar el motor');
    expect(errors.monthlyBudgetUsd).toBe('Un presupuesto mayor que 0 (USD al mes)');
    expect(errors.baseUrl).toBeTruthy();
  });
});

describe('/seguimiento-gpt', () => {
  it('shows the totals above the read-only list and sends the filters from the address', async () => {
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { metrics: ['list', 'read', 'create', 'update', 'delete'], integrations: ['list', 'read', 'update'] } } };
      if (call.path === '/llm-tracker/summary') return { status: 200, body: summaryOf() };
      if (call.path === '/llm/settings') return { status: 200, body: { configured: true, enabled: true, baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKeySet: true, apiKeyLast4: 'x9Qz', inputPriceUsd: 0.15, outputPriceUsd: 0.6, monthlyBudgetUsd: 5 } };
      if (call.method === 'GET' && call.path === '/llm-tracker') {
        return {
          status: 200,
          body: pageOf([
            { _id: '00000000-0000-4000-8000-000000000001', name: 'Análisis del chat con Rosa', model: 'gpt-4o-mini', feature: 'analysis', promptTokens: 1200, completionTokens: 80, costUsd: 0.000228, costLocal: 0.000855, currency: 'PEN', latencyMs: 930, outcome: 'fallback', error: 'El servicio respondió 500', createdAt: '2026-11-26T12:00:00Z', updatedAt: '2026-11-26T12:00:00Z' },
          ]),
        };
      }
      return undefined;
    });
    renderApp(<LlmTrackerPage />, { route: '/seguimiento-gpt?resultado=fallback&funcion=analysis&desde=2026-11-01' });
    expect(await screen.findByText('Análisis del chat con Rosa', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByLabelText('Totales del mes')).toBeTruthy();
    expect(screen.getByText(/API key guardada \(…x9Qz\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nuevo registro' })).toBeNull();
    const list = calls.filter((c) => c.method === 'GET' && c.path === '/llm-tracker');
    expect(list.at(-1)?.query.get('outcome')).toBe('fallback');
    expect(list.at(-1)?.query.get('feature')).toBe('analysis');
    expect(list.at(-1)?.query.get('from')).toBeTruthy();
    const summary = calls.filter((c) => c.path === '/llm-tracker/summary');
    expect(summary.at(-1)?.query.get('from')).toBe(list.at(-1)?.query.get('from'));
  });
});

describe('LlmSettingsCard', () => {
  const saved: LlmSettingsOut = {
    configured: true,
    enabled: true,
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    apiKeySet: true,
    apiKeyLast4: 'x9Qa',
    inputPriceUsd: 0.15,
    outputPriceUsd: 0.6,
    monthlyBudgetUsd: 5,
  };
  it('«Probar conexión» says what to fix, and why the test could not be asked', async () => {
    let answer: { status: number; body: unknown } = { status: 200, body: { ok: false, msg: 'El servicio rechazó la API key: revisa que esté vigente' } };
    fakeApi((call: FakeCall) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { integrations: ['list', 'read', 'update'] } } };
      if (call.path === '/llm/settings') return { status: 200, body: saved };
      if (call.method === 'POST' && call.path === '/llm/settings/test') return answer;
      return undefined;
    });
    const user = (await import('@testing-library/user-event')).default.setup();
    renderApp(<LlmSettingsCard />);
    await user.click(await screen.findByRole('button', { name: 'Probar conexión' }, { timeout: 10_000 }));
    expect((await screen.findByTestId('llm-test-result')).textContent).toBe('El servicio rechazó la API key: revisa que esté vigente');
    answer = { status: 403, body: { errors: { code: 'FORBIDDEN', msg: 'No tienes permiso para probar el motor de IA' } } };
    await user.click(screen.getByRole('button', { name: 'Probar conexión' }));
    expect(await screen.findByText('No tienes permiso para probar el motor de IA')).toBeTruthy();
  });
});
