import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as groupsScreen } from './telegram-groups-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';

function serve(permissions: object) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/telegram-groups') return { status: 200, body: pageOf([]) };
    if (call.method === 'GET' && call.path === '/telegram/settings') return { status: 200, body: { configured: true, botUsername: 'mostrador_sandbox_bot', tokenHint: 'sandbox…-bot', sandbox: true } };
    if (call.method === 'POST' && call.path === '/telegram/groups/check') {
      const { chatId } = call.body as { chatId: string };
      if (chatId === '@ventas_lima') return { status: 200, body: { chatId: '-1001', title: 'Ventas Lima', type: 'supergroup' } };
      return { status: 400, body: { errors: { code: 'VALIDATION', msg: 'Telegram no encuentra el grupo: revisa el id o el @usuario y que el bot esté en el grupo' } } };
    }
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));

describe('/telegram/grupos', () => {
  it('shows the bot and, while a group is typed, what Telegram says of it', async () => {
    const { calls } = serve({ messaging: ['list', 'read', 'create', 'update', 'delete'], integrations: ['list', 'read', 'update'] });
    renderApp(<ResourceListPage config={groupsScreen} />, { route: '/telegram/grupos' });
    expect(await screen.findByText(/@mostrador_sandbox_bot/)).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Nuevo grupo de Telegram' }));
    const chat = await screen.findByRole('textbox', { name: /Id del chat o @usuario/ });
    await userEvent.type(chat, '@ventas_lima');
    expect(await screen.findByText('Telegram: «Ventas Lima» · Supergrupo', {}, { timeout: 3000 })).toBeTruthy();
    await userEvent.clear(chat);
    await userEvent.type(chat, '-1999');
    expect(await screen.findByText('Telegram no encuentra el grupo: revisa el id o el @usuario y que el bot esté en el grupo', {}, { timeout: 3000 })).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.path === '/telegram/groups/check').length).toBeGreaterThanOrEqual(2));
  });

  it('a role without the integrations does not see the bot', async () => {
    const { calls } = serve({ messaging: ['list', 'read'] });
    renderApp(<ResourceListPage config={groupsScreen} />, { route: '/telegram/grupos' });
    expect(await screen.findByText('Aún no hay grupos de Telegram')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Bot de Telegram' })).toBeNull();
    expect(calls.some((c) => c.path === '/telegram/settings')).toBe(false);
  });
});
