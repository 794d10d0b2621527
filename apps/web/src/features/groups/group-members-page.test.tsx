import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { GroupMembersPage } from './group-members-page';

vi.setConfig({ testTimeout: 20_000 });

/** /grupos/{id} (issue 11): member changes not saved yet are kept when the page is left, and can be discarded. */
const group = { _id: 'g1', name: 'Ventas Lima', createdAt: '2025-03-14T15:30:00.000Z' };
const users = [
  { _id: 'u1', first_name: 'Ana', last_name: 'Administradora', email: 'admin@demo.com', role: 'admin' },
  { _id: 'u2', first_name: 'Carlos', last_name: 'Agente', email: 'agente@demo.com', role: 'agent' },
];

function serve() {
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { groups: ['list', 'read', 'update'], users: ['list'] } } };
    if (call.path === '/groups/g1') return { status: 200, body: group };
    if (call.path === '/groups/g1/users' && call.method === 'GET') return { status: 200, body: { payload: [users[0]] } };
    if (call.path === '/groups/g1/users/' || call.path === '/groups/g1/users') return { status: 200, body: { payload: [] } };
    if (call.path === '/users') return { status: 200, body: pageOf(users) };
    return undefined;
  });
}

const page = () =>
  renderApp(
    <Routes>
      <Route path="/grupos/:id" element={<GroupMembersPage />} />
    </Routes>,
    { route: '/grupos/g1' },
  );

beforeEach(() => {
  localStorage.clear();
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('group members', () => {
  it('keeps the unsaved choice when the page is left and comes back, until it is discarded', async () => {
    serve();
    const first = page();
    const carlos = await screen.findByRole('checkbox', { name: /Carlos Agente/ });
    expect(screen.queryByTestId('members-unsaved')).toBeNull();
    await userEvent.click(carlos);
    expect(await screen.findByTestId('members-unsaved')).toBeTruthy();
    expect(screen.getByTestId('members-count').textContent).toBe('2 seleccionados');
    first.unmount();

    // back on the page: the choice is still there, marked unsaved
    page();
    expect(await screen.findByTestId('members-unsaved')).toBeTruthy();
    expect((await screen.findByRole('checkbox', { name: /Carlos Agente/ }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(within(screen.getByTestId('members-unsaved')).getByRole('button', { name: 'Descartar cambios' }));
    expect(screen.queryByTestId('members-unsaved')).toBeNull();
    expect((screen.getByRole('checkbox', { name: /Carlos Agente/ }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByTestId('members-count').textContent).toBe('1 seleccionados');
  });

  it('saving sends the chosen members and forgets the draft', async () => {
    const { calls } = serve();
    const first = page();
    await userEvent.click(await screen.findByRole('checkbox', { name: /Carlos Agente/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ userIds: ['u1', 'u2'] });
    first.unmount();
    page();
    await screen.findByRole('checkbox', { name: /Carlos Agente/ });
    expect(screen.queryByTestId('members-unsaved')).toBeNull();
  });
});
