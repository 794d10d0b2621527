import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { OrderStatusActions } from './order-status-actions';

const admin = { role: 'admin', permissions: { catalog: ['list', 'read', 'update', 'delete'], chats: ['list', 'read'] } };
const agent = { role: 'agente', permissions: { catalog: ['list', 'read'], chats: ['list', 'read'] } };
const ORDER_ID = '00000000-0000-4000-8000-000000000701';

/** A fake API: the role's permissions, and POST /orders/{id}/status answered by `move`. */
function serve(role: typeof admin | typeof agent, move: (call: FakeCall) => { status: number; body: unknown } = (call) => ({ status: 200, body: { _id: ORDER_ID, status: (call.body as { status: string }).status } })) {
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: role };
    if (call.method === 'POST' && call.path === `/orders/${ORDER_ID}/status`) return move(call);
    return undefined;
  });
}

const actions = (status: string) => renderApp(<OrderStatusActions order={{ _id: ORDER_ID, code: 'P-7F3A2C', status }} />);

/** The buttons of the «Cambiar estado» group, by name. */
async function buttonNames(): Promise<string[]> {
  const group = await screen.findByRole('group', { name: 'Cambiar estado' });
  return within(group)
    .getAllByRole('button')
    .map((b) => b.textContent ?? '');
}

const moves = (calls: FakeCall[]) => calls.filter((c) => c.method === 'POST').map((c) => c.body);

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});

describe('OrderStatusActions', () => {
  it.each([
    ['created', ['Marcar como pagada', 'Marcar como enviada', 'Cancelar orden']],
    ['paid', ['Marcar como enviada', 'Cancelar orden']],
    ['shipped', ['Marcar como completada']],
  ])('offers only the moves decision 0032 allows from %s', async (status, expected) => {
    serve(admin);
    actions(status);
    expect(await buttonNames()).toEqual(expected);
  });

  it.each([
    ['done', 'Orden completada: ya no cambia de estado.'],
    ['cancelled', 'Orden cancelada: sus unidades volvieron al stock.'],
  ])('offers no move from a final status (%s) and says why', async (status, note) => {
    serve(admin);
    actions(status);
    expect(await screen.findByText(note)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Cambiar estado' })).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('moves the order with POST /orders/{id}/status and says «Registro actualizado con éxito»', async () => {
    const user = userEvent.setup();
    const { calls } = serve(admin);
    actions('created');
    await user.click(await screen.findByRole('button', { name: 'Marcar como pagada' }));
    expect(await screen.findByText('Registro actualizado con éxito')).toBeTruthy();
    expect(moves(calls)).toEqual([{ status: 'paid' }]);
  });

  it('asks before cancelling, in a dialog whose button says what it does; «Volver» leaves the order as it was', async () => {
    const user = userEvent.setup();
    const { calls } = serve(admin);
    actions('paid');
    await user.click(await screen.findByRole('button', { name: 'Cancelar orden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Advertencia' });
    expect(dialog.textContent).toContain('La orden P-7F3A2C pasará a cancelada y sus unidades volverán al stock');
    await user.click(within(dialog).getByRole('button', { name: 'Volver' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(moves(calls)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Cancelar orden' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Advertencia' })).getByRole('button', { name: 'Cancelar orden' }));
    expect(await screen.findByText('Registro actualizado con éxito')).toBeTruthy();
    expect(moves(calls)).toEqual([{ status: 'cancelled' }]);
  });

  it("shows the server's Spanish reason when it refuses a move", async () => {
    const user = userEvent.setup();
    serve(admin, () => ({
      status: 400,
      body: { errors: { code: 'VALIDATION', msg: 'Una orden pagada no puede pasar a enviada', details: [{ path: 'status', msg: 'Cambio de estado no permitido' }] } },
    }));
    actions('paid');
    await user.click(await screen.findByRole('button', { name: 'Marcar como enviada' }));
    expect(await screen.findByText(/Una orden pagada no puede pasar a enviada/)).toBeTruthy();
    expect(screen.queryByText('Registro actualizado con éxito')).toBeNull();
  });

  it('shows no moves to a role that only reads orders (agents)', async () => {
    const { calls } = serve(agent);
    actions('created');
    // the permissions arrived and said no
    await expect.poll(() => calls.some((c) => c.path === '/permissions')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('group', { name: 'Cambiar estado' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Marcar como pagada' })).toBeNull();
  });
});
