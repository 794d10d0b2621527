import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { MercadoPagoPage } from './mercadopago-page';

vi.setConfig({ testTimeout: 20_000 });

const saved = {
  configured: true,
  accessTokenSet: true,
  webhookSecretSet: true,
  sandbox: true,
  notificationUrl: 'http://localhost:3000/api/webhooks/mercadopago/company-1',
  updatedAt: '2026-11-25T12:00:00Z',
};

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));

describe('/mercadopago', () => {
  it('shows the settings without secrets, tests the connection, and saves keeping the secrets left blank', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { integrations: ['list', 'read', 'update'] } } };
      if (call.method === 'GET' && call.path === '/payments/mercadopago/settings') return { status: 200, body: saved };
      if (call.method === 'PUT' && call.path === '/payments/mercadopago/settings') return { status: 200, body: { ...saved, sandbox: (call.body as { sandbox: boolean }).sandbox } };
      if (call.method === 'POST' && call.path === '/payments/mercadopago/test') return { status: 200, body: { ok: true, msg: 'Conexión correcta con Mercado Pago: cuenta TIENDA_DEMO (sandbox: los pagos son simulados, no se cobra a nadie)' } };
      return undefined;
    });
    renderApp(<MercadoPagoPage />, { route: '/mercadopago' });
    expect((await screen.findByTestId('notification-url', undefined, { timeout: 10_000 })).textContent).toBe(saved.notificationUrl);
    expect(screen.getByText('Sandbox')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Probar conexión' }));
    expect((await screen.findByTestId('mercadopago-test-result')).textContent).toContain('cuenta TIENDA_DEMO');
    await user.click(screen.getByRole('button', { name: 'Editar' }));
    const form = screen.getByRole('form', { name: 'Credenciales de Mercado Pago' });
    expect((within(form).getByLabelText('Access token') as HTMLInputElement).value).toBe('');
    await user.click(within(form).getByLabelText(/^Sandbox/));
    await user.click(within(form).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT') as FakeCall;
    expect(put.body).toEqual({ sandbox: false });
  });
});
