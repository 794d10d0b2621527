import type { TeamMetricsOut, TeamSlaSettingsOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { MetricsPage } from './metrics-page';
import { formatDuration } from './team-section';

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
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const row = (over: Partial<TeamMetricsOut['rows'][number]>): TeamMetricsOut['rows'][number] => ({
  key: 'u-rosa',
  name: 'Rosa Huamán',
  conversations: 40,
  chats: 38,
  answered: 39,
  firstResponseMedian: 150,
  firstResponseP90: 4_500,
  firstResponseWithinTarget: 0.825,
  nextResponses: 80,
  nextResponseAverage: 300,
  resolved: 30,
  resolutionMedian: 5_400,
  resolutionP90: 97_200,
  resolutionWithinTarget: 0.9,
  reopenings: 3,
  salesClosed: 7,
  revenue: [{ currency: 'PEN', amount: 1_250.5 }],
  ...over,
});
const reportOf = (groupBy: TeamMetricsOut['groupBy'], rows: TeamMetricsOut['rows']): TeamMetricsOut => ({
  from: '2026-11-01',
  to: '2026-11-30',
  timezone: 'America/Lima',
  groupBy,
  measure: 'business',
  firstResponseMinutes: 5,
  resolutionHours: 24,
  rows,
});
const defaults: TeamSlaSettingsOut = { firstResponseMinutes: 5, resolutionHours: 24, measure: 'business', saved: false, updatedAt: null };

function serve({ rows = [row({}), row({ key: null, name: 'Sin responder', answered: 0, firstResponseMedian: null, firstResponseP90: null, firstResponseWithinTarget: null, revenue: [] })], mayEdit = true } = {}) {
  let settings = defaults;
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: mayEdit ? 'admin' : 'agent', permissions: { metrics: ['read'], ...(mayEdit ? { settings: ['read', 'update'] } : {}) } } };
    if (call.path === '/metrics/team/settings' && call.method === 'PUT') {
      const body = call.body as TeamSlaSettingsOut;
      if (body.firstResponseMinutes < 1) return { status: 400, body: { errors: { code: 'VALIDATION', msg: 'Primera respuesta objetivo (minutos): Debe ser al menos 1 minuto' } } };
      settings = { ...body, saved: true, updatedAt: '2026-11-20T15:00:00.000Z' };
      return { status: 200, body: settings };
    }
    if (call.path === '/metrics/team/settings') return { status: 200, body: settings };
    if (call.path === '/metrics/team') {
      const groupBy = (call.query.get('groupBy') ?? 'agent') as TeamMetricsOut['groupBy'];
      const byChannel = [row({ key: 'whatsapp', name: 'WhatsApp' })];
      return { status: 200, body: reportOf(groupBy, groupBy === 'channel' ? byChannel : rows) };
    }
    return undefined;
  });
}
const cell = (key: string, figure: string) => screen.findByTestId(`team-${key}-${figure}`).then((el) => el.textContent?.replace(/\u00a0/g, ' '));

describe('/metricas › Equipo', () => {
  it('says durations as people do', () => {
    expect([formatDuration(null), formatDuration(45), formatDuration(150), formatDuration(4_500), formatDuration(7_200), formatDuration(97_200)]).toEqual([
      '—',
      '45 s',
      '3 min',
      '1 h 15 min',
      '2 h',
      '1 d 3 h',
    ]);
  });

  it('shows each agent with medians, p90, the share within target, sales and revenue, and groups by channel', async () => {
    const { calls } = serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=equipo' });
    expect(await screen.findByRole('tab', { name: 'Equipo', selected: true })).toBeTruthy();
    expect(await cell('u-rosa', 'first-median')).toBe('3 min');
    expect(await cell('u-rosa', 'first-p90')).toBe('1 h 15 min');
    expect(await cell('u-rosa', 'first-sla')).toBe('82.5%');
    expect(await cell('u-rosa', 'resolution-median')).toBe('1 h 30 min');
    expect(await cell('u-rosa', 'sales')).toBe('7');
    expect(await cell('u-rosa', 'revenue')).toBe('S/ 1,250.50');
    expect(await cell('none', 'first-median')).toBe('—');
    expect(screen.getByTestId('team-row-none').textContent).toContain('Sin responder');
    expect(screen.getByTestId('team-targets').textContent).toContain('Primera respuesta en 5 min · resolución en 24 h · en horario de atención');
    const asked = calls.find((c) => c.path === '/metrics/team');
    expect(asked?.query.get('groupBy')).toBe('agent');
    expect(asked?.query.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    await userEvent.click(screen.getByRole('button', { name: 'Canal' }));
    expect(await cell('whatsapp', 'chats')).toBe('38');
    expect(calls.filter((c) => c.path === '/metrics/team').at(-1)?.query.get('groupBy')).toBe('channel');
  });

  it('says so when the window had no conversations', async () => {
    serve({ rows: [] });
    renderApp(<MetricsPage />, { route: '/metricas?vista=equipo' });
    expect((await screen.findByTestId('team-empty')).textContent).toContain('No hubo conversaciones en estas fechas');
  });

  it('an admin edits the targets; a refusal is shown in Spanish and the saved ones are read back', async () => {
    const { calls } = serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=equipo' });
    await userEvent.click(await screen.findByRole('button', { name: 'Editar objetivos' }));
    const form = screen.getByRole('form', { name: 'Objetivos de atención' });
    const minutes = within(form).getByLabelText('Primera respuesta (minutos)');
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '0');
    await userEvent.click(within(form).getByRole('button', { name: 'Guardar' }));
    expect(await within(form).findByText('Primera respuesta objetivo (minutos): Debe ser al menos 1 minuto')).toBeTruthy();

    await userEvent.clear(minutes);
    await userEvent.type(minutes, '10');
    await userEvent.click(within(form).getByRole('combobox', { name: 'Cómo se mide el tiempo' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Tiempo corrido (reloj)' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.getByTestId('team-targets').textContent).toContain('Primera respuesta en 10 min · resolución en 24 h · tiempo corrido (reloj)'));
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ firstResponseMinutes: 10, resolutionHours: 24, measure: 'wall' });
  });

  it('someone who may not change the settings reads the targets without «Editar objetivos»', async () => {
    serve({ mayEdit: false });
    renderApp(<MetricsPage />, { route: '/metricas?vista=equipo' });
    expect(await cell('u-rosa', 'chats')).toBe('38');
    await waitFor(() => expect(screen.getByTestId('team-targets').textContent).toContain('Primera respuesta en 5 min'));
    expect(screen.queryByRole('button', { name: 'Editar objetivos' })).toBeNull();
  });

  it('at 375 px each row is a card with its figures and the grouping is a select', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    serve();
    renderApp(<MetricsPage />, { route: '/metricas?vista=equipo' });
    const card = await screen.findByTestId('team-row-u-rosa');
    expect(card.tagName).toBe('LI');
    expect(within(card).getByText('Primera respuesta (mediana)')).toBeTruthy();
    expect(within(card).getByTestId('team-u-rosa-first-median').textContent).toBe('3 min');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Agrupar por' })).toBeTruthy();
  });
});
