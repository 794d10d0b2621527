import { METRICS_LOAD_ERROR, type MetricName } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render';
import { answers } from './fixtures';
import { MetricsPage } from './metrics-page';

const company = { _id: 'company-1', name: 'Demo Perú', country: 'PE' as const, timezone: 'America/Lima' };

beforeEach(() =>
  sessionStore.set((s) => ({
    ...s,
    token: 'token',
    companyId: 'company-1',
    user: { _id: 'u1', first_name: 'Ana', last_name: 'Díaz', corporation: { companies: [{ company, default: true, role: 'admin' as const }] } } as never,
  })),
);
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const nameOf = (call: FakeCall) => call.path.replace('/metrics/', '') as MetricName;
/** GET /metrics/csat (decision 0100): the customers' scores per agent, shown in «Equipo». */
const csatReport = {
  from: '2026-01-01',
  to: '2026-01-31',
  timezone: 'America/Lima',
  agents: [{ agentId: 'a1', agentName: 'Lucía Ramos', sent: 4, answered: 2, responseRate: 0.5, average: 4, satisfiedShare: 0.5, notSent: 0 }],
  total: { sent: 4, answered: 2, responseRate: 0.5, average: 4, satisfiedShare: 0.5, notSent: 0 },
};
/** «Equipo»'s own calls (decision 0094): no conversations in the window yet, the default targets. */
const teamAnswers: Record<string, unknown> = {
  '/metrics/team': { from: '2026-01-01', to: '2026-01-31', timezone: 'America/Lima', groupBy: 'agent', measure: 'business', firstResponseMinutes: 5, resolutionHours: 24, rows: [] },
  '/metrics/team/settings': { firstResponseMinutes: 5, resolutionHours: 24, measure: 'business', saved: false, updatedAt: null },
};
const serve = (over: Partial<Record<string, unknown>> = {}) =>
  fakeApi((call) =>
    call.path === '/metrics/csat'
      ? { status: 200, body: csatReport }
      : call.path in teamAnswers
        ? { status: 200, body: teamAnswers[call.path] }
        : call.path.startsWith('/metrics/')
          ? { status: 200, body: over[nameOf(call)] ?? answers[nameOf(call)] }
          : undefined,
  );
const value = (testId: string) => screen.findByTestId(`${testId}-value`).then((el) => el.textContent?.replace(/\u00a0/g, ' '));

