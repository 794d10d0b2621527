import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { LeadSummaryPage } from './lead-summary-page';

const summary = {
  from: '2025-01-01T05:00:00Z',
  to: '2025-04-01T05:00:00Z',
  total: 95,
  byStatus: [
    { status: 'sin-asignar', count: 40 },
    { status: 're-conectar', count: 15 },
    { status: 'informado-al-agente', count: 20 },
    { status: 'compra-realizada', count: 12 },
    { status: 'compra-fallida', count: 8 },
  ],
  byPlatform: [
    { platform: 'whatsapp', count: 60 },
    { platform: 'facebook', count: 20 },
    { platform: 'instagram', count: 10 },
    { platform: 'web', count: 5 },
  ],
  byMonth: [
    { month: '2025-01', platform: 'whatsapp', count: 30 },
    { month: '2025-02', platform: 'whatsapp', count: 30 },
    { month: '2025-03', platform: 'facebook', count: 20 },
  ],
};

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/resumen-leads', () => {
  it('shows the counts per stage, linking to each bucket, and per channel, for the range in the address', async () => {
    const { calls } = fakeApi((call) => (call.path === '/leads/summary' ? { status: 200, body: summary } : undefined));
    renderApp(<LeadSummaryPage />, { route: '/resumen-leads?desde=2025-01-01&hasta=2025-03-31' });
    expect(await screen.findByTestId('summary-total')).toHaveProperty('textContent', '95');
    const unassigned = screen.getByTestId('summary-status-sin-asignar');
    expect(unassigned.textContent).toBe('Sin asignar40');
    expect(unassigned.getAttribute('href')).toBe('/lead/sin-asignar');
    expect(screen.getByTestId('summary-status-compra-fallida').getAttribute('href')).toBe('/lead/compra-fallida');
    const channels = screen.getByRole('list', { name: 'Leads por canal' });
    expect(within(channels).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['WhatsApp60', 'Facebook20', 'Instagram10', 'Web5']);
    const query = calls.find((c) => c.path === '/leads/summary')?.query;
    expect(query?.get('from')).toBe(new Date(2025, 0, 1).toISOString());
    expect(query?.get('to')).toBe(new Date(2025, 3, 1).toISOString());
  });

  it('asks for the last 6 months by default', async () => {
    const { calls } = fakeApi((call) => (call.path === '/leads/summary' ? { status: 200, body: summary } : undefined));
    renderApp(<LeadSummaryPage />, { route: '/resumen-leads' });
    await screen.findByTestId('summary-total');
    const now = new Date();
    expect(calls[0]?.query.get('from')).toBe(new Date(now.getFullYear(), now.getMonth() - 5, 1).toISOString());
  });

  it('says when the period has no leads', async () => {
    fakeApi(() => ({ status: 200, body: { ...summary, total: 0, byStatus: [], byPlatform: [], byMonth: [] } }));
    renderApp(<LeadSummaryPage />, { route: '/resumen-leads' });
    expect(await screen.findByTestId('summary-empty')).toHaveProperty('textContent', 'No hay leads en este período');
    expect(screen.getByTestId('summary-status-sin-asignar').textContent).toBe('Sin asignar0');
  });

  it('shows the metric error message when the summary fails, and retries', async () => {
    const user = userEvent.setup();
    let fail = true;
    fakeApi(() => (fail ? { status: 500, body: { errors: { code: 'INTERNAL', msg: 'Error interno' } } } : { status: 200, body: summary }));
    renderApp(<LeadSummaryPage />, { route: '/resumen-leads' });
    expect(await screen.findByTestId('metric-error')).toHaveProperty('textContent', expect.stringContaining('Error al cargar los datos. Por favor, intente nuevamente.'));
    // SPEC §8: the screen says it; no snackbar on top.
    expect(screen.queryByText('Error interno')).toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(screen.queryByTestId('metric-error')).toBeNull());
    expect(await screen.findByTestId('summary-total')).toHaveProperty('textContent', '95');
  });
});

describe('/resumen-leads range', () => {
  it('does not ask for more than the widest window', async () => {
    const { calls } = fakeApi(() => ({ status: 200, body: summary }));
    renderApp(<LeadSummaryPage />, { route: '/resumen-leads?desde=2020-01-01&hasta=2025-03-31' });
    expect(await screen.findByText('El período puede abarcar hasta 36 meses')).toBeTruthy();
    expect(calls.some((c) => c.path === '/leads/summary')).toBe(false);
  });
});
