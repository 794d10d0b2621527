import { type ConversionEventOut, type ConversionSettingsOut, conversionsMessages } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { ConversionsCard } from './conversions-card';

const admin = { integrations: ['list', 'read', 'create', 'update', 'delete'] };
const event = (o: Partial<ConversionEventOut>): ConversionEventOut => ({
  _id: 'e1',
  eventName: 'Purchase',
  channel: 'whatsapp',
  status: 'sent',
  leadId: 'l1',
  orderId: 'o1',
  value: 149.9,
  currency: 'PEN',
  reason: null,
  eventsReceived: 1,
  fbtraceId: 'AbCdTrace',
  errorCode: null,
  errorType: null,
  attempts: 1,
  eventTime: '2026-12-01T15:00:00Z',
  sentAt: '2026-12-01T15:00:02Z',
  createdAt: '2026-12-01T15:00:00Z',
  ...o,
});

/** The settings and the log behind the API: off and empty until a PUT with a dataset and a token. */
function serve(log: ConversionEventOut[] = []) {
  let settings: ConversionSettingsOut = { enabled: false, tokenSet: false, qualifiedStatus: 'informado-al-agente', sendQualified: true };
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
    if (call.method === 'GET' && call.path === '/conversions-api/settings') return { status: 200, body: settings };
    if (call.method === 'PUT' && call.path === '/conversions-api/settings') {
      const body = call.body as { enabled: boolean; datasetId?: string; accessToken?: string; qualifiedStatus: ConversionSettingsOut['qualifiedStatus']; sendQualified: boolean };
      if (body.enabled && !body.datasetId) return { status: 400, body: { errors: { code: 'VALIDATION', msg: conversionsMessages.needsDataset, details: [{ path: 'datasetId', msg: conversionsMessages.needsDataset }] } } };
      settings = { enabled: body.enabled, datasetId: body.datasetId, tokenSet: Boolean(body.accessToken) || settings.tokenSet, tokenHint: '…pi98', qualifiedStatus: body.qualifiedStatus, sendQualified: body.sendQualified };
      return { status: 200, body: settings };
    }
    if (call.method === 'GET' && call.path.startsWith('/conversions-api/events')) return { status: 200, body: { data: log } };
    if (call.method === 'POST' && /\/conversions-api\/events\/.+\/retry/.test(call.path)) return { status: 200, body: { ...log[0], status: 'pending' } };
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('the Conversions API card', () => {
  it('is off with an empty log, and is turned on with the dataset and the token (never shown back)', async () => {
    const { calls } = serve();
    renderApp(<ConversionsCard />);
    expect(await screen.findByText(/Desactivada · conjunto de datos sin guardar · token sin guardar/)).toBeTruthy();
    expect(screen.getByText(/Aún no se envió ningún evento/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cambiar ajustes' }));
    await userEvent.click(screen.getByLabelText('Enviar los resultados a Meta'));
    await userEvent.type(screen.getByLabelText('Token de acceso'), 'EAAGconversionsTokenDePruebaParaCapi98');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(conversionsMessages.needsDataset)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Conjunto de datos'), '778899001122334');
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(/Activada · conjunto de datos 778899001122334 · token guardado …pi98/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ enabled: true, datasetId: '778899001122334', accessToken: 'EAAGconversionsTokenDePruebaParaCapi98', qualifiedStatus: 'informado-al-agente', sendQualified: true });
    expect(document.body.textContent).not.toContain('EAAGconversionsTokenDePruebaParaCapi98');
  });

  it('lists each event with its status in Spanish and Meta’s answer or the reason, and retries a failed one', async () => {
    const failed = event({ _id: 'e2', status: 'failed', reason: 'Meta rechazó un dato del evento o el conjunto de datos no existe (código 100, tipo OAuthException)', eventsReceived: null, fbtraceId: null });
    const skipped = event({ _id: 'e3', eventName: 'LeadSubmitted', status: 'skipped', reason: conversionsMessages.organic, value: null, currency: null, channel: null });
    const { calls } = serve([event({}), failed, skipped]);
    renderApp(<ConversionsCard />);
    const list = await screen.findByRole('list', { name: 'Eventos de la API de conversiones' });
    const items = within(list).getAllByRole('listitem');
    expect(within(items[0]).getByText('Enviado')).toBeTruthy();
    expect(within(items[0]).getByText(/Meta lo recibió \(1 en el lote\) · rastreo AbCdTrace/)).toBeTruthy();
    expect(within(items[1]).getByText('Falló')).toBeTruthy();
    expect(within(items[1]).getByText(/código 100, tipo OAuthException/)).toBeTruthy();
    expect(within(items[2]).getByText('No se envía')).toBeTruthy();
    expect(within(items[2]).getByText(conversionsMessages.organic)).toBeTruthy();
    expect(within(items[0]).queryByRole('button', { name: 'Reintentar' })).toBeNull();
    await userEvent.click(within(items[1]).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/conversions-api/events/e2/retry')).toBe(true));
  });
});
