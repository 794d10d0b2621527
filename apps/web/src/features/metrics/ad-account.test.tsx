import { metaAdsMessages, type MetaAdAccountOut } from '@mostrador/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AdAccountPanel } from './ad-account';

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
