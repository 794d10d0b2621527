import type { AttributionChatsOut, AttributionOut, AttributionRow, AttributionSettingsOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AttributionSection } from './attribution';

const figures = { spend: null, conversations: 0, answeredIn5: 0, qualified: 0, orders: 0, paidOrders: 0, revenue: 0, costPerConversation: null, costPerSale: null, roas: null, medianMinutesToSale: null, negativeShare: null };
const row = (r: Partial<AttributionRow> & Pick<AttributionRow, 'key' | 'label'>): AttributionRow => ({ ...figures, campaign: null, ...r });
const verano = row({ key: 'c-1', label: 'Verano 2x1', spend: 100, conversations: 2, answeredIn5: 1, qualified: 1, orders: 2, paidOrders: 1, revenue: 250, costPerConversation: 50, costPerSale: 100, roas: 2.5, medianMinutesToSale: 120, negativeShare: 0.5 });
const organic = row({ key: 'organico', label: 'Orgánico', conversations: 1 });
const funnel = (rows: AttributionRow[]): AttributionOut => ({
  from: '2026-11-01',
  to: '2026-11-30',
  timezone: 'America/Lima',
  currency: 'PEN',
  by: 'ad_campaign',
  model: 'last',
  windowDays: 7,
  rows,
  total: { ...figures, spend: 100, conversations: 3, answeredIn5: 1, qualified: 1, orders: 2, paidOrders: 1, revenue: 250, costPerConversation: 33.33, costPerSale: 100, roas: 2.5 },
});
const chats: AttributionChatsOut = {
  payload: [{ chatId: 'chat-9', contactName: 'Fabiola Ríos', platform: 'whatsapp', startedAt: '2026-11-10T15:00:00.000Z', answeredIn5: true, orders: 1, revenue: 250 }],
  total: 1,
  page: 1,
  limit: 20,
};

function serve(rows: AttributionRow[], permissions: object = { metrics: ['list', 'read'], settings: ['list', 'read', 'update'] }) {
  let settings: AttributionSettingsOut = { windowDays: 7, model: 'last', reattributedAt: null, reattributing: false };
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.path === '/metrics/attribution') return { status: 200, body: funnel(rows) };
    if (call.path === '/metrics/attribution/chats') return { status: 200, body: chats };
    if (call.path === '/metrics/attribution/settings' && call.method === 'GET') return { status: 200, body: settings };
    if (call.path === '/metrics/attribution/settings' && call.method === 'PUT') {
      settings = { ...(call.body as { windowDays: number; model: 'last' | 'first' }), reattributedAt: null, reattributing: true };
      return { status: 200, body: settings };
    }
    return undefined;
  });
}

const query = { from: '2026-11-01', to: '2026-11-30' };

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('«Atribución» in /metricas', () => {
  it('shows the funnel by campaign, lists a row’s conversations with links to the chat, and asks the grouping chosen', async () => {
    const onBy = vi.fn();
    const { calls } = serve([verano, organic]);
    renderApp(<AttributionSection query={query} by="ad_campaign" onBy={onBy} />);
    const table = await screen.findByRole('table', { name: 'Embudo de atribución' });
    const line = within(table).getByTestId('attribution-row-c-1');
    expect(line.textContent).toContain('Verano 2x1');
    expect(line.textContent).toContain('2.50×');
    expect(line.textContent).toMatch(/S\/\s?100\.00/);
    expect(within(table).getByTestId('attribution-row-organico').textContent).toContain('Orgánico');
    expect(calls.find((c) => c.path === '/metrics/attribution')?.query.toString()).toBe('from=2026-11-01&to=2026-11-30&by=ad_campaign');

    await userEvent.click(within(line).getByRole('button', { name: 'Verano 2x1' }));
    const panel = await screen.findByTestId('attribution-chats');
    const link = await within(panel).findByRole('link', { name: 'Fabiola Ríos' });
    expect(link.getAttribute('href')).toBe('/chat?chatId=chat-9');
    expect(calls.find((c) => c.path === '/metrics/attribution/chats')?.query.get('key')).toBe('c-1');

    await userEvent.click(screen.getByLabelText('Agrupar por'));
    await userEvent.click(await screen.findByRole('option', { name: 'Agente' }));
    expect(onBy).toHaveBeenCalledWith('agent');
  });

  it('says so when nothing was attributed in the window', async () => {
    serve([row({ key: 'organico', label: 'Orgánico' })]);
    renderApp(<AttributionSection query={query} by="ad_campaign" onBy={() => {}} />);
    expect((await screen.findByTestId('attribution-empty')).textContent).toBe('Aún no hay conversaciones ni órdenes atribuidas en este periodo.');
  });

  it('lets an admin change the window and the model; the orders are attributed again', async () => {
    const { calls } = serve([verano]);
    renderApp(<AttributionSection query={query} by="ad_campaign" onBy={() => {}} />);
    const settings = await screen.findByTestId('attribution-settings');
    const days = await within(settings).findByLabelText('Ventana (días)');
    await waitFor(() => expect((days as HTMLInputElement).disabled).toBe(false));
    await userEvent.clear(days);
    await userEvent.type(days, '14');
    await userEvent.click(within(settings).getByLabelText('Modelo'));
    await userEvent.click(await screen.findByRole('option', { name: 'Primer contacto' }));
    await userEvent.click(within(settings).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ windowDays: 14, model: 'first' }));
    expect(await within(settings).findByText('Atribuyendo de nuevo las órdenes con la nueva configuración…')).toBeTruthy();
  });

  it('reads as cards on a phone (375 px)', async () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('max-width'), media: q, onchange: null, addEventListener: () => {}, removeEventListener: () => {}, addListener: () => {}, removeListener: () => {}, dispatchEvent: () => false }));
    serve([verano, organic], { metrics: ['list', 'read'] });
    renderApp(<AttributionSection query={query} by="ad_campaign" onBy={() => {}} />);
    const card = await screen.findByTestId('attribution-card-c-1');
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(card).getByText('ROAS').nextSibling?.textContent).toBe('2.50×');
    // a role without the settings sees them, not edits them
    const days = await within(await screen.findByTestId('attribution-settings')).findByLabelText('Ventana (días)');
    expect((days as HTMLInputElement).disabled).toBe(true);
  });
});
