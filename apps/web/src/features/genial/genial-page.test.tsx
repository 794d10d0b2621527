import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { GenialPage } from './genial-page';

vi.setConfig({ testTimeout: 20_000 });

const peru = {
  country: 'PE',
  apiUrl: 'https://genial-pe.sandbox.test',
  tokenSet: true,
  issuerTaxId: '20601234565',
  issuerName: 'Demo Perú S.A.C.',
  seriesFactura: 'F001',
  seriesBoleta: 'B001',
  sandbox: true,
  updatedAt: '2026-11-25T12:00:00Z',
};

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/genial', () => {
  it('lists each country without the token and saves one keeping the token when left blank', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { integrations: ['list', 'read', 'create', 'update', 'delete'] } } };
      if (call.method === 'GET' && call.path === '/genial/settings') return { status: 200, body: { payload: [peru] } };
      if (call.method === 'PUT' && call.path === '/genial/settings/PE') return { status: 200, body: { ...peru, ...(call.body as object), tokenSet: true } };
      if (call.method === 'POST' && call.path === '/genial/settings/PE/test') {
        return { status: 200, body: { ok: false, problem: 'token', msg: 'Genial rechazó el token: cópialo de nuevo desde Genial → Integraciones y guárdalo en /genial' } };
      }
      return undefined;
    });
    renderApp(<GenialPage />, { route: '/genial' });
    expect(await screen.findByText('Demo Perú S.A.C. · 20601234565', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Chile')).toBeTruthy();
    expect(screen.getAllByText('Sin configurar')).toHaveLength(2);
    expect(document.body.textContent).not.toContain('sandbox-genial');
    // only a saved country can be tried; the answer says what to fix
    expect(screen.queryByRole('button', { name: 'Probar conexión con Genial en Chile' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Probar conexión con Genial en Perú' }));
    expect((await screen.findByTestId('genial-test-PE')).textContent).toContain('Genial rechazó el token');
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/genial/settings/PE/test')).toHaveLength(1);

    await user.click((await screen.findAllByRole('button', { name: 'Editar' }, { timeout: 10_000 }))[0]);
    const form = screen.getByRole('form', { name: 'Genial en Perú' });
    const token = within(form).getByLabelText('Token') as HTMLInputElement;
    expect(token.value).toBe('');
    const series = within(form).getByLabelText('Serie de boletas');
    await user.clear(series);
    await user.type(series, 'B002');
    await user.click(within(form).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT') as FakeCall;
    expect(put.body).toMatchObject({ seriesBoleta: 'B002', issuerTaxId: '20601234565' });
    expect(put.body).not.toHaveProperty('token');
  });
});
