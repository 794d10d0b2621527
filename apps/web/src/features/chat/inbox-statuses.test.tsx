import type { ChatState, ChatStatus, ChatSummary, InboxCounts } from '@mostrador/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeMessage } from '../../lib/realtime';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { ChatPage } from './chat-page';
import { ids, summary, thread } from './test-fixtures';

const realtime = vi.hoisted(() => ({ handler: null as null | ((m: RealtimeMessage) => void) }));
vi.mock('../../lib/realtime', () => ({
  useRealtimeEvents: (handler: (m: RealtimeMessage) => void) => {
    realtime.handler = handler;
  },
}));
vi.setConfig({ testTimeout: 15_000 });

/**
 * The inbox by status (issue 29, decision 0076): «Estado» (Abiertos by default, Pospuestos,
 * Resueltos, Todos) in the address as ?estado=, with its counts and an empty state per status;
 * a chat resolved or snoozed under Abiertos leaves the list, and «Deshacer» opens it again.
 */
const all = ['list', 'read', 'create', 'update', 'delete'];
const admin = { role: 'admin', permissions: { chats: all, leads: all } };
const byStatus = { open: 7, snoozed: 2, closed: 40 };

function serve(chats: ChatSummary[]) {
  const server = { chats };
  const stateOf = (chat: ChatSummary): ChatState => ({
    chatId: chat._id,
    platform: chat.platform,
    channel: 'whatsapp',
    state: 'open',
    canSend: true,
    status: chat.status,
  });
  const api = fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: admin };
    if (call.path === '/chats/get_chats') {
      const status = call.query.get('status');
      return { status: 200, body: pageOf(server.chats.filter((c) => !status || c.status === status), { limit: 10 }) };
    }
    if (call.path === '/chats/counts') {
      const counts: InboxCounts = { mine: 0, unassigned: 3, all: 7, byStatus };
      return { status: 200, body: counts };
    }
    const thread_ = /^\/chats\/([^/]+)\/messages$/.exec(call.path);
    if (thread_) {
      const chat = server.chats.find((c) => c._id === thread_[1]);
      return chat ? { status: 200, body: thread(chat, []) } : undefined;
    }
    const state = /^\/chats\/([^/]+)\/state$/.exec(call.path);
    if (state) {
      const chat = server.chats.find((c) => c._id === state[1]);
      return chat ? { status: 200, body: stateOf(chat) } : undefined;
    }
    const status = /^\/chats\/([^/]+)\/status$/.exec(call.path);
    if (status && call.method === 'POST') {
      const body = call.body as { status: ChatStatus; snoozedUntil?: string };
      server.chats = server.chats.map((c) => (c._id === status[1] ? { ...c, status: body.status } : c));
      const chat = server.chats.find((c) => c._id === status[1]);
      return chat ? { status: 200, body: { ...stateOf(chat), snoozedUntil: body.snoozedUntil } } : undefined;
    }
    if (/^\/chats\/[^/]+\/read$/.test(call.path)) return { status: 200, body: server.chats[0] };
    if (call.path === '/chats/get_all_by_cleanlead_id') return { status: 200, body: { payload: [] } };
    if (['/agentes', '/mostrador-labels', '/users/chat_groups'].includes(call.path)) return { status: 200, body: pageOf([]) };
    return undefined;
  });
  return { ...api, server };
}

function Where() {
  return <output data-testid="where">{useLocation().search}</output>;
}
const where = () => screen.getByTestId('where').textContent ?? '';
const listCalls = (calls: FakeCall[]) => calls.filter((c) => c.path === '/chats/get_chats');

