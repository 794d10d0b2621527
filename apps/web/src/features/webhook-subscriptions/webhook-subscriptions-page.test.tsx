import type { WebhookDeliveryOut, WebhookSubscriptionOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from '../../components/ui/confirm-dialog';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { WebhookSubscriptionsPage } from './webhook-subscriptions-page';

const erp: WebhookSubscriptionOut = {
  _id: '00000000-0000-4000-8000-000000000731',
  url: 'https://erp.ejemplo.pe/webhooks/mostrador',
  events: ['order.created', 'lead.created'],
  description: 'ERP contable',
  status: 'paused',
  pausedReason: 'Se pausó sola: sus entregas fallaron durante 24 horas seguidas. Revisa la dirección y reanúdala.',
  pausedAt: '2026-12-01T10:00:00.000Z',
  failingSince: '2026-11-30T10:00:00.000Z',
  createdAt: '2026-11-15T10:00:00.000Z',
  counts: { pending: 2, delivered: 18, failed: 1 },
  lastDeliveryAt: '2026-11-30T09:00:00.000Z',
};
const failed: WebhookDeliveryOut = {
  _id: '00000000-0000-4000-8000-000000000732',
  eventId: '60d0d8c3-0371-4272-a1cc-73ff2ad38fc1',
  eventType: 'order.created',
  status: 'pending',
  attempts: [
    { at: '2026-11-30T10:00:00.000Z', status: 500, latencyMs: 320, error: 'La dirección respondió HTTP 500', excerpt: 'duplicate key' },
    { at: '2026-11-30T10:05:00.000Z', status: null, latencyMs: 10000, error: 'Sin respuesta en 10 s', excerpt: null },
  ],
  nextAttemptAt: '2026-12-05T10:00:00.000Z',
  deliveredAt: null,
  createdAt: '2026-11-30T10:00:00.000Z',
};
const admin = { api: ['list', 'create', 'update', 'delete'] };

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

const render = () =>
  renderApp(
    <ConfirmProvider>
      <WebhookSubscriptionsPage />
    </ConfirmProvider>,
    { route: '/configuracion/webhooks' },
  );

describe('WebhookSubscriptionsPage (/configuracion/webhooks)', () => {
  it('shows a paused subscription with its reason and deliveries, resumes it and sends a delivery again', async () => {
    let subscription = erp;
    const api = fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
      if (call.method === 'GET' && call.path === '/webhook-subscriptions') return { status: 200, body: { payload: [subscription] } };
      if (call.method === 'GET' && call.path === `/webhook-subscriptions/${erp._id}/deliveries`) return { status: 200, body: { payload: [failed] } };
      if (call.method === 'PUT' && call.path === `/webhook-subscriptions/${erp._id}`) {
        subscription = { ...erp, status: 'active', pausedReason: null, pausedAt: null, failingSince: null };
        return { status: 200, body: subscription };
      }
      if (call.method === 'POST' && call.path.endsWith('/redeliver')) return { status: 202, body: { msg: 'Entrega en cola: sale en unos segundos' } };
      return { status: 404, body: {} };
    });
    render();
    const card = await screen.findByTestId('webhook-subscription');
    expect(within(card).getByText('https://erp.ejemplo.pe/webhooks/mostrador')).toBeTruthy();
    expect(within(card).getByText(/fallaron durante 24 horas/)).toBeTruthy();
    expect(within(card).getByText('Se hizo un pedido')).toBeTruthy();
    expect(within(card).getByText('18 entregadas · 2 pendientes · 1 fallidas')).toBeTruthy();

    await userEvent.click(within(card).getByRole('button', { name: 'Entregas' }));
    const delivery = await within(card).findByTestId('webhook-delivery');
    expect(within(delivery).getByText(/Intento 1 .* 500 · 320 ms · La dirección respondió HTTP 500 · «duplicate key»/)).toBeTruthy();
    expect(within(delivery).getByText(/Intento 2 .* sin respuesta · 10000 ms · Sin respuesta en 10 s/)).toBeTruthy();
    expect(within(delivery).getByText(/Próximo intento/)).toBeTruthy();
    await userEvent.click(within(delivery).getByRole('button', { name: 'Reenviar' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.path === `/webhook-subscriptions/${erp._id}/deliveries/${failed._id}/redeliver`)).toBe(true));

    await userEvent.click(within(card).getByRole('button', { name: 'Reanudar' }));
    expect(await within(card).findByText('Activa')).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'active' });
  });

  it('creates a subscription after the contract’s checks and shows its secret once with how to verify it', async () => {
    let list: WebhookSubscriptionOut[] = [];
    const secret = `whsec_${'s'.repeat(43)}`;
    const api = fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
      if (call.method === 'GET' && call.path === '/webhook-subscriptions') return { status: 200, body: { payload: list } };
      if (call.method === 'POST' && call.path === '/webhook-subscriptions') {
        const body = call.body as { url: string; events: string[] };
        const made = { ...erp, _id: 'nueva', url: body.url, events: body.events, status: 'active' as const, pausedReason: null, failingSince: null, counts: { pending: 0, delivered: 0, failed: 0 }, lastDeliveryAt: null };
        list = [made];
        return { status: 201, body: { ...made, secret } };
      }
      return { status: 404, body: {} };
    });
    render();
    expect(await screen.findByText(/Todavía no hay suscripciones/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Nueva suscripción' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear suscripción' }));
    expect(await within(dialog).findByText('Elige al menos un evento')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(within(dialog).getByLabelText('Dirección (URL)'), 'https://tienda.ejemplo.cl/hooks');
    await userEvent.click(within(dialog).getByLabelText(/Se hizo un pedido/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear suscripción' }));
    const shown = await screen.findByTestId('secret-once');
    expect((shown as HTMLInputElement).value).toBe(secret);
    expect(screen.getAllByText(/createHmac\('sha256', secreto\)/).length).toBeGreaterThan(0);
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ url: 'https://tienda.ejemplo.cl/hooks', events: ['order.created'] });
    await userEvent.click(screen.getByRole('button', { name: 'Listo, ya lo copié' }));
    expect(await screen.findByText('https://tienda.ejemplo.cl/hooks')).toBeTruthy();
  });
});
