import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as attributesScreen } from './ecommerces-attributes-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';

vi.setConfig({ testTimeout: 20_000 });

const talla = {
  _id: '00000000-0000-4000-8000-000000000501',
  nombre: 'Talla',
  terms: [
    { _id: '1001', name: 'S' },
    { _id: '1002', name: 'M' },
  ],
  woocommerceId: 1,
  country: 'PE',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

function serve(permissions: string[]) {
  const row = { ...talla, terms: [...talla.terms] };
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { ecommerce: permissions } } };
    if (call.method === 'GET' && call.path === '/ecommerces-attributes') return { status: 200, body: pageOf([row]) };
    if (call.method === 'PUT' && call.path === `/ecommerces-attributes/${row._id}`) {
      Object.assign(row, call.body);
      return { status: 200, body: row };
    }
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/ecommerce/atributos: the values on each row', () => {
  it('adds a value with Enter, refuses one already there, and removes one, each saved at once', async () => {
    const user = userEvent.setup();
    const { calls } = serve(['list', 'read', 'create', 'update', 'delete']);
    renderApp(<ResourceListPage config={attributesScreen} />, { route: '/ecommerce/atributos' });
    const values = await screen.findByRole('group', { name: 'Valores de Talla' }, { timeout: 10_000 });
    expect(within(values).getByText('S')).toBeTruthy();
    expect(within(values).getByText('M')).toBeTruthy();

    await user.click(within(values).getByRole('button', { name: 'Agregar valor a Talla' }));
    await user.type(within(values).getByRole('textbox', { name: 'Nuevo valor de Talla' }), 'm{Enter}');
    expect(within(values).getByText('Ese valor ya está')).toBeTruthy();
    await user.clear(within(values).getByRole('textbox', { name: 'Nuevo valor de Talla' }));
    await user.type(within(values).getByRole('textbox', { name: 'Nuevo valor de Talla' }), 'XL{Enter}');
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ terms: [{ _id: '1001', name: 'S' }, { _id: '1002', name: 'M' }, { name: 'XL' }] });
    expect(await within(values).findByText('XL')).toBeTruthy();
    // the row's edit form did not open
    expect(screen.queryByRole('dialog')).toBeNull();

    const s = within(values).getByText('S').closest('.MuiChip-root') as HTMLElement;
    await user.click(within(s).getByTestId('CancelIcon'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT')[1]?.body).toEqual({ terms: [{ _id: '1002', name: 'M' }, { name: 'XL' }] });
  });

  it('shows the values without ways to change them when the role may not update', async () => {
    serve(['list', 'read']);
    renderApp(<ResourceListPage config={attributesScreen} />, { route: '/ecommerce/atributos' });
    const values = await screen.findByRole('group', { name: 'Valores de Talla' }, { timeout: 10_000 });
    await waitFor(() => expect(within(values).queryByRole('button', { name: 'Agregar valor a Talla' })).toBeNull());
    expect(within(values).queryByTestId('CancelIcon')).toBeNull();
  });
});
