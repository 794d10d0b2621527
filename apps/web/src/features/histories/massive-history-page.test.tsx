import type { RecipientOut, SendOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';
import { MassiveHistoryPage } from './massive-history-page';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));
vi.setConfig({ testTimeout: 20_000 });

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const log = (i: number, over: Record<string, unknown> = {}) => ({
  _id: id(i),
  name: `Envío ${i}`,
  message: 'Este sábado abrimos hasta las 10 p. m.',
  total: 4,
  sent: 3,
  failed: 1,
  status: 'sent_with_some_errors',
  createdAt: '2026-11-20T15:00:00Z',
  updatedAt: '2026-11-20T15:03:00Z',
  ...over,
});
const counts = (over: Partial<SendOut['counts']> = {}): SendOut['counts'] => ({ total: 4, queued: 0, sending: 0, skipped: 0, sent: 0, delivered: 0, read: 0, failed: 0, ...over });
const send = (i: number, over: Partial<SendOut> = {}): SendOut => ({
  _id: id(100 + i),
  kind: 'massive',
  name: `Envío ${i}`,
  status: 'sent_with_some_errors',
  counts: counts({ read: 2, delivered: 1, failed: 1 }),
  stopRequested: false,
  createdAt: '2026-11-20T15:00:00Z',
  ...over,
});
const person = (n: number, over: Partial<RecipientOut> = {}): RecipientOut => ({
  _id: id(500 + n),
  cleanLeadId: id(600 + n),
  name: `Persona ${n}`,
  telefono: `5197744000${n}`,
  chatId: id(700 + n),
  status: 'read',
  attempts: 1,
  updatedAt: '2026-11-20T15:00:00Z',
  ...over,
});

function serve(logs: Array<Record<string, unknown>>, sends: Record<string, SendOut> = {}) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { messaging: ['list', 'read', 'create', 'update', 'delete'] } } };
    if (call.method === 'GET' && call.path === '/massive-messages-logs') {
      const status = call.query.get('status');
      return { status: 200, body: pageOf(logs.filter((l) => !status || l.status === status)) };
    }
    const sendOf = /^\/massive-messages-logs\/([^/]+)\/send$/.exec(call.path);
    if (sendOf) return sends[sendOf[1]] ? { status: 200, body: sends[sendOf[1]] } : { status: 404, body: { errors: { code: 'NOT_FOUND', msg: 'Este envío masivo no tiene un informe por persona' } } };
    const report = /^\/massive-messages-logs\/([^/]+)\/recipients$/.exec(call.path);
    if (report) {
      const all = [person(1), person(2, { status: 'failed', reason: '131026 · Mensaje no entregable' }), person(3, { status: 'delivered' })];
      const status = call.query.get('status');
      const q = call.query.get('q');
      const payload = all.filter((r) => (!status || r.status === status) && (!q || r.name.includes(q) || r.telefono?.includes(q)));
      return { status: 200, body: { payload, total: payload.length, page: 1, limit: 50, send: sends[report[1]] } };
    }
    return undefined;
  });
}

function Address() {
  return <output data-testid="search">{useLocation().search}</output>;
}
const render = (route = '/marketing/historial_mensajes_masivos') =>
  renderApp(
    <>
      <MassiveHistoryPage />
      <Address />
    </>,
    { route },
  );
