import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import type { ResourceRecord } from '../../components/crud/types';
import { sessionStore } from '../../lib/session';
import { screen as facebookLabelsScreen } from './facebook-labels-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const label = (i: number, name: string, facebookLabelId?: string): ResourceRecord => ({
  _id: id(i),
  name,
  ...(facebookLabelId ? { facebookLabelId } : {}),
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

/** The company's Facebook labels behind the API; the sync brings the page's and answers what moved, or refuses. */
function serve(options: { permissions?: object; refuse?: string } = {}) {
  const rows = [label(1, 'Pidió factura')];
  const api = fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: options.permissions ?? { leads: ['list', 'read', 'create', 'update', 'delete'] } } };
    if (call.method === 'GET' && call.path === '/facebook-labels') return { status: 200, body: pageOf(rows.map((r) => ({ ...r }))) };
    if (call.method === 'GET' && call.path === '/facebook-labels/people') return { status: 200, body: { labels: [], failures: [] } };
    if (call.method === 'POST' && call.path === '/facebook-labels/sync') {
      if (options.refuse) return { status: 502, body: { errors: { code: 'PROVIDER_ERROR', msg: options.refuse } } };
      rows[0] = { ...rows[0], facebookLabelId: '9000002' };
      rows.push(label(2, 'Cliente nuevo', '9000001'));
      return {
        status: 200,
        body: { msg: 'Etiquetas sincronizadas con Facebook: 1 nuevas desde la página, 1 creadas en la página', created: 1, linked: 0, renamed: 0, pushed: 1, missing: 0, pageLabels: 2 },
      };
    }
    return undefined;
  });
  return { ...api, rows };
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/etiquetas-facebook «Sincronizar con Facebook»', () => {
  it('brings the page’s labels into the list and says what moved', async () => {
    const { calls } = serve();
    renderApp(<ResourceListPage config={facebookLabelsScreen} />, { route: '/etiquetas-facebook' });
    expect(await screen.findByText('Pidió factura')).toBeTruthy();
    expect(screen.queryByText('Cliente nuevo')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sincronizar con Facebook' }));
    expect(await screen.findByText('Etiquetas sincronizadas con Facebook: 1 nuevas desde la página, 1 creadas en la página')).toBeTruthy();
    expect(await screen.findByText('Cliente nuevo')).toBeTruthy();
    expect(await screen.findByText('9000002')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/facebook-labels/sync')).toHaveLength(1);
  });

  it('says what Facebook refused; a role that may not edit leads has no button', async () => {
    serve({ refuse: 'Facebook no deja usar las etiquetas de esta página: un administrador debe aceptar las Condiciones de contactos de la página' });
    const { unmount } = renderApp(<ResourceListPage config={facebookLabelsScreen} />, { route: '/etiquetas-facebook' });
    await userEvent.click(await screen.findByRole('button', { name: 'Sincronizar con Facebook' }));
    expect(await screen.findByText(/aceptar las Condiciones de contactos de la página/)).toBeTruthy();
    unmount();
    vi.restoreAllMocks();
    const { calls } = serve({ permissions: { leads: ['list', 'read'] } });
    renderApp(<ResourceListPage config={facebookLabelsScreen} />, { route: '/etiquetas-facebook' });
    expect(await screen.findByText('Pidió factura')).toBeTruthy();
    // once the role's permissions are known (they answered and the screen rendered again)
    await waitFor(() => expect(calls.some((c) => c.path === '/permissions')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: 'Nueva etiqueta de Facebook' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sincronizar con Facebook' })).toBeNull();
  });
});
