import type { ApiKeyOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from '../../components/ui/confirm-dialog';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { ApiKeysPage } from './api-keys-page';

const erp: ApiKeyOut = {
  _id: '00000000-0000-4000-8000-000000000281',
  name: 'ERP contable',
  prefix: 'mst_HU5hRCEl',
  permissions: ['catalog.list', 'catalog.read', 'leads.list'],
  expiresAt: null,
  createdAt: '2026-10-23T15:00:00.000Z',
  createdBy: { _id: 'u1', name: 'Ana Administradora' },
  lastUsedAt: null,
  status: 'active',
};
/** The admin holds everything of leads and the keys; the catalogue to read — and no marketing. */
const admin = { leads: ['list', 'read', 'create', 'update', 'delete', 'export', 'import', 'all'], catalog: ['list', 'read'], api: ['list', 'create', 'update', 'delete'] };

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('ApiKeysPage (/configuracion/api)', () => {
  it('lists a key by its prefix, permissions, creator and use; makes one with only what the maker holds and shows its secret once', async () => {
    let keys = [erp];
    const secret = `mst_${'k'.repeat(43)}`;
    const api = fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
      if (call.method === 'GET' && call.path === '/api-keys') return { status: 200, body: { payload: keys } };
      if (call.method === 'POST' && call.path === '/api-keys') {
        const body = call.body as { name: string; permissions: string[] };
        const made = { ...erp, _id: 'new', name: body.name, prefix: secret.slice(0, 12), permissions: body.permissions, createdAt: new Date().toISOString() };
        keys = [made, ...keys];
        return { status: 201, body: { ...made, key: secret } };
      }
      return { status: 404, body: {} };
    });
    renderApp(
      <ConfirmProvider>
        <ApiKeysPage />
      </ConfirmProvider>,
      { route: '/configuracion/api' },
    );
    const card = await screen.findByTestId('api-key');
    expect(within(card).getByText('ERP contable')).toBeTruthy();
    expect(within(card).getByText('mst_HU5hRCEl…')).toBeTruthy();
    expect(within(card).getByText('Catálogo: Listar, Ver')).toBeTruthy();
    expect(within(card).getByText('Leads y contactos: Listar')).toBeTruthy();
    expect(within(card).getByText(/por Ana Administradora/)).toBeTruthy();
    expect(within(card).getByText('Nunca usada')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Nueva clave' }));
    const dialog = await screen.findByRole('dialog');
    // nothing chosen: the contract's messages, nothing sent
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear clave' }));
    expect(await within(dialog).findByText('Elige al menos un permiso para la clave')).toBeTruthy();
    expect(within(dialog).getByText(/Ponle un nombre a la clave/)).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    // only the modules the maker holds are offered; marketing is not
    expect(within(dialog).queryByLabelText('Marketing: Todo')).toBeNull();
    await userEvent.type(within(dialog).getByLabelText('Nombre'), 'Tienda');
    await userEvent.click(within(dialog).getByLabelText('Leads y contactos: Listar'));
    await userEvent.click(within(dialog).getByLabelText('Leads y contactos: Crear'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear clave' }));

    const shown = await screen.findByTestId('secret-once');
    expect((shown as HTMLInputElement).value).toBe(secret);
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ name: 'Tienda', permissions: ['leads.list', 'leads.create'] });
    await userEvent.click(screen.getByRole('button', { name: 'Listo, ya lo copié' }));
    await waitFor(() => expect(screen.queryByTestId('secret-once')).toBeNull());
    expect(await screen.findByText('Tienda')).toBeTruthy();
    expect(screen.queryByText(secret)).toBeNull();
  });

  it('revokes a key after asking, and says when there are none or the list fails', async () => {
    let keys = [erp];
    const api = fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
      if (call.method === 'GET' && call.path === '/api-keys') return { status: 200, body: { payload: keys } };
      if (call.method === 'DELETE' && call.path === `/api-keys/${erp._id}`) {
        keys = [];
        return { status: 204, body: undefined };
      }
      return { status: 404, body: {} };
    });
    renderApp(
      <ConfirmProvider>
        <ApiKeysPage />
      </ConfirmProvider>,
      { route: '/configuracion/api' },
    );
    const card = await screen.findByTestId('api-key');
    await userEvent.click(within(card).getByRole('button', { name: 'Revocar' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/deja de funcionar de inmediato/)).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText(/Todavía no hay claves de API/)).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(true);
  });

  it('says so when the list cannot be loaded', async () => {
    fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
      return { status: 500, body: { errors: { msg: 'Error interno' } } };
    });
    renderApp(<ApiKeysPage />, { route: '/configuracion/api' });
    expect(await screen.findByText('No se pudieron cargar las claves de API.')).toBeTruthy();
  });
});
