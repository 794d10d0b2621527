import { type Page, resources } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { ResourceListPage } from './resource-list-page';
import { defineScreen, type ListViewContext, type ResourceRecord } from './types';
import { withFieldChange } from './use-resource';

/** The extensions lead screens use: fixed filters, toolbar, row actions, inline cells, a filter bar. */
const campaigns = defineScreen({
  resource: resources['marketing-campaigns'],
  title: 'Campañas',
  subtitle: 'Campañas',
  newLabel: 'Nueva campaña',
  editLabel: 'Editar campaña',
  emptyMessage: 'No hay campañas pendientes',
  noResultsMessage: 'Ninguna campaña coincide',
  columns: ['name', { field: 'status', inline: true }],
  fields: { status: { options: { pending: 'Pendiente', processing: 'En proceso', sent: 'Enviado', error: 'Error', sent_with_some_errors: 'Con errores' } } },
  filters: { status: 'pending' },
  toolbar: (query) => <span data-testid="toolbar">{JSON.stringify(query)}</span>,
  rowActions: (row) => <button type="button">{`Abrir ${row.name}`}</button>,
});

const campaign = (i: number, status = 'pending'): ResourceRecord => ({
  _id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `Campaña ${i}`,
  status,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
});

function serve(records: ResourceRecord[], permissions: object = { marketing: ['list', 'read', 'update'] }) {
  const rows = records.map((r) => ({ ...r }));
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/marketing-campaigns') {
      const status = call.query.get('status');
      const body: Page<ResourceRecord> = pageOf(rows.filter((r) => !status || r.status === status));
      return { status: 200, body };
    }
    if (call.method === 'PUT') {
      const row = rows.find((r) => call.path.endsWith(r._id));
      if (!row) return undefined;
      Object.assign(row, call.body);
      return { status: 200, body: row };
    }
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('ResourceListPage extensions', () => {
  it('sends the fixed filters, shows the empty message for them, and hands the query to the toolbar', async () => {
    const { calls } = serve([campaign(1, 'sent')]);
    renderApp(<ResourceListPage config={campaigns} />, { route: '/x' });
    expect(await screen.findByTestId('empty-state')).toHaveProperty('textContent', 'No hay campañas pendientes');
    expect(calls.find((c) => c.path === '/marketing-campaigns')?.query.get('status')).toBe('pending');
    expect(JSON.parse(screen.getByTestId('toolbar').textContent ?? '')).toEqual({ status: 'pending' });
  });

  it('reads an empty list with chosen filters as no results, and shows the filter bar', async () => {
    const { calls } = serve([campaign(1)]);
    renderApp(<ResourceListPage config={{ ...campaigns, filters: undefined }} filters={{ status: 'error', other: '' }} filterBar={<p>Barra</p>} />, { route: '/x' });
    expect(await screen.findByTestId('no-results')).toHaveProperty('textContent', 'Ninguna campaña coincide');
    expect(screen.getByText('Barra')).toBeTruthy();
    const list = calls.find((c) => c.path === '/marketing-campaigns');
    expect(list?.query.get('status')).toBe('error');
    expect(list?.query.has('other')).toBe(false);
  });

  it('edits an inline cell with PUT {field}, and the row leaves a list filtered by another value', async () => {
    const user = userEvent.setup();
    const { calls } = serve([campaign(1), campaign(2)]);
    renderApp(<ResourceListPage config={campaigns} />, { route: '/x' });
    expect(await screen.findByText('Campaña 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Abrir Campaña 1' })).toBeTruthy();
    await user.click(await screen.findByRole('combobox', { name: 'Estado: Campaña 1' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Enviado' }));
    expect(await screen.findByText('Registro actualizado con éxito')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([[`/marketing-campaigns/${campaign(1)._id}`, { status: 'sent' }]]);
    await waitFor(() => expect(screen.queryByText('Campaña 1')).toBeNull());
    expect(screen.getByText('Campaña 2')).toBeTruthy();
  });

  it('shows the value, not a select, when the role may not update', async () => {
    serve([campaign(1)], { marketing: ['list', 'read'] });
    renderApp(<ResourceListPage config={campaigns} />, { route: '/x' });
    expect(await screen.findByText('Campaña 1')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Pendiente')).toBeTruthy());
    expect(screen.queryByRole('combobox', { name: /Estado/ })).toBeNull();
  });

  it('chooses rows and the whole page for the screen\'s actions, and clears the choice', async () => {
    const user = userEvent.setup();
    const chosen: string[][] = [];
    serve(Array.from({ length: 3 }, (_, i) => campaign(i + 1)));
    const config = {
      ...campaigns,
      filters: undefined,
      panel: () => <p>Panel de la pantalla</p>,
      selection: {
        actions: (selected: ResourceRecord[], clear: () => void) => (
          <button
            type="button"
            onClick={() => {
              chosen.push(selected.map((r) => String(r.name)));
              clear();
            }}
          >
            Enviar elegidos
          </button>
        ),
      },
    };
    renderApp(<ResourceListPage config={config} />, { route: '/x' });
    expect(screen.getByText('Panel de la pantalla')).toBeTruthy();
    await user.click(await screen.findByRole('checkbox', { name: 'Elegir Campaña 2' }));
    expect(screen.getByTestId('selected-count').textContent).toBe('1 seleccionado');
    await user.click(screen.getByRole('checkbox', { name: 'Elegir todos los de esta página' }));
    expect(screen.getByTestId('selected-count').textContent).toBe('3 seleccionados');
    await user.click(screen.getByRole('checkbox', { name: 'Elegir Campaña 1' }));
    expect(screen.getByRole('checkbox', { name: 'Elegir todos los de esta página' })).toHaveProperty('indeterminate', true);
    await user.click(screen.getByRole('button', { name: 'Enviar elegidos' }));
    expect(chosen).toEqual([['Campaña 2', 'Campaña 3']]);
    expect(screen.queryByTestId('selected-count')).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Elegir Campaña 2' })).toHaveProperty('checked', false);
  });

  it('shows the screen\'s own view instead of the table, with the search text and a create form filled in', async () => {
    const user = userEvent.setup();
    const { calls } = serve([campaign(1)]);
    const config = {
      ...campaigns,
      filters: undefined,
      view: (context: ListViewContext) => (
        <div>
          <p data-testid="view-search">{context.search}</p>
          <button type="button" onClick={() => context.create({ name: 'Desde la vista' })}>
            Crear desde la vista
          </button>
        </div>
      ),
    };
    renderApp(<ResourceListPage config={config} />, { route: '/x?q=rebajas' });
    expect((await screen.findByTestId('view-search')).textContent).toBe('rebajas');
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Crear desde la vista' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('textbox', { name: /^Nombre/ })).toHaveProperty('value', 'Desde la vista');
    // the view reads its own records: the generic list is not asked
    expect(calls.some((c) => c.method === 'GET' && c.path === '/marketing-campaigns')).toBe(false);
  });

  it('withFieldChange updates a row, or drops it (and the total) when a filter no longer matches', () => {
    const page = pageOf([campaign(1), campaign(2)]);
    const id = campaign(1)._id;
    expect(withFieldChange(page, { status: 'pending' }, id, { status: 'sent' }).payload.map((r) => r.name)).toEqual(['Campaña 2']);
    expect(withFieldChange(page, { status: 'pending' }, id, { status: 'sent' }).totalDocs).toBe(1);
    const kept = withFieldChange(page, { sort: 'name' }, id, { status: 'sent' });
    expect(kept.payload[0]?.status).toBe('sent');
    expect(kept.totalDocs).toBe(2);
  });
});
