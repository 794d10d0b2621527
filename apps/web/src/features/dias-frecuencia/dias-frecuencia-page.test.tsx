import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { feedbackStore } from '../../lib/feedback';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { DiasFrecuenciaPage } from './dias-frecuencia-page';
import { FrequencyLinkButton } from './frequency-link-button';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUvWxYz0123';

function serve(answer: (call: FakeCall) => { status: number; body: unknown } | undefined) {
  return fakeApi(answer);
}

const renderAt = (route: string) =>
  renderApp(
    <Routes>
      <Route path="/dias-frecuencia" element={<DiasFrecuenciaPage />} />
      <Route path="/dias-frecuencia/:token" element={<DiasFrecuenciaPage />} />
    </Routes>,
    { route },
  );

afterEach(() => vi.restoreAllMocks());

describe('/dias-frecuencia (public)', () => {
  it('shows the company and the current choice, saves a new one without a session and confirms it', async () => {
    let stored: string | null = 'monthly';
    const { calls } = serve((call) => {
      if (call.path !== `/public/dias-frecuencia/${TOKEN}`) return undefined;
      if (call.method === 'PUT') stored = (call.body as { choice: string }).choice;
      const body = { companyName: 'Bodega Lucho', choice: stored, expiresAt: '2025-06-01T00:00:00Z' };
      return { status: 200, body: call.method === 'PUT' ? { ...body, msg: 'Preferencia guardada' } : body };
    });
    // a staff session in the same browser is not sent on a public page
    sessionStore.set((s) => ({ ...s, token: 'staff-token', companyId: 'company-1' }));
    const user = userEvent.setup();
    renderAt(`/dias-frecuencia/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: '¿Cada cuánto quieres recibir mensajes?' })).toBeTruthy();
    expect(screen.getByText(/De Bodega Lucho/)).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Una vez al mes' }) as HTMLInputElement).checked).toBe(true);
    for (const label of ['Cada semana', 'Cada 15 días', 'No quiero recibir mensajes']) expect(screen.getByRole('radio', { name: label })).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Cada 15 días' }));
    await user.click(screen.getByRole('button', { name: 'Guardar preferencia' }));
    expect((await screen.findByRole('status')).textContent).toBe('Preferencia guardada');
    expect(screen.getByText('Bodega Lucho te escribirá como máximo cada 15 días.')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ choice: 'biweekly' });
    const init = vi.mocked(globalThis.fetch).mock.calls.at(-1)?.[1] as RequestInit | undefined;
    const headers = new Headers(init?.headers);
    expect(headers.get('authorization')).toBeNull();
    expect(headers.get('x-company-id')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Cambiar preferencia' }));
    await user.click(await screen.findByRole('radio', { name: 'No quiero recibir mensajes' }));
    await user.click(screen.getByRole('button', { name: 'Guardar preferencia' }));
    expect(await screen.findByText('Bodega Lucho no te enviará más mensajes.')).toBeTruthy();
  });

  it('reads the token from ?t= too', async () => {
    const { calls } = serve((call) =>
      call.path === `/public/dias-frecuencia/${TOKEN}` ? { status: 200, body: { companyName: 'Acme', choice: null, expiresAt: '2025-06-01T00:00:00Z' } } : undefined,
    );
    renderAt(`/dias-frecuencia?t=${TOKEN}`);
    expect(await screen.findByText(/De Acme/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Guardar preferencia' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls[0].path).toBe(`/public/dias-frecuencia/${TOKEN}`);
  });

  it('explains an expired or invalid link, without the error snackbar', async () => {
    serve(() => ({ status: 400, body: { errors: { code: 'BAD_REQUEST', msg: 'El enlace venció: pide uno nuevo a la empresa' } } }));
    renderAt(`/dias-frecuencia/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Este enlace venció' })).toBeTruthy();
    expect(screen.getByTestId('link-invalid').textContent).toContain('El enlace venció');
    expect(feedbackStore.get().errors).toBeNull();
  });

  it('without a token says the link is not valid and calls nothing', async () => {
    const { calls } = serve(() => undefined);
    renderAt('/dias-frecuencia');
    expect(await screen.findByRole('heading', { name: 'Enlace no válido' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});

describe('FrequencyLinkButton (staff)', () => {
  beforeEach(() => {
    sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
  });

  it('creates the link of a clean lead and shows it to copy', async () => {
    const url = `https://mostrador.example.pe/dias-frecuencia/${TOKEN}`;
    const { calls } = serve((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { leads: ['list', 'read', 'update'] } } };
      if (call.method === 'POST' && call.path === '/clean-leads/cl-1/frequency-link') return { status: 200, body: { url, token: TOKEN, expiresAt: '2025-06-01T00:00:00Z' } };
      return undefined;
    });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const user = userEvent.setup();
    renderApp(<FrequencyLinkButton cleanLeadId="cl-1" />);
    await user.click(await screen.findByRole('button', { name: 'Enlace de frecuencia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enlace de frecuencia de mensajes' });
    expect((within(dialog).getByLabelText('Enlace') as HTMLInputElement).value).toBe(url);
    await user.click(within(dialog).getByRole('button', { name: 'Copiar enlace' }));
    await waitFor(() => expect(feedbackStore.get().success?.message).toBe('Enlace copiado'));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});
