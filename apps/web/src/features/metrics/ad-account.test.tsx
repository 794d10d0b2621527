import { metaAdsMessages, type MetaAdAccountOut } from '@mostrador/contract';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMoney } from '../../lib/money';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AdAccountPanel, AdCampaigns } from './ad-account';

const admin = { integrations: ['list', 'read', 'create', 'update', 'delete'] };

/** The account behind the API: none until a PUT Meta accepts (act_2233445566 with the right token). */
function serve(permissions: object = admin) {
  let account: MetaAdAccountOut = { configured: false };
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/meta-ads/account') return { status: 200, body: account };
    if (call.method === 'PUT' && call.path === '/meta-ads/account') {
      const body = call.body as { adAccountId: string; accessToken: string };
      if (body.accessToken !== 'EAAGbuenToken0000000000') {
        return { status: 400, body: { errors: { code: 'VALIDATION', msg: metaAdsMessages.tokenInvalid, details: [{ path: 'accessToken', msg: metaAdsMessages.tokenInvalid }] } } };
      }
      account = { configured: true, adAccountId: 'act_2233445566', name: 'Bodega Lucho Ads', currency: 'PEN', tokenHint: '…0000', sandbox: false, days: 0, campaigns: 0 };
      return { status: 200, body: account };
    }
    if (call.method === 'POST' && call.path === '/meta-ads/sync') return { status: 202, body: { msg: metaAdsMessages.syncQueued } };
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('the Meta ad account in «Ventas»', () => {
  it('connects an account: a refused token is said and nothing is lost; an accepted one shows the account and «Sincronizar ahora»', async () => {
    const { calls } = serve();
    renderApp(<AdAccountPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Conectar cuenta publicitaria' }));
    await userEvent.type(screen.getByLabelText('Cuenta publicitaria'), 'act_2233445566');
    await userEvent.type(screen.getByLabelText('Token de acceso'), 'EAAGtokenVencido00000000');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar y sincronizar' }));
    expect(await screen.findByText(metaAdsMessages.tokenInvalid)).toBeTruthy();
    expect((screen.getByLabelText('Cuenta publicitaria') as HTMLInputElement).value).toBe('act_2233445566');

    await userEvent.clear(screen.getByLabelText('Token de acceso'));
    await userEvent.type(screen.getByLabelText('Token de acceso'), 'EAAGbuenToken0000000000');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar y sincronizar' }));
    expect(await screen.findByText(/Bodega Lucho Ads \(act_2233445566\) · token …0000/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ adAccountId: 'act_2233445566', accessToken: 'EAAGbuenToken0000000000' });

    await userEvent.click(screen.getByRole('button', { name: 'Sincronizar ahora' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/meta-ads/sync')).toBe(true));
  });

  it('is not shown to a role without the integrations’ permission', async () => {
    const { calls } = serve({ metrics: ['list', 'read'] });
    renderApp(<AdAccountPanel />);
    await waitFor(() => expect(calls.some((c) => c.path === '/permissions')).toBe(true));
    expect(screen.queryByRole('button', { name: 'Conectar cuenta publicitaria' })).toBeNull();
    expect(calls.some((c) => c.path === '/meta-ads/account')).toBe(false);
  });
});

describe('the campaigns of the window', () => {
  it('say what each cost and what it brought: leads, chats, sales and the cost of each', () => {
    const campaign = { campaignId: '1201', campaignName: 'Clic a WhatsApp · 2x1', currency: 'USD', spend: 120, impressions: 48000, clicks: 960 };
    render(
      <AdCampaigns
        locale="es-PE"
        data={{
          from: '2026-11-01',
          to: '2026-11-26',
          timezone: 'America/Lima',
          spend: [{ currency: 'USD', amount: 130 }],
          impressions: 50000,
          clicks: 1000,
          months: [],
          campaigns: [
            { ...campaign, leads: 8, chats: 8, orders: 3, costPerLead: 15, costPerChat: 15, costPerOrder: 40 },
            { ...campaign, campaignId: '1202', campaignName: 'Reconocimiento', spend: 10, leads: 0, chats: 0, orders: 0, costPerLead: null, costPerChat: null, costPerOrder: null },
          ],
        }}
      />,
    );
    const usd = (n: number) => formatMoney(n, { currency: 'USD', locale: 'es-PE' });
    expect(screen.getByTestId('ad-campaign-1201-brought').textContent).toBe(`8 leads · 8 chats · 3 órdenes · ${usd(15)} por lead · ${usd(15)} por chat · ${usd(40)} por venta`);
    expect(screen.getByTestId('ad-campaign-1202-brought').textContent).toBe('0 leads · 0 chats · 0 órdenes');
  });
});
