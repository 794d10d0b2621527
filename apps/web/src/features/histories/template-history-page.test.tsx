import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { TemplateHistoryPage } from './template-history-page';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));
vi.setConfig({ testTimeout: 20_000 });

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const row = (i: number, over: Record<string, unknown> = {}) => ({
  _id: id(i),
  templateName: 'promo_fin_de_mes',
  telefono: `5197745000${i}`,
  nombre: `Persona ${i}`,
  status: 'read',
  chatId: id(700 + i),
  source: 'chat',
  createdAt: '2026-11-20T15:00:00Z',
  updatedAt: '2026-11-20T16:00:00Z',
  ...over,
});
const rows = [
  row(1),
  row(2, { status: 'failed', error: '131026 · Mensaje no entregable · el número no tiene WhatsApp', source: 'campaign', sendName: 'Campaña Día de la Madre · bloque 1' }),
  row(3, { status: 'pending', templateName: 'seguimiento_cotizacion', source: 'massive', sendName: 'Promo fin de mes', chatId: undefined }),
];

function serve(list = rows, permissions: Record<string, string[]> = { messaging: ['list', 'read'], leads: ['export'] }) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/whatsapp-templates') return { status: 200, body: { ...pageOf([{ _id: id(90), name: 'promo_fin_de_mes' }, { _id: id(91), name: 'seguimiento_cotizacion' }]), line: {} } };
    if (call.method === 'GET' && call.path === '/template-messages-logs') {
      const status = call.query.get('status');
      const name = call.query.get('templateName');
      return { status: 200, body: pageOf(list.filter((r) => (!status || r.status === status) && (!name || r.templateName === name))) };
    }
    if (call.method === 'GET' && call.path === '/template-messages-logs/export') return { status: 200, body: 'fecha,plantilla' };
    return undefined;
  });
}

function Address() {
  return <output data-testid="search">{useLocation().search}</output>;
}
const render = (route = '/marketing/historial-plantillas') =>
  renderApp(
    <>
      <TemplateHistoryPage />
      <Address />
    </>,
    { route },
  );
const listCalls = (calls: FakeCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/template-messages-logs');

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/marketing/historial-plantillas', () => {
  it('shows each template message: who, the status with the reason when it failed, where from, and its chat', async () => {
    serve();
    render();
    expect(await screen.findByText('Persona 1')).toBeTruthy();
    expect(screen.getByText('51977450001')).toBeTruthy();
    expect(screen.getByText('Leído')).toBeTruthy();
    expect(screen.getByText('Fallido')).toBeTruthy();
    expect(screen.getByText('131026 · Mensaje no entregable · el número no tiene WhatsApp')).toBeTruthy();
    expect(screen.getByText('En cola')).toBeTruthy();
    expect(screen.getByText('Campaña Día de la Madre · bloque 1')).toBeTruthy();
    expect(screen.getByText('Envío masivo')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Abrir chat de Persona 1' }).getAttribute('href')).toBe(`/chat?chatId=${id(701)}`);
    expect(screen.queryByRole('link', { name: 'Abrir chat de Persona 3' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Nuevo registro/ })).toBeNull();
  });

  it('filters by status, template and dates in the address, and exports what the list shows', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    render();
    await screen.findByText('Persona 1');
    await user.click(screen.getByRole('combobox', { name: 'Estado' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Fallido' }));
    await waitFor(() => expect(screen.queryByText('Persona 1')).toBeNull());
    await user.click(screen.getByRole('combobox', { name: 'Plantilla' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'promo_fin_de_mes' }));
    await user.type(screen.getByLabelText('Hasta'), '2026-11-30');
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('to')).toBe(new Date(2026, 11, 1).toISOString()));
    const last = listCalls(calls).at(-1)?.query;
    expect(last?.get('status')).toBe('failed');
    expect(last?.get('templateName')).toBe('promo_fin_de_mes');
    expect(screen.getByTestId('search').textContent).toBe('?estado=failed&plantilla=promo_fin_de_mes&hasta=2026-11-30');
    expect(screen.getByText('Persona 2')).toBeTruthy();

    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    const exported = calls.find((c) => c.path === '/template-messages-logs/export')?.query;
    expect(exported?.get('status')).toBe('failed');
    expect(exported?.get('templateName')).toBe('promo_fin_de_mes');
    expect(exported?.get('to')).toBe(new Date(2026, 11, 1).toISOString());
  });

  it('offers no «Exportar CSV» to a role without leads · export (an agent): the server refuses it too', async () => {
    serve(rows, { messaging: ['list', 'read'], leads: ['list', 'read'] });
    render();
    expect(await screen.findByText('Persona 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Exportar CSV' })).toBeNull();
  });

  it('reads well when empty, and when nothing matches', async () => {
    serve([]);
    const first = render();
    expect(await screen.findByText('Aún no se enviaron mensajes de plantilla: se envían desde un chat o con una campaña')).toBeTruthy();
    first.unmount();
    serve();
    render('/marketing/historial-plantillas?estado=delivered');
    expect(await screen.findByText('Ningún mensaje coincide con la búsqueda o los filtros')).toBeTruthy();
  });
});