describe('/metricas', () => {
  it('opens on the CEO view with the headline numbers and the month’s change', async () => {
    const { calls } = serve();
    renderApp(<MetricsPage />, { route: '/metricas' });
    expect(await value('ceo-messages')).toBe('1,234');
    expect(await value('ceo-chats')).toBe('87');
    expect(await value('ceo-leads')).toBe('64');
    expect(await value('ceo-sales')).toBe('S/ 4,580.50');
    expect(await value('ceo-orders')).toBe('12');
    expect(await value('ceo-positive')).toBe('62.5%');
    expect(screen.getByTestId('ceo-messages').textContent).toContain('feb 2026: 734 · ▲ +46.8% vs ene 2026');
    expect(screen.getByTestId('ceo-positive').textContent).toContain('Negativo: 12.5% de 80 chats analizados');
    expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(['POST /metrics/ceo_dashboard', 'POST /metrics/meta_ad_spend']);
    // no ad campaigns in the window: no cost per lead
    expect(screen.queryByTestId('ceo-cost-per-lead')).toBeNull();
  });

  it('the CEO view shows what each customer the Meta ads brought cost: per lead, per chat, per sale', async () => {
    serve({
      meta_ad_spend: {
        ...answers.meta_ad_spend,
        spend: [{ currency: 'USD', amount: 300 }],
        campaigns: [
          { campaignId: 'c1', campaignName: 'Canastas', currency: 'USD', spend: 200, impressions: 9000, clicks: 400, leads: 40, chats: 38, orders: 8, costPerLead: 5, costPerChat: 5.26, costPerOrder: 25 },
          { campaignId: 'c2', campaignName: 'Gaseosas', currency: 'USD', spend: 100, impressions: 5000, clicks: 150, leads: 10, chats: 10, orders: 0, costPerLead: 10, costPerChat: 10, costPerOrder: null },
        ],
      },
    });
    renderApp(<MetricsPage />, { route: '/metricas' });
    expect(await value('ceo-cost-per-lead')).toBe('USD 6.00');
    expect(await value('ceo-cost-per-chat')).toBe('USD 6.25');
    expect(await value('ceo-cost-per-order')).toBe('USD 37.50');
    expect(screen.getByTestId('ceo-ad-spend').textContent).toContain('50 leads · 8 ventas');
    expect(screen.getByTestId('ad-campaign-c1-brought').textContent).toContain('8 órdenes');
  });

  it('«Clean leads por mes»: total, months analysed, monthly average and best month', async () => {
    serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=clean-leads' });
    expect(await value('clean-total')).toBe('41');
    expect(await value('clean-months')).toBe('2');
    expect(await value('clean-average')).toBe('20.5');
    expect(await value('clean-best')).toBe('feb 2026');
    expect(screen.getByTestId('clean-best').textContent).toContain('26 leads limpios');
  });

  it('«Leads por mes»: total and by channel, web included, and the channel filter goes to the call', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=leads' });
    expect(await value('leads-total')).toBe('64');
    expect(await value('leads-whatsapp')).toBe('40');
    expect(await value('leads-web')).toBe('3');
    await user.click(screen.getByRole('combobox', { name: 'Canal' }));
    await user.click(await screen.findByRole('option', { name: 'Web' }));
    await waitFor(() => expect(calls.at(-1)?.body).toMatchObject({ channel: 'web' }));
  });

  it('«General por canal»: total messages, main channel, coverage and the distribution', async () => {
    serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=canal' });
    expect(await value('channel-total')).toBe('1,234');
    expect(await value('channel-main')).toBe('WhatsApp');
    expect(screen.getByTestId('channel-main').textContent).toContain('72.9% de los mensajes');
    expect(await value('channel-coverage')).toBe('92.5%');
    expect(await value('channel-chats')).toBe('87');
    expect(screen.getByTestId('channel-chats').textContent).toContain('WhatsApp: 60 · Facebook: 20 · Instagram: 7');
    const list = screen.getByTestId('channel-distribution');
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['WhatsApp90072.9%', 'Facebook25020.3%', 'Instagram846.8%']);
  });

  it('«Análisis de sentimiento»: counts view, then the monthly view', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=sentimiento' });
    expect(await value('sentiment-analysed')).toBe('80');
    expect(await value('sentiment-positive')).toBe('62.5%');
    expect(await value('sentiment-negative')).toBe('12.5%');
    expect(await value('sentiment-cross-sell')).toBe('25%');
    expect(await value('sentiment-promotions')).toBe('9');
    expect(screen.getByTestId('sentiment-distribution-negative').textContent).toBe('Negativo1012.5%');
    const origins = within(screen.getByTestId('sentiment-origins')).getAllByRole('listitem');
    expect(origins[0]?.textContent).toBe('Demora en responder660%');
    await user.click(screen.getByRole('button', { name: 'Mensual' }));
    const months = await screen.findByTestId('sentiment-months');
    expect(within(months).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'MesAnalizadosPositivosNegativos',
      'ene 20263066.7%10%',
      'feb 20265060%14%',
    ]);
    expect(calls.some((c) => c.path === '/metrics/sentiment_analysis_by_month')).toBe(true);
  });

  it('«Motivos de consulta», «Ventas», «Calidad y categorías IA» and «Compromiso del cliente»', async () => {
    serve();
    const { unmount } = renderApp(<MetricsPage />, { route: '/metricas?vista=motivos' });
    expect(await value('motives-analysed')).toBe('80');
    expect(await value('motives-top')).toBe('Precio o cotización');
    unmount();

    const sales = renderApp(<MetricsPage />, { route: '/metricas?vista=ventas' });
    expect(await value('sales-amount-PEN')).toBe('S/ 4,580.50');
    expect(await value('sales-orders')).toBe('12');
    expect(await value('sales-cross-offered')).toBe('20');
    expect(await screen.findByTestId('ads-empty')).toHaveProperty('textContent', expect.stringContaining('Conecta tu cuenta publicitaria de Meta'));
    expect(screen.getByTestId('sales-status-paid').textContent).toContain('4');
    // «Ventas recuperadas»: the follow-ups, the orders they brought and what those sold, beside the chats with none
    expect(await value('recovered-followups')).toBe('14');
    expect(await value('recovered-orders')).toBe('5');
    expect(await value('recovered-revenue-PEN')).toBe('S/ 689.40');
    expect(screen.getByTestId('recovered-baseline').textContent).toContain('2 compraron');
    sales.unmount();

    const quality = renderApp(<MetricsPage />, { route: '/metricas?vista=calidad' });
    expect(await value('quality-average')).toBe('4.1 / 5');
    expect(await value('quality-top-category')).toBe('Venta');
    quality.unmount();

    // «Equipo»: what the customers said of the team (CSAT) under how fast it answers
    const team = renderApp(<MetricsPage />, { route: '/metricas?vista=equipo' });
    expect(await value('csat-rate')).toBe('50%');
    team.unmount();

    renderApp(<MetricsPage />, { route: '/metricas?vista=compromiso' });
    expect(screen.getByTestId('engagement').textContent).toContain('Próximamente');
  });

  it('says when the window is empty', async () => {
    fakeApi(() => ({ status: 200, body: { ...answers.cleanleads_by_month, total: 0, bestMonth: null, monthlyAverage: 0, months: [{ month: '2026-01', count: 0 }] } }));
    renderApp(<MetricsPage />, { route: '/metricas?vista=clean-leads' });
    expect(await screen.findByTestId('metric-empty')).toHaveProperty('textContent', 'No hay leads limpios en este período');
    expect(await value('clean-best')).toBe('—');
  });

  it('a preset asks for its days in the company’s time zone', async () => {
    // 03:00 UTC of 1 March is still 28 February in Lima (UTC−5)
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T03:00:00Z'));
    const user = userEvent.setup();
    const { calls } = serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=clean-leads' });
    await value('clean-total');
    // the default: this month and the five before it
    expect(calls[0]?.body).toEqual({ from: '2025-09-01', to: '2026-02-28' });
    const body = async (label: string) => {
      await user.click(screen.getByRole('button', { name: label }));
      await waitFor(() => expect(screen.getByRole('button', { name: label }).getAttribute('aria-pressed')).toBe('true'));
      await waitFor(() => expect(calls.at(-1)?.path).toBe('/metrics/cleanleads_by_month'));
      return calls.at(-1)?.body;
    };
    expect(await body('Hoy')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(await body('Ayer')).toEqual({ from: '2026-02-27', to: '2026-02-27' });
    expect(await body('Últimos 7 días')).toEqual({ from: '2026-02-22', to: '2026-02-28' });
    expect(await body('Últimos 30 días')).toEqual({ from: '2026-01-30', to: '2026-02-28' });
    expect(await body('Este mes')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(await body('Mes pasado')).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(await body('Este año')).toEqual({ from: '2026-01-01', to: '2026-02-28' });
    expect(await body('Año 2023')).toEqual({ from: '2023-01-01', to: '2023-12-31' });
    expect(await body('Todo el tiempo')).toEqual({ from: '2016-02-22', to: '2026-02-28' });
    expect(screen.getByTestId('metrics-window').textContent).toContain('Del 22 feb 2016 al 28 feb 2026');
  });

  it('typed dates go to the call and stay in the address', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=clean-leads&desde=2025-01-01&hasta=2025-03-31' });
    await value('clean-total');
    expect(calls[0]?.body).toEqual({ from: '2025-01-01', to: '2025-03-31' });
    expect(screen.getByRole('button', { name: 'Últimos 6 meses' }).getAttribute('aria-pressed')).toBe('false');
    await user.clear(screen.getByLabelText('Hasta'));
    await user.type(screen.getByLabelText('Hasta'), '2024-12-01');
    expect(await screen.findByText('La fecha inicial debe ser anterior o igual a la final')).toBeTruthy();
  });

  it('a failure shows the exact Spanish message, no snackbar, and «Reintentar» loads it', async () => {
    const user = userEvent.setup();
    let fail = true;
    fakeApi((call) => (fail ? { status: 500, body: { errors: { code: 'INTERNAL', msg: 'Error interno' } } } : { status: 200, body: answers[nameOf(call)] }));
    renderApp(<MetricsPage />, { route: '/metricas' });
    expect(await screen.findByTestId('metric-error')).toHaveProperty('textContent', expect.stringContaining(METRICS_LOAD_ERROR));
    expect(screen.getByText(METRICS_LOAD_ERROR).textContent).toBe('Error al cargar los datos. Por favor, intente nuevamente.');
    expect(screen.queryByText('Error interno')).toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await value('ceo-messages')).toBe('1,234');
    expect(screen.queryByTestId('metric-error')).toBeNull();
  });

  it('a cancelled request shows no error', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new DOMException('The operation was aborted.', 'AbortError'));
    renderApp(<MetricsPage />, { route: '/metricas' });
    await waitFor(() => expect(screen.queryByTestId('metric-loading')).toBeNull());
    expect(screen.queryByTestId('metric-error')).toBeNull();
    expect(screen.queryByText(METRICS_LOAD_ERROR)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('changing the filter cancels the request in flight without an error, and shows the new answer', async () => {
    const user = userEvent.setup();
    const signals: AbortSignal[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation((_input, init) => {
      const signal = init?.signal as AbortSignal;
      signals.push(signal);
      const body = JSON.parse(String(init?.body)) as { from: string };
      if (body.from === '2023-01-01') return Promise.resolve(jsonResponse(200, { ...answers.cleanleads_by_month, total: 7 }));
      // the first window never answers: only its cancellation ends it
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError'))));
    });
    renderApp(<MetricsPage />, { route: '/metricas?vista=clean-leads' });
    await screen.findByTestId('metric-loading');
    await user.click(screen.getByRole('button', { name: 'Año 2023' }));
    expect(await value('clean-total')).toBe('7');
    expect(signals[0]?.aborted).toBe(true);
    expect(screen.queryByTestId('metric-error')).toBeNull();
  });
});
