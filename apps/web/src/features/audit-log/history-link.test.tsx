import { resources } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceFormDialog } from '../../components/crud/resource-form-dialog';
import { defineScreen } from '../../components/crud/types';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { OrderDetailDrawer } from '../orders/order-detail-drawer';
import { AuditLogPage } from './audit-log-page';

const id = '00000000-0000-4000-8000-000000000001';
const brands = defineScreen({
  subtitle: '',
  emptyMessage: '',
  noResultsMessage: '',
  resource: resources.brands,
  title: 'Marcas',
  newLabel: 'Nueva marca',
  editLabel: 'Editar marca',
  columns: ['name'],
});
const brand = { _id: id, name: 'Gloria', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };
const order = {
  _id: id,
  code: 'P-7F3A2C',
  status: 'created',
  source: 'catalogo',
  customerName: 'María Quispe',
  telefono: '51987654321',
  items: [],
  subtotal: 10,
  total: 10,
  currency: 'PEN',
  createdAt: '2025-03-14T15:30:00Z',
  updatedAt: '2025-03-14T15:30:00Z',
};
const owner = { role: 'admin', permissions: { audit: ['list'], catalog: ['list', 'read', 'update', 'delete'] } };
const agent = { role: 'agente', permissions: { catalog: ['list', 'read', 'update'] } };

/** The role's permissions, the order, and an audit log that answers one entry for whatever it is asked. */
function serve(role: typeof owner | typeof agent) {
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: role };
    if (call.path === `/orders/${id}`) return { status: 200, body: order };
    if (call.path === '/audit-log')
      return {
        status: 200,
        body: {
          payload: [
            {
              _id: '1',
              at: '2026-12-02T15:00:00.000Z',
              actor: { type: 'user', id, name: 'Ana Administradora' },
              action: 'update',
              entity: call.query.get('entity'),
              entityId: call.query.get('entityId'),
              changes: { name: { from: 'Antes', to: 'Después' } },
              ip: null,
              userAgent: null,
            },
          ],
        },
      };
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('«Historial»: a record\'s entries in the audit log, from its screen', () => {
  it('the edit dialog links to /auditoria filtered to the record, and the log applies that filter', async () => {
    const user = userEvent.setup();
    const { calls } = serve(owner);
    renderApp(
      <Routes>
        <Route path="/" element={<ResourceFormDialog config={brands} record={brand} open onClose={() => undefined} />} />
        <Route path="/auditoria" element={<AuditLogPage />} />
      </Routes>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Editar marca' });
    const link = await within(dialog).findByRole('link', { name: 'Historial' });
    expect(link.getAttribute('href')).toBe(`/auditoria?entity=brands&entityId=${id}`);

    await user.click(link);
    expect(await screen.findByRole('table', { name: 'Registro de auditoría' })).toBeTruthy();
    const asked = calls.find((c) => c.path === '/audit-log');
    expect(asked?.query.get('entity')).toBe('brands');
    expect(asked?.query.get('entityId')).toBe(id);
    // the filters show what the URL says
    expect(screen.getByRole('combobox', { name: 'Entidad' }).textContent).toBe('Marcas');
    expect((screen.getByLabelText('Id del registro') as HTMLInputElement).value).toBe(id);
  });

  it('is not in the new record\'s dialog, nor for a role without the audit log', async () => {
    serve(owner);
    const { unmount } = renderApp(<ResourceFormDialog config={brands} open onClose={() => undefined} />);
    const created = await screen.findByRole('dialog', { name: 'Nueva marca' });
    await expect.poll(() => screen.queryByRole('button', { name: 'Guardar' })).toBeTruthy();
    expect(within(created).queryByRole('link', { name: 'Historial' })).toBeNull();
    unmount();
    vi.restoreAllMocks();

    const { calls } = serve(agent);
    renderApp(<ResourceFormDialog config={brands} record={brand} open onClose={() => undefined} />);
    const edited = await screen.findByRole('dialog', { name: 'Editar marca' });
    await expect.poll(() => calls.some((c) => c.path === '/permissions')).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(within(edited).queryByRole('link', { name: 'Historial' })).toBeNull();
  });

  it('the order drawer links to the order\'s history for a role with the audit log, and not for one without', async () => {
    serve(owner);
    const { unmount } = renderApp(<OrderDetailDrawer id={id} onClose={() => undefined} />);
    const link = await screen.findByRole('link', { name: 'Historial' });
    expect(link.getAttribute('href')).toBe(`/auditoria?entity=orders&entityId=${id}`);
    unmount();
    vi.restoreAllMocks();

    const { calls } = serve(agent);
    renderApp(<OrderDetailDrawer id={id} onClose={() => undefined} />);
    expect(await screen.findByText('María Quispe')).toBeTruthy();
    await expect.poll(() => calls.some((c) => c.path === '/permissions')).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('link', { name: 'Historial' })).toBeNull();
  });
});
