import type { WebhookDeadLetter } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { DeadLettersPage } from './dead-letters-page';

const failed: WebhookDeadLetter = {
  _id: '00000000-0000-4000-8000-000000000071',
  provider: 'whatsapp',
  type: 'message',
  eventId: 'wamid.HBgLNTE5ODc2NTQzMjEVAgASGBQz',
  status: 'failed',
  error: 'ZodError: platformUserId: El texto es demasiado largo',
  attempts: 6,
  summary: 'Ana Rojas: Hola, ¿tienen stock?',
  receivedAt: '2025-03-14T15:30:00.000Z',
};
const everything = { integrations: ['list', 'read', 'create', 'update', 'delete'] };

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('DeadLettersPage (/whatsapp/fallidos)', () => {
  it('lists failed events with provider, type, date, summary and error, and replays one', async () => {
    let events = [failed];
    const api = fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: everything } };
      if (call.method === 'GET' && call.path === '/webhooks/dead-letters') return { status: 200, body: { payload: events } };
      if (call.method === 'POST' && call.path === `/webhooks/dead-letters/${failed._id}/replay`) {
        events = [];
        return { status: 200, body: { ...failed, status: 'pending', attempts: 0 } };
      }
      return { status: 404, body: {} };
    });
    renderApp(<DeadLettersPage />, { route: '/whatsapp/fallidos' });
    const card = await screen.findByTestId('dead-letter');
    expect(within(card).getByText('WhatsApp')).toBeTruthy();
    expect(within(card).getByText('Mensaje')).toBeTruthy();
    expect(within(card).getByText('Ana Rojas: Hola, ¿tienen stock?')).toBeTruthy();
    expect(within(card).getByText(/demasiado largo/)).toBeTruthy();
    expect(within(card).getByText(/6 intentos/)).toBeTruthy();
    expect(within(card).getByText(/2025/)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('No hay eventos fallidos. Todo lo que enviaron los proveedores se procesó.')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST' && c.path === `/webhooks/dead-letters/${failed._id}/replay`)).toBe(true);
  });

  it('says when there is nothing, and when the list cannot be loaded', async () => {
    fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: everything } };
      return { status: 500, body: { errors: { msg: 'Error interno' } } };
    });
    renderApp(<DeadLettersPage />, { route: '/whatsapp/fallidos' });
    expect(await screen.findByText('No se pudieron cargar los eventos fallidos.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });
});
