import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as facebookLabelsScreen } from './facebook-labels-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const row = (i: number, name: string, facebookLabelId?: string) => ({
  _id: id(i),
  name,
  ...(facebookLabelId ? { facebookLabelId } : {}),
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

/** The labels and their people at Facebook behind the API: VIP on 12 people, one refusal that waits and one for good. */
function serve(permissions: object = { leads: ['list', 'read', 'create', 'update', 'delete'] }) {
  let failures = [
    { facebookLabelId: '9000001', leadName: 'Beto Vencido', action: 'put', reason: 'El token de la página de Facebook venció o no es válido (código 190)', at: '2026-11-26T10:00:00Z', retrying: true },
    { facebookLabelId: '9000002', leadName: 'Eva Borrada', action: 'remove', reason: 'La etiqueta ya no existe en la página de Facebook: pulsa «Sincronizar con Facebook» (código 100)', at: '2026-11-26T09:00:00Z', retrying: false },
  ];
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/facebook-labels') return { status: 200, body: pageOf([row(1, 'VIP', '9000001'), row(2, 'Mayorista', '9000002'), row(3, 'Nueva')]) };
    if (call.method === 'GET' && call.path === '/facebook-labels/people') {
      return {
        status: 200,
        body: {
          labels: [
            { facebookLabelId: '9000001', applied: 12, pending: 1, failed: 0 },
            { facebookLabelId: '9000002', applied: 1, pending: 0, failed: failures.length > 1 ? 1 : 0 },
          ],
          failures,
        },
      };
    }
    if (call.method === 'POST' && call.path === '/facebook-labels/people/retry') {
      failures = [];
      return { status: 200, body: { msg: 'Se reintentarán 2 etiquetas en personas de Facebook', retried: 2 } };
    }
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/etiquetas-facebook: the labels on people at Facebook', () => {
  it('shows how many people each label is on, the refusals with their reason, and retries them', async () => {
    const { calls } = serve();
    renderApp(<ResourceListPage config={facebookLabelsScreen} />, { route: '/etiquetas-facebook' });
    expect(await screen.findByText('12 personas')).toBeTruthy();
    expect(screen.getByText('1 persona')).toBeTruthy();
    expect(screen.getByText('1 por enviar')).toBeTruthy();
    expect(screen.getByText('Sin id en Facebook')).toBeTruthy();
    const panel = screen.getByTestId('facebook-label-people-panel');
    expect(within(panel).getByText(/13 puestas/)).toBeTruthy();
    expect(await within(panel).findByText('Poner «VIP» a Beto Vencido')).toBeTruthy();
    expect(within(panel).getByText(/El token de la página de Facebook venció/)).toBeTruthy();
    expect(within(panel).getByText(/se reintentará sola/)).toBeTruthy();
    expect(within(panel).getByText('Quitar «Mayorista» de Eva Borrada')).toBeTruthy();
    expect(within(panel).getByText(/La etiqueta ya no existe en la página de Facebook/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar rechazadas' }));
    expect(await screen.findByText('Se reintentarán 2 etiquetas en personas de Facebook')).toBeTruthy();
    expect(await within(panel).findByTestId('facebook-label-people-empty')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/facebook-labels/people/retry')).toHaveLength(1);
  });

  it('a role that may not edit leads sees the counts but has no «Reintentar»', async () => {
    const { calls } = serve({ leads: ['list', 'read'] });
    renderApp(<ResourceListPage config={facebookLabelsScreen} />, { route: '/etiquetas-facebook' });
    expect(await screen.findByText('12 personas')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.path === '/permissions')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: 'Reintentar rechazadas' })).toBeNull();
  });
});
