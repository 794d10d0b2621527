import type { ChatSummary } from '@mostrador/contract';
import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../lib/session';
import { renderApp } from '../../test/render';
import { storeChatSummary } from '../chat/hooks/use-chat-data';
import { CleanLeadDrawer } from './clean-lead-drawer';
import { serveLeads, uid } from './test-server';

const person = { _id: uid(501), name: 'María Fernández', telefono: '51987001122', details: [], createdAt: '', updatedAt: '' };
const chat: ChatSummary = {
  _id: uid(401),
  contactName: 'María',
  platform: 'whatsapp',
  status: 'open',
  unreadCount: 0,
  lastMessagePreview: 'Hola',
  createdAt: '',
  updatedAt: '',
} as ChatSummary;

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});

describe('CleanLeadDrawer', () => {
  it("shows the person's chats from the chat screen's cache, so a new message shows here too", async () => {
    serveLeads([], (call) => {
      if (call.path === `/clean-leads/${person._id}`) return { status: 200, body: person };
      if (call.path === '/chats/get_all_by_cleanlead_id') return { status: 200, body: { payload: [chat] } };
      return undefined;
    });
    const { queryClient } = renderApp(<CleanLeadDrawer id={person._id} onClose={() => {}} />);
    const drawer = await screen.findByRole('dialog', { name: 'María Fernández' });
    const link = await within(drawer).findByRole('link', { name: /WhatsApp · María/ });
    expect(link.textContent).toContain('Hola');

    act(() => storeChatSummary(queryClient, 'company-1', { ...chat, lastMessagePreview: 'Ya llegó mi pedido' }));
    expect(await within(drawer).findByText(/Ya llegó mi pedido/)).toBeTruthy();
  });

  it('says so in one line when the chats do not load, and still shows the person', async () => {
    serveLeads([], (call) => {
      if (call.path === `/clean-leads/${person._id}`) return { status: 200, body: person };
      if (call.path === '/chats/get_all_by_cleanlead_id') return { status: 500, body: { msg: 'Error interno' } };
      return undefined;
    });
    renderApp(<CleanLeadDrawer id={person._id} onClose={() => {}} />);
    const drawer = await screen.findByRole('dialog', { name: 'María Fernández' });
    expect(await within(drawer).findByText('No se pudieron cargar los chats.')).toBeTruthy();
    expect(within(drawer).getByText('51987001122')).toBeTruthy();
  });
});
