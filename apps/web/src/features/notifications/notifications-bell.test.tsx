import type { NotificationOut } from '@mostrador/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeMessage } from '../../lib/realtime';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { NotificationsBell } from './notifications-bell';

const realtime = vi.hoisted(() => ({ handler: null as null | ((m: RealtimeMessage) => void) }));
vi.mock('../../lib/realtime', () => ({
  useRealtimeEvents: (handler: (m: RealtimeMessage) => void) => {
    realtime.handler = handler;
  },
}));
const emit = (event: RealtimeMessage) => act(() => realtime.handler?.(event));

const notice = (n: number, over: Partial<NotificationOut> = {}): NotificationOut => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  kind: 'webhook_subscription.paused',
  title: 'Se pausó una suscripción de webhooks',
  body: `La suscripción a https://erp${n}.ejemplo.pe/hooks dejó de recibir eventos.`,
  link: '/configuracion/webhooks',
  readAt: null,
  createdAt: new Date(Date.now() - n * 3600_000).toISOString(),
  ...over,
});
const admin = { role: 'admin', permissions: { chats: ['list'], api: ['list'] } };

/** The bell's API: the list as `state` holds it, read and read-all change it. */
function serve(state: { list: NotificationOut[] }) {
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: admin };
    if (call.method === 'GET' && call.path === '/notifications') return { status: 200, body: { payload: state.list, unread: state.list.filter((n) => !n.readAt).length } };
    if (call.method === 'POST' && call.path === '/notifications/read-all') {
      const updated = state.list.filter((n) => !n.readAt).length;
      state.list = state.list.map((n) => ({ ...n, readAt: n.readAt ?? new Date().toISOString() }));
      return { status: 200, body: { updated } };
    }
    const one = state.list.find((n) => call.path === `/notifications/${n._id}/read`);
    if (call.method === 'POST' && one) {
      state.list = state.list.map((n) => (n === one ? { ...n, readAt: new Date().toISOString() } : n));
      return { status: 200, body: state.list.find((n) => n._id === one._id) };
    }
    return undefined;
  });
}

beforeEach(() => {
  realtime.handler = null;
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1', user: { _id: 'user-1', first_name: 'Ana', last_name: 'Díaz' } as never }));
});
afterEach(() => vi.restoreAllMocks());

describe('the header’s bell', () => {
  it('shows the unread count, lists the notices, opens one where it is dealt with and marks it read; «Marcar todas como leídas»', async () => {
    const user = userEvent.setup();
    const state = { list: [notice(1), notice(2), notice(3, { readAt: '2026-12-01T10:00:00.000Z' })] };
    const { calls } = serve(state);
    renderApp(<NotificationsBell />);
    const bell = await screen.findByRole('button', { name: 'Avisos (2 sin leer)' });
    expect(within(bell).getByText('2')).toBeTruthy();

    await user.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Avisos' });
    const items = within(panel).getAllByRole('link');
    expect(items).toHaveLength(3);
    expect(items[0].getAttribute('href')).toBe('/configuracion/webhooks');
    expect(within(items[0]).getByText(/Se pausó una suscripción de webhooks/)).toBeTruthy();
    expect(within(items[0]).getByText(/erp1\.ejemplo\.pe/)).toBeTruthy();
    expect(within(items[0]).getByText('hace 1 h')).toBeTruthy();
    expect(within(items[0]).getByText(/sin leer/)).toBeTruthy();
    expect(within(items[2]).queryByText(/sin leer/)).toBeNull();

    await user.click(items[0]);
    expect(calls.some((c) => c.method === 'POST' && c.path === `/notifications/${notice(1)._id}/read`)).toBe(true);
    expect(await screen.findByRole('button', { name: 'Avisos (1 sin leer)' })).toBeTruthy();
    // it closed to go where the notice says; opened again, the rest are marked at once
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Avisos' })).toBeNull());
    await user.click(screen.getByRole('button', { name: /^Avisos/ }));
    await user.click(await screen.findByRole('button', { name: 'Marcar todas como leídas' }));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/notifications/read-all')).toBe(true);
    expect(await screen.findByRole('button', { name: 'Avisos', hidden: true })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Marcar todas como leídas' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says when there is nothing, and a notice for this person arrives live (not another person’s)', async () => {
    const user = userEvent.setup();
    serve({ list: [] });
    renderApp(<NotificationsBell />);
    await user.click(await screen.findByRole('button', { name: 'Avisos' }));
    expect(await screen.findByText('No tienes avisos')).toBeTruthy();
    await waitFor(() => expect(realtime.handler).not.toBeNull());

    emit({ type: 'notification.created', userId: 'user-2', notification: notice(4) });
    expect(screen.getByText('No tienes avisos')).toBeTruthy();
    emit({ type: 'notification.created', userId: 'user-1', notification: notice(5) });
    expect(await screen.findByText(/erp5\.ejemplo\.pe/)).toBeTruthy();
    // the bell behind the open panel (hidden from the accessibility tree while it is open)
    expect(screen.getByRole('button', { name: 'Avisos (1 sin leer)', hidden: true })).toBeTruthy();
    expect(screen.queryByText('No tienes avisos')).toBeNull();
  });
});