const listCalls = (calls: FakeCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/massive-messages-logs');

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/marketing/historial_mensajes_masivos', () => {
  it('lists each massive send with its counts, read only, filtered by status and dates kept in the address', async () => {
    const user = userEvent.setup();
    const { calls } = serve([log(1), log(2, { name: 'Aviso de feriado', status: 'sent', sent: 4, failed: 0 })]);
    render();
    expect(await screen.findByText('Envío 1')).toBeTruthy();
    expect(screen.getByText('Aviso de feriado')).toBeTruthy();
    expect(screen.getByText('Enviado con errores')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Nuevo registro/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Editar|Eliminar/ })).toBeNull();

    await user.click(screen.getByRole('combobox', { name: 'Estado' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Enviado' }));
    await waitFor(() => expect(screen.queryByText('Envío 1')).toBeNull());
    expect(listCalls(calls).at(-1)?.query.get('status')).toBe('sent');
    await user.type(screen.getByLabelText('Desde'), '2026-11-01');
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('from')).toBe(new Date(2026, 10, 1).toISOString()));
    expect(screen.getByTestId('search').textContent).toBe('?estado=sent&desde=2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    expect(await screen.findByText('Envío 1')).toBeTruthy();
  });

  it('a send going out shows a live progress bar that follows send.progress, and the list is read again when it ends', async () => {
    const going = send(1, { status: 'processing', counts: counts({ sent: 1, queued: 3 }) });
    const { calls } = serve([log(1, { status: 'processing', sent: 0, failed: 0 })], { [id(1)]: going });
    render();
    expect(await screen.findByText('1 de 4')).toBeTruthy();
    await emit({ type: 'send.progress', send: { ...going, counts: counts({ sent: 2, read: 1, queued: 1 }) } });
    expect(await screen.findByText('3 de 4')).toBeTruthy();
    const before = listCalls(calls).length;
    // another send's progress does not move it
    await emit({ type: 'send.progress', send: { ...going, _id: id(999), counts: counts({ sent: 4 }) } });
    expect(screen.getByText('3 de 4')).toBeTruthy();
    await emit({ type: 'send.progress', send: { ...going, status: 'sent', counts: counts({ sent: 3, read: 1 }) } });
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(before));
  });

  it('a row opens its per-recipient report: statuses with the reason, a status filter, search, the chat and the CSV', async () => {
    const user = userEvent.setup();
    const { calls } = serve([log(1)], { [id(1)]: send(1) });
    render();
    await user.click(await screen.findByText('Envío 1'));
    const dialog = await screen.findByRole('dialog', { name: 'Destinatarios de «Envío 1»' });
    expect(screen.getByTestId('search').textContent).toBe(`?envio=${id(1)}`);
    expect(await within(dialog).findByText('Persona 1')).toBeTruthy();
    expect(within(dialog).getByText('131026 · Mensaje no entregable')).toBeTruthy();
    expect(within(dialog).getByLabelText('Cuentas del envío').textContent).toContain('Leídos2');
    expect(within(dialog).getByRole('link', { name: 'Abrir chat de Persona 1' }).getAttribute('href')).toBe(`/chat?chatId=${id(701)}`);

    await user.click(within(dialog).getByRole('combobox', { name: 'Estado' }));
    await user.click(await screen.findByRole('option', { name: 'Falló' }));
    await waitFor(() => expect(within(dialog).queryByText('Persona 1')).toBeNull());
    expect(calls.some((c) => c.path === `/massive-messages-logs/${id(1)}/recipients` && c.query.get('status') === 'failed')).toBe(true);
    expect(within(dialog).getByText('Persona 2')).toBeTruthy();

    await user.type(within(dialog).getByLabelText('Buscar'), 'Nadie');
    expect(await within(dialog).findByText('Nadie de este envío coincide con el filtro')).toBeTruthy();
    expect(calls.some((c) => c.query.get('q') === 'Nadie')).toBe(true);

    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    await user.click(within(dialog).getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    const csv = await (vi.mocked(URL.createObjectURL).mock.calls[0][0] as Blob).text();
    expect(csv).toContain('Persona 2,51977440002,Falló,131026 · Mensaje no entregable,1');

    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe(''));
  });

  it('says so when there is nothing yet, and when a log has no report', async () => {
    serve([]);
    const first = render();
    expect(await screen.findByText('Aún no hay envíos masivos: se envían desde el chat o desde Mensajes masivos')).toBeTruthy();
    first.unmount();
    serve([log(3)]);
    render(`/marketing/historial_mensajes_masivos?envio=${id(3)}`);
    const dialog = await screen.findByRole('dialog', { name: 'Destinatarios del envío' });
    expect(await within(dialog).findByText(/no tiene un informe por persona/)).toBeTruthy();
  });
});
