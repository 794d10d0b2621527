import { type Page, resources } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { ResourceListPage } from './resource-list-page';
import { defineScreen, type ResourceRecord } from './types';

const brands = defineScreen({
  resource: resources.brands,
  title: 'Marcas',
  subtitle: 'Las marcas de tus productos',
  newLabel: 'Nueva marca',
  editLabel: 'Editar marca',
  emptyMessage: 'Aún no hay marcas registradas',
  noResultsMessage: 'Ninguna marca coincide con la búsqueda',
  columns: ['name', 'description'],
});

const attributes = defineScreen({
  resource: resources['ecommerces-attributes'],
  title: 'Atributos',
  subtitle: 'Atributos',
  newLabel: 'Nuevo atributo',
  editLabel: 'Editar atributo',
  emptyMessage: 'Vacío',
  noResultsMessage: 'Sin resultados',
  columns: ['nombre', 'country'],
});

const brand = (i: number): ResourceRecord => ({
  _id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `Marca ${i}`,
  description: `Descripción ${i}`,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
});

const everything = { catalog: ['list', 'read', 'create', 'update', 'delete'], ecommerce: ['list', 'read', 'create', 'update', 'delete'] };

/** A server with `records` that searches by name, pages by `limit`, and may answer a permissions matrix. */
function serve(
  records: ResourceRecord[],
  { permissions = everything as object, total, cursors = false }: { permissions?: object; total?: number; cursors?: boolean } = {},
) {
  let rows = [...records];
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && /^\/(brands|ecommerces-attributes)$/.test(call.path)) {
      const filter = call.query.get('filter')?.toLowerCase();
      const found = filter ? rows.filter((r) => String(r.name ?? r.nombre).toLowerCase().includes(filter)) : rows;
      const page = Number(call.query.get('page') ?? 1);
      const limit = Number(call.query.get('limit') ?? 30);
      const body: Page<ResourceRecord> = pageOf(found.slice((page - 1) * limit, page * limit), { totalDocs: total ?? found.length, page, limit });
      // a cursor naming the page it follows (as opaque to the screen as the server's)
      if (cursors && page < body.totalPages) body.nextCursor = `cursor-after-${page}-${call.query.get('cursor') ?? 'none'}`;
      return { status: 200, body };
    }
    if (call.method === 'DELETE') {
      const id = call.path.split('/').pop();
      rows = rows.filter((r) => r._id !== id);
      return { status: 200, body: { status: 200, _id: id } };
    }
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('ResourceListPage', () => {
  it('shows the title, subtitle, columns and rows, sorted by the default sort', async () => {
    const { calls } = serve([brand(1), brand(2)]);
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    expect(screen.getByRole('heading', { name: 'Marcas', level: 1 })).toBeTruthy();
    expect(screen.getByText('Las marcas de tus productos')).toBeTruthy();
    expect(await screen.findByText('Marca 1')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Nombre/ })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Descripción' })).toBeTruthy();
    const list = calls.find((c) => c.path === '/brands');
    expect(Object.fromEntries(list?.query ?? [])).toMatchObject({ sort: 'name', order: 'asc', page: '1', limit: '30' });
  });

  it('shows the empty-state message when the company has no records', async () => {
    serve([]);
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    expect(await screen.findByTestId('empty-state')).toHaveProperty('textContent', 'Aún no hay marcas registradas');
    expect(screen.queryByTestId('no-results')).toBeNull();
  });

  it('shows the no-results message when a search finds nothing, and sends the search as `filter`', async () => {
    const user = userEvent.setup();
    const { calls } = serve([brand(1)]);
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    await screen.findByText('Marca 1');
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'zzz');
    expect(await screen.findByTestId('no-results', {}, { timeout: 3000 })).toHaveProperty('textContent', 'Ninguna marca coincide con la búsqueda');
    expect(screen.queryByTestId('empty-state')).toBeNull();
    expect(calls.some((c) => c.path === '/brands' && c.query.get('filter') === 'zzz')).toBe(true);
  });

  it('sorts by a sortable column only', async () => {
    const user = userEvent.setup();
    const { calls } = serve([brand(1)]);
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    await screen.findByText('Marca 1');
    expect(within(screen.getByRole('columnheader', { name: 'Descripción' })).queryByRole('button')).toBeNull();
    await user.click(within(screen.getByRole('columnheader', { name: /Nombre/ })).getByRole('button'));
    await waitFor(() => expect(calls.some((c) => c.path === '/brands' && c.query.get('order') === 'desc')).toBe(true));
  });

  it('pages on the server and shows at most 16 page buttons', async () => {
    const user = userEvent.setup();
    const { calls } = serve([brand(1)], { total: 1000 });
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    await screen.findByText('Marca 1');
    expect(await screen.findAllByTestId('page-button')).toHaveLength(16);
    expect(screen.getByText('1–30 de 1000')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Página 5' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/brands' && c.query.get('page') === '5')).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Última página' }));
    await waitFor(() => expect(calls.some((c) => c.query.get('page') === '34')).toBe(true));
    expect(screen.getAllByTestId('page-button').length).toBeLessThanOrEqual(16);
  });

  it('goes to the next page by the cursor of the page shown, and jumps by page number', async () => {
    const user = userEvent.setup();
    const { calls } = serve([brand(1)], { total: 1000, cursors: true });
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    await screen.findByText('Marca 1');
    const lists = () => calls.filter((c) => c.path === '/brands').map((c) => [c.query.get('page'), c.query.get('cursor')]);
    expect(lists()).toEqual([['1', null]]);

    await user.click(screen.getByRole('button', { name: 'Página siguiente' }));
    await waitFor(() => expect(lists()).toContainEqual(['2', 'cursor-after-1-none']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Página 2' }).getAttribute('aria-current')).toBe('page'));
    expect(screen.getByText('31–60 de 1000')).toBeTruthy();
    // the page number beside it is a step forward too: page 3 follows page 2's own cursor
    await user.click(screen.getByRole('button', { name: 'Página 3' }));
    await waitFor(() => expect(lists()).toContainEqual(['3', 'cursor-after-2-cursor-after-1-none']));

    // a jump and a step back name their page, without a cursor
    await user.click(screen.getByRole('button', { name: 'Página 7' }));
    await waitFor(() => expect(lists()).toContainEqual(['7', null]));
    await user.click(screen.getByRole('button', { name: 'Página anterior' }));
    await waitFor(() => expect(lists()).toContainEqual(['6', null]));
    // a new sort drops the cursor: its rows are in another order
    await user.click(screen.getByRole('button', { name: 'Página siguiente' }));
    await waitFor(() => expect(lists()).toContainEqual(['7', 'cursor-after-6-none']));
    await user.click(within(screen.getByRole('columnheader', { name: /Nombre/ })).getByRole('button'));
    await waitFor(() => expect(calls.some((c) => c.path === '/brands' && c.query.get('order') === 'desc')).toBe(true));
    expect(calls.filter((c) => c.query.get('order') === 'desc').every((c) => c.query.get('cursor') === null)).toBe(true);
  });

  it('deletes only after Aceptar in the Advertencia confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = serve([brand(1), brand(2)]);
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    await screen.findByText('Marca 1');

    await user.click(screen.getByRole('button', { name: 'Eliminar: Marca 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Advertencia' });
    expect(dialog.textContent).toContain('«Marca 1»');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Eliminar: Marca 1' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Advertencia' })).getByRole('button', { name: 'Aceptar' }));
    expect(await screen.findByText('Registro eliminado con éxito')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => [c.path, c.body])).toEqual([[`/brands/${brand(1)._id}`, undefined]]);
    await waitFor(() => expect(screen.queryByText('Marca 1')).toBeNull());
  });

  it('sends the declared delete body taken from the record', async () => {
    const user = userEvent.setup();
    const attribute = { ...brand(3), name: undefined, nombre: 'Talla', terms: [], woocommerceId: 7, country: 'PE' };
    const { calls } = serve([attribute]);
    renderApp(<ResourceListPage config={attributes} />, { route: '/ecommerce/atributos' });
    await user.click(await screen.findByRole('button', { name: 'Eliminar: Talla' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Advertencia' })).getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ woocommerceId: 7, country: 'PE' }));
  });

  it('hides New, Edit and Delete when the role may only list', async () => {
    serve([brand(1)], { permissions: { catalog: ['list', 'read'] } });
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    await screen.findByText('Marca 1');
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Acciones' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Nueva marca' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Editar/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Eliminar/ })).toBeNull();
  });

  it('shows New, Edit and Delete for a role that may', async () => {
    serve([brand(1)]);
    renderApp(<ResourceListPage config={brands} />, { route: '/marcas' });
    expect(await screen.findByRole('button', { name: 'Nueva marca' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Editar: Marca 1' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Eliminar: Marca 1' })).toBeTruthy();
  });

  it('hides create and edit when the screen says so (variations), keeping delete', async () => {
    serve([brand(1)]);
    renderApp(<ResourceListPage config={{ ...brands, create: false, edit: false }} />, { route: '/marcas' });
    expect(await screen.findByRole('button', { name: 'Eliminar: Marca 1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nueva marca' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Editar/ })).toBeNull();
  });
});
