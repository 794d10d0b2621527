import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceFormDialog } from '../../components/crud/resource-form-dialog';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { screen as segmentsScreen } from './marketing-segments-screen';

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

const SEGMENT = '00000000-0000-4000-8000-000000000001';
const dates = { createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z' };

describe('the segment editor’s customer filters (decision 0101)', () => {
  it('edits sentiment, complaint, orders, revenue and days; a backwards range is refused in Spanish before saving; the preview counts them', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.path === '/marketing-segments/preview') return { status: 200, body: { count: 42, sample: [] } };
      if (call.method === 'POST' && call.path === '/marketing-segments') return { status: 201, body: { _id: SEGMENT, ...(call.body as object), ...dates } };
      return undefined;
    });
    renderApp(<ResourceFormDialog config={segmentsScreen} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo segmento' });
    for (const label of ['Último sentimiento', 'Último motivo de consulta', 'Ingresos pagados (mínimo)', 'Ingresos pagados (máximo)', 'Días desde el último pedido (máximo)', 'Días desde su último mensaje (mínimo)']) {
      expect(within(dialog).getByLabelText(new RegExp(`^${label.replace(/[()]/g, '\\$&')}`))).toBeTruthy();
    }
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Compradores contentos');
    await user.type(within(dialog).getByLabelText(/^Pedidos \(mínimo\)/), '3');
    await user.type(within(dialog).getByLabelText(/^Pedidos \(máximo\)/), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('El mínimo de pedidos no puede ser mayor que el máximo')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/marketing-segments')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(/^Pedidos \(máximo\)/));
    await user.type(within(dialog).getByLabelText(/^Pedidos \(máximo\)/), '9');
    await user.click(within(dialog).getByLabelText(/^Excluir con reclamo abierto/));
    await user.type(within(dialog).getByLabelText(/^Días desde su último mensaje \(máximo\)/), '30');
    await user.type(within(dialog).getByLabelText(/^Ingresos pagados \(mínimo\)/), '150.5');
    const wanted = { ordersMin: 3, ordersMax: 9, excludeOpenComplaint: true, daysSinceMessageMax: 30, revenueMin: 150.5 };
    await waitFor(() => expect(calls.filter((c) => c.path === '/marketing-segments/preview').at(-1)?.body).toMatchObject({ filters: wanted }), { timeout: 5000 });
    expect((await within(dialog).findByRole('status')).textContent).toContain('42');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === '/marketing-segments')?.body).toMatchObject({ name: 'Compradores contentos', filters: wanted }));
  });
});
