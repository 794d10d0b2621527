import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as retailRocketScreen } from './retail-rocket-tags-screen';
import { fakeApi, pageOf } from '../../test/fake-api';
import { FakeXhr } from '../../test/fake-xhr';
import { renderApp } from '../../test/render';

const TAG = '00000000-0000-4000-8000-000000000001';

function serve(permissions: object) {
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/retail-rocket-tags') {
      return { status: 200, body: pageOf([{ _id: TAG, name: 'Carrito abandonado', segmentId: '7782', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' }]) };
    }
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.last = undefined;
  FakeXhr.answer = {
    status: 200,
    body: { msg: '2 leads importados (1 nuevo, 1 combinado). Todos llevan la etiqueta «Carrito abandonado».', created: 1, merged: 1, rejected: [], warnings: [] },
  };
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('/retail-rocket/etiquetas «Importar segmento»', () => {
  it('uploads the segment’s export to its tag and shows what became of its people', async () => {
    serve({ marketing: ['list', 'read', 'create', 'update', 'delete'], leads: ['list', 'read', 'create', 'update', 'import'] });
    renderApp(<ResourceListPage config={retailRocketScreen} />, { route: '/retail-rocket/etiquetas' });
    await userEvent.click(await screen.findByRole('button', { name: 'Importar segmento: Carrito abandonado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar segmento · Carrito abandonado' });
    expect(within(dialog).getByText(/recibe la etiqueta Mostrador «Carrito abandonado»/)).toBeTruthy();
    await userEvent.upload(within(dialog).getByLabelText('Archivo CSV'), new File(['nombre,telefono\nRosa,56911112222\n'], 'segmento.csv', { type: 'text/csv' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Importar' }));
    await waitFor(() => expect(FakeXhr.last).toBeDefined());
    const sent = FakeXhr.last as FakeXhr;
    expect(sent).toMatchObject({ method: 'POST', headers: { 'content-type': 'text/csv' } });
    expect(sent.url).toContain(`/api/retail-rocket-tags/${TAG}/import`);
    act(() => sent.respond());
    expect(await within(dialog).findByText(/Todos llevan la etiqueta «Carrito abandonado»/)).toBeTruthy();
  });

  it('is not offered to a role that may not create leads', async () => {
    const { calls } = serve({ marketing: ['list', 'read'], leads: ['list', 'read'] });
    renderApp(<ResourceListPage config={retailRocketScreen} />, { route: '/retail-rocket/etiquetas' });
    expect(await screen.findByText('Carrito abandonado')).toBeTruthy();
    // once the role's permissions are known (they answered and the screen rendered again)
    await waitFor(() => expect(calls.some((c) => c.path === '/permissions')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: 'Nueva etiqueta' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Importar segmento/ })).toBeNull();
  });
});
