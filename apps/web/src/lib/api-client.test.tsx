import type { LoginResponse } from '@mostrador/contract';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp } from '../test/render';
import { ApiError, api } from './api-client';
import { sessionKeys, sessionStore, setSession } from './session';

const user = (id: string): LoginResponse['user'] => ({
  _id: id,
  first_name: 'Ana',
  last_name: 'Quispe',
  email: 'admin@demo.com',
  token: 'unused',
  companyId: 'c-pe',
  corporation: {
    _id: 'corp-1',
    name: 'Demo',
    slug: 'demo',
    companies: [
      { company: { _id: 'c-pe', name: 'Demo Perú' }, default: true, role: 'admin' },
      { company: { _id: 'c-cl', name: 'Demo Chile' }, default: false, role: 'admin' },
    ],
  },
});

function Screens() {
  return (
    <Routes>
      <Route path="/login" element={<h1>Pantalla de inicio de sesión</h1>} />
      <Route path="/perfil" element={<h1>Pantalla de perfil</h1>} />
      <Route path="/clientes" element={<h1>Pantalla de clientes</h1>} />
    </Routes>
  );
}

const fetchMock = vi.fn<typeof fetch>();

function headerOf(call: number, name: string): string | null {
  const init = fetchMock.mock.calls[call]?.[1];
  return new Headers(init?.headers).get(name);
}

beforeAll(async () => {
  // The snackbars load on demand; warm the module so the first test is not slower.
  await import('../components/ui/feedback-view');
});

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  setSession({ token: 'old-token', expiresIn: 900, user: user('u-1') });
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends the bearer token, the selected company and the language', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { ok: true }));
    renderApp(<Screens />, { route: '/clientes' });

    await expect(api.get('/clientes', { query: { page: 1, filter: '' } })).resolves.toEqual({ ok: true });

    expect(fetchMock.mock.calls[0][0]).toBe('/api/clientes?page=1');
    expect(headerOf(0, 'Authorization')).toBe('Bearer old-token');
    expect(headerOf(0, 'X-Company-Id')).toBe('c-pe');
    expect(headerOf(0, 'Accept-Language')).toMatch(/^(es|en)$/);
    expect(fetchMock.mock.calls[0][1]?.credentials).toBe('same-origin');
  });

  it('shows the server message in the error snackbar', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(409, { errors: { code: 'CONFLICT', msg: 'El registro ya existe' } }),
    );
    renderApp(<Screens />, { route: '/clientes' });

    await expect(api.post('/clientes', { name: 'x' })).rejects.toBeInstanceOf(ApiError);

    const snackbar = await screen.findByTestId('error-snackbar');
    expect(snackbar.textContent).toContain('El registro ya existe');
    expect(screen.getByRole('heading', { name: 'Pantalla de clientes' })).toBeTruthy();
  });

  it('lists every message of a validation error, one per line', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(400, {
        errors: {
          code: 'VALIDATION',
          msg: 'Los datos enviados no son válidos',
          details: [{ path: 'email', msg: 'Este campo debe ser un email válido' }],
        },
      }),
    );
    renderApp(<Screens />, { route: '/clientes' });

    await expect(api.post('/clientes', {})).rejects.toBeInstanceOf(ApiError);

    const snackbar = await screen.findByTestId('error-snackbar');
    expect(screen.getByText('Los datos enviados no son válidos')).toBeTruthy();
    expect(screen.getByText('Correo electrónico: Este campo debe ser un email válido')).toBeTruthy();
    expect(snackbar.textContent).not.toContain('SERVER_TIMEOUT_CONNECTION_ERROR');
  });

  it('says "Pide permisos : " with the server message on a 401 FORBIDDEN and goes to Profile', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(401, { errors: { code: 'FORBIDDEN', msg: 'No tienes permiso para realizar esta acción' } }),
    );
    renderApp(<Screens />, { route: '/clientes' });

    await expect(api.delete('/clientes/1')).rejects.toBeInstanceOf(ApiError);

    expect(await screen.findByText('Pide permisos : No tienes permiso para realizar esta acción')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Pantalla de perfil' })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('refreshes the token once on TOKEN_EXPIRED and replays the request', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(401, { errors: { code: 'TOKEN_EXPIRED', msg: 'Tu sesión ha expirado' } }))
      .mockResolvedValueOnce(jsonResponse(200, { status: 200, token: 'new-token', expiresIn: 900, user: user('u-1') }))
      .mockResolvedValueOnce(jsonResponse(200, { payload: [{ _id: '1' }], totalDocs: 1, totalPages: 1 }));
    renderApp(<Screens />, { route: '/clientes' });

    await expect(api.get('/clientes')).resolves.toEqual({ payload: [{ _id: '1' }], totalDocs: 1, totalPages: 1 });

    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(fetchMock.mock.calls[1][0]).toBe('/api/token');
    expect(headerOf(2, 'Authorization')).toBe('Bearer new-token');
    expect(sessionStore.get().token).toBe('new-token');
    expect(window.localStorage.getItem(sessionKeys.token)).toBe('new-token');
    expect(screen.getByRole('heading', { name: 'Pantalla de clientes' })).toBeTruthy();
    expect(screen.queryByTestId('error-snackbar')).toBeNull();
  });

  it('signs out and shows the login screen when the refresh fails', async () => {
    fetchMock
      .mockResolvedValueOnce(
        jsonResponse(401, { errors: { code: 'TOKEN_EXPIRED', msg: 'Tu sesión ha expirado. Inicia sesión de nuevo' } }),
      )
      .mockResolvedValueOnce(jsonResponse(401, { errors: { code: 'SESSION_REVOKED', msg: 'Tu sesión fue cerrada' } }));
    renderApp(<Screens />, { route: '/clientes' });

    await expect(api.get('/clientes')).rejects.toBeInstanceOf(ApiError);

    expect(await screen.findByRole('heading', { name: 'Pantalla de inicio de sesión' })).toBeTruthy();
    expect(await screen.findByText('Tu sesión ha expirado. Inicia sesión de nuevo')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    for (const key of Object.values(sessionKeys)) expect(window.localStorage.getItem(key)).toBeNull();
    expect(sessionStore.get().user).toBeNull();
  });

  it('passes a missing response on to the caller without a snackbar', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderApp(<Screens />, { route: '/clientes' });

    await expect(api.get('/clientes')).rejects.toMatchObject({ name: 'NetworkError' });
    expect(screen.queryByTestId('error-snackbar')).toBeNull();
  });
});
