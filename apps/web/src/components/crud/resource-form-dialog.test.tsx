import { resources } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { ResourceFormDialog } from './resource-form-dialog';
import { defineScreen, type ResourceRecord } from './types';

const texts = { subtitle: '', emptyMessage: '', noResultsMessage: '' };
const brands = defineScreen({
  ...texts,
  resource: resources.brands,
  title: 'Marcas',
  newLabel: 'Nueva marca',
  editLabel: 'Editar marca',
  columns: ['name'],
  fields: { logoUrl: { label: 'URL del logo' } },
});
const products = defineScreen({
  ...texts,
  resource: resources.products,
  title: 'Productos',
  newLabel: 'Nuevo producto',
  editLabel: 'Editar producto',
  columns: ['name'],
  fields: { brandId: { label: 'Marca' } },
});
const attributes = defineScreen({
  ...texts,
  resource: resources['ecommerces-attributes'],
  title: 'Atributos',
  newLabel: 'Nuevo atributo',
  editLabel: 'Editar atributo',
  columns: ['nombre'],
  fields: { terms: { label: 'Valores', fields: { _id: { label: 'Id en la tienda' }, name: { label: 'Valor' } } } },
});
const woocommerces = defineScreen({
  ...texts,
  resource: resources.woocommerces,
  title: 'WooCommerce',
  newLabel: 'Nueva tienda',
  editLabel: 'Editar tienda',
  columns: ['name'],
  fields: { consumerKey: { label: 'Consumer key' } },
});

const id = '00000000-0000-4000-8000-000000000001';
const dates = { createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('ResourceFormDialog', () => {
  it('validates with the contract schema and shows the Spanish messages under the fields', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi(() => undefined);
    renderApp(<ResourceFormDialog config={brands} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Nueva marca' });
    await user.type(within(dialog).getByLabelText('URL del logo'), 'no es una url');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Este campo es requerido')).toBeTruthy();
    expect(within(dialog).getByText('Debe ser una URL válida')).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Nombre/).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(within(dialog).getByLabelText(/^Nombre/));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    // after the first submit, a change validates again
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Gloria');
    await waitFor(() => expect(within(dialog).queryByText('Este campo es requerido')).toBeNull());
  });

  it('says a number is not valid in Spanish', async () => {
    const user = userEvent.setup();
    fakeApi((call) => (call.path === '/brands' ? { status: 200, body: pageOf([]) } : undefined));
    renderApp(<ResourceFormDialog config={products} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo producto' });
    await user.type(within(dialog).getByLabelText(/^Precio/), 'caro');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Este campo debe ser un número válido')).toBeTruthy();
  });

  it('creates with POST, shows "Registro guardado con éxito" once and closes', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const { calls } = fakeApi((call) =>
      call.method === 'POST' ? { status: 201, body: { _id: id, ...(call.body as object), ...dates } } : undefined,
    );
    renderApp(<ResourceFormDialog config={brands} open onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Nueva marca' });
    await user.type(within(dialog).getByLabelText(/^Nombre/), '  Gloria ');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/brands', body: { name: 'Gloria' } });
    expect(await screen.findAllByText('Registro guardado con éxito')).toHaveLength(1);
  });

  it('shows a 400 answer\'s field details under the fields, nested rows included', async () => {
    const user = userEvent.setup();
    fakeApi((call) =>
      call.method === 'POST'
        ? {
            status: 400,
            body: {
              errors: {
                code: 'VALIDATION',
                msg: 'nombre: Ya existe un atributo con ese nombre',
                details: [
                  { path: 'nombre', msg: 'Ya existe un atributo con ese nombre' },
                  { path: 'terms.0.name', msg: 'Ese valor ya existe en la tienda' },
                ],
              },
            },
          }
        : undefined,
    );
    renderApp(<ResourceFormDialog config={attributes} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo atributo' });
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Talla');
    await user.type(within(dialog).getByLabelText(/^Id en WooCommerce/), '3');
    await user.click(within(dialog).getByLabelText(/^País/));
    await user.click(await screen.findByRole('option', { name: 'Perú' }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    await user.type(within(dialog).getByLabelText(/^Valor/), 'S');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Ya existe un atributo con ese nombre')).toBeTruthy();
    expect(within(dialog).getByText('Ese valor ya existe en la tienda')).toBeTruthy();
  });

  it('edits with PUT sending only the changed fields, and shows "Registro actualizado con éxito"', async () => {
    const user = userEvent.setup();
    const record: ResourceRecord = { _id: id, name: 'Gloria', description: 'Lácteos', ...dates };
    const { calls } = fakeApi((call) => (call.method === 'PUT' ? { status: 200, body: { ...record, ...(call.body as object) } } : undefined));
    renderApp(<ResourceFormDialog config={brands} record={record} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Editar marca' });
    expect((within(dialog).getByLabelText(/^Nombre/) as HTMLInputElement).value).toBe('Gloria');
    await user.clear(within(dialog).getByLabelText('Descripción'));
    await user.type(within(dialog).getByLabelText('Descripción'), 'Leche');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Registro actualizado con éxito')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ path: `/brands/${id}`, body: { description: 'Leche' } });
  });

  it('says a stored secret is kept when left empty', async () => {
    const record: ResourceRecord = { _id: id, name: 'Tienda', url: 'https://t.pe', country: 'PE', consumerKeySet: true, ...dates };
    fakeApi(() => undefined);
    renderApp(<ResourceFormDialog config={woocommerces} record={record} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Editar tienda' });
    expect(within(dialog).getByLabelText('Consumer key').getAttribute('type')).toBe('password');
    expect(within(dialog).getAllByText(/^Guardado/).length).toBeGreaterThan(0);
  });

  it('offers the referenced resource\'s records by name', async () => {
    const user = userEvent.setup();
    fakeApi((call) =>
      call.path === '/brands'
        ? { status: 200, body: pageOf([{ _id: id, name: 'Inca Kola', ...dates }]) }
        : call.path.startsWith('/') && call.method === 'GET'
          ? { status: 200, body: pageOf([]) }
          : undefined,
    );
    renderApp(<ResourceFormDialog config={products} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo producto' });
    await user.click(within(dialog).getByLabelText('Marca'));
    expect(await screen.findByRole('option', { name: 'Inca Kola' })).toBeTruthy();
  });
});

describe('the roles a caller may give (decision 0059)', () => {
  it('offers a supervisor only Agente in the new user form, an admin every role', async () => {
    const { screen: users } = await import('../../features/organization/users-screen');
    for (const [role, offered] of [
      ['supervisor', ['Agente']],
      ['admin', ['Administrador', 'Supervisor', 'Agente']],
    ] as const) {
      const user = userEvent.setup();
      fakeApi((call) => {
        if (call.path === '/permissions') return { status: 200, body: { role, permissions: { users: ['list', 'create'] } } };
        if (call.path === '/companies') return { status: 200, body: pageOf([]) };
        return undefined;
      });
      const { unmount } = renderApp(<ResourceFormDialog config={users} open onClose={() => undefined} />);
      const dialog = await screen.findByRole('dialog', { name: 'Nuevo usuario' });
      await waitFor(async () => {
        await user.click(within(dialog).getByRole('combobox', { name: /Rol/ }));
        const listbox = await screen.findByRole('listbox');
        expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(offered);
        await user.keyboard('{Escape}');
      });
      unmount();
      vi.restoreAllMocks();
    }
  });
});