async function pickStatus(label: string) {
  await userEvent.click(screen.getByRole('combobox', { name: 'Estado' }));
  await userEvent.click(await screen.findByRole('option', { name: new RegExp(`^${label}`) }));
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('the inbox «Estado»', () => {
  it('asks for open chats by default, shows each status with its count, and keeps the choice in ?estado=', async () => {
    const { calls } = serve([summary(), summary({ _id: ids.chat2, contactName: 'Luis Paredes', status: 'snoozed' })]);
    renderApp(
      <>
        <ChatPage />
        <Where />
      </>,
      { route: '/chat' },
    );
    const items = await screen.findAllByTestId('chat-item');
    expect(items.map((i) => within(i).getByText(/María|Luis/).textContent)).toEqual(['María Fernández']);
    expect(listCalls(calls)[0]?.query.get('status')).toBe('open');
    expect(screen.getByRole('combobox', { name: 'Estado' }).textContent).toBe('Abiertos');
    // the counts per status, asked with the list's status and tab
    await waitFor(() => expect(calls.some((c) => c.path === '/chats/counts' && c.query.get('status') === 'open')).toBe(true));
    await userEvent.click(screen.getByRole('combobox', { name: 'Estado' }));
    expect((await screen.findByTestId('inbox-status-count-open')).textContent).toBe('7');
    expect(screen.getByTestId('inbox-status-count-snoozed').textContent).toBe('2');
    expect(screen.getByTestId('inbox-status-count-closed').textContent).toBe('40');
    expect(screen.getByTestId('inbox-status-count-all').textContent).toBe('49');
    await userEvent.click(screen.getByRole('option', { name: /^Pospuestos/ }));
    await waitFor(() => expect(where()).toBe('?estado=pospuestos'));
    await waitFor(() => expect(screen.getAllByTestId('chat-item').map((i) => within(i).getByText(/María|Luis/).textContent)).toEqual(['Luis Paredes']));
    expect(listCalls(calls).at(-1)?.query.get('status')).toBe('snoozed');
    // Todos asks without a status; Abiertos is the address without ?estado=
    await pickStatus('Todos');
    await waitFor(() => expect(where()).toBe('?estado=todos'));
    await waitFor(() => expect(screen.getAllByTestId('chat-item')).toHaveLength(2));
    expect(listCalls(calls).at(-1)?.query.has('status')).toBe(false);
    await pickStatus('Abiertos');
    await waitFor(() => expect(where()).toBe(''));
    // opening a chat keeps the status chosen
    await pickStatus('Pospuestos');
    await userEvent.click((await screen.findAllByTestId('chat-item'))[0] as HTMLElement);
    await waitFor(() => expect(new URLSearchParams(where()).get('estado')).toBe('pospuestos'));
    expect(new URLSearchParams(where()).get('chatId')).toBe(ids.chat2);
  });

  it('opens on the status of the address, with its own empty state', async () => {
    const { calls } = serve([summary()]);
    renderApp(<ChatPage />, { route: '/chat?estado=resueltos' });
    expect(await screen.findByText('No hay chats resueltos')).toBeTruthy();
    expect(screen.getByText(/Los chats que marques como resueltos aparecen aquí/)).toBeTruthy();
    expect(listCalls(calls)[0]?.query.get('status')).toBe('closed');
    await pickStatus('Pospuestos');
    expect(await screen.findByText('No hay chats pospuestos')).toBeTruthy();
  });

  it('an empty Abiertos of a company with chats says it is all done, not how to connect WhatsApp', async () => {
    serve([summary({ status: 'closed' })]);
    renderApp(<ChatPage />, { route: '/chat' });
    expect(await screen.findByText('No hay chats abiertos')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Conectar WhatsApp' })).toBeNull();
  });
});

describe('a chat leaving «Abiertos»', () => {
  it('resolved: it leaves the list and «Deshacer» opens it again', async () => {
    const { calls } = serve([summary(), summary({ _id: ids.chat2, contactName: 'Luis Paredes' })]);
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await waitFor(() => expect(screen.getAllByTestId('chat-item')).toHaveLength(2));
    await userEvent.click(await screen.findByRole('button', { name: 'Marcar como resuelto' }));
    const toast = await screen.findByTestId('chat-left-toast');
    expect(toast.textContent).toContain('Chat resuelto: salió de los abiertos');
    await waitFor(() => expect(screen.getAllByTestId('chat-item').map((i) => i.dataset.chatId)).toEqual([ids.chat2]));
    // the toast says it; no second «updated» snackbar
    expect(screen.queryByTestId('success-snackbar')).toBeNull();
    await userEvent.click(within(toast).getByRole('button', { name: 'Deshacer' }));
    await waitFor(() => expect(calls.filter((c) => c.path === `/chats/${ids.chat1}/status`).map((c) => c.body)).toEqual([{ status: 'closed' }, { status: 'open' }]));
    await waitFor(() => expect(screen.getAllByTestId('chat-item').map((i) => i.dataset.chatId).sort()).toEqual([ids.chat1, ids.chat2].sort()));
    await waitFor(() => expect(screen.queryByTestId('chat-left-toast')).toBeNull());
  });

  it('snoozed: the toast says until when, and the emptied Abiertos says all is done', async () => {
    serve([summary()]);
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('chat-item');
    await userEvent.click(await screen.findByRole('button', { name: 'Acciones del chat' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Posponer 1 hora' }));
    expect((await screen.findByTestId('chat-left-toast')).textContent).toMatch(/^Chat pospuesto hasta .+: salió de los abiertos/);
    await waitFor(() => expect(screen.queryByTestId('chat-item')).toBeNull());
    expect(await screen.findByText('No hay chats abiertos')).toBeTruthy();
  });

  it('under Todos a resolved chat stays in the list, without the toast', async () => {
    serve([summary()]);
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}&estado=todos` });
    await screen.findByTestId('chat-item');
    await userEvent.click(await screen.findByRole('button', { name: 'Marcar como resuelto' }));
    expect(await screen.findByTestId('success-snackbar')).toBeTruthy();
    expect(screen.queryByTestId('chat-left-toast')).toBeNull();
    expect(screen.getAllByTestId('chat-item')).toHaveLength(1);
  });

  it('«Elegir fecha…» snoozes until a date and time on the company’s clock', async () => {
    const company = { _id: 'company-1', name: 'Demo Perú', country: 'PE' as const, timezone: 'America/Lima' };
    sessionStore.set((st) => ({ ...st, user: { _id: 'u1', first_name: 'Ana', last_name: 'Díaz', corporation: { companies: [{ company, default: true, role: 'admin' as const }] } } as never }));
    const { calls } = serve([summary()]);
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('chat-item');
    await userEvent.click(await screen.findByRole('button', { name: 'Acciones del chat' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Elegir fecha…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Posponer hasta' });
    expect(within(dialog).getByText('En la hora de la compañía (America/Lima). Hasta 90 días.')).toBeTruthy();
    const input = within(dialog).getByTestId('snooze-pick-input');
    // a past time is refused in Spanish, nothing is sent
    fireEvent.change(input, { target: { value: '2020-01-01T09:00' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Posponer' }));
    expect(within(dialog).getByText('La fecha debe ser futura')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/status'))).toBe(false);
    // 9:00 in Lima is 14:00 UTC, whatever this machine's zone
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    fireEvent.change(input, { target: { value: `${day}T09:00` } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Posponer' }));
    await waitFor(() => expect(calls.find((c) => c.path === `/chats/${ids.chat1}/status`)?.body).toEqual({ status: 'snoozed', snoozedUntil: `${day}T14:00:00.000Z` }));
    expect((await screen.findByTestId('chat-left-toast')).textContent).toMatch(/^Chat pospuesto hasta .+9:00.+: salió de los abiertos/);
  });

  it('a chat that comes back (its snooze ended, the customer wrote) appears in Abiertos by itself', async () => {
    const { server, calls } = serve([summary(), summary({ _id: ids.chat2, contactName: 'Luis Paredes', status: 'snoozed' })]);
    renderApp(<ChatPage />, { route: '/chat' });
    await waitFor(() => expect(screen.getAllByTestId('chat-item').map((i) => i.dataset.chatId)).toEqual([ids.chat1]));
    const before = listCalls(calls).length;
    server.chats = server.chats.map((c) => ({ ...c, status: 'open' }));
    await act(() => realtime.handler?.({ type: 'chat.updated', chat: { ...(server.chats[1] as ChatSummary) } }));
    await waitFor(() => expect(screen.getAllByTestId('chat-item')).toHaveLength(2));
    expect(listCalls(calls).length).toBeGreaterThan(before);
    // and one resolved elsewhere leaves it at once
    await act(() => realtime.handler?.({ type: 'chat.updated', chat: { ...(server.chats[0] as ChatSummary), status: 'closed' } }));
    await waitFor(() => expect(screen.getAllByTestId('chat-item').map((i) => i.dataset.chatId)).toEqual([ids.chat2]));
  });
});
