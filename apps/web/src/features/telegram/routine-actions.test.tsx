import type { TelegramExecutionOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import type { ResourceRecord } from '../../components/crud/types';
import { sessionStore } from '../../lib/session';
import { screen as routinesScreen } from './telegram-routines-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const routine: ResourceRecord = {
  _id: id(1),
  name: 'Cierre de caja',
  telegramGroupId: id(10),
  telegramGroupIds: [id(11)],
  message: 'Envíen el cuadre',
  days: ['lun', 'mar'],
  time: '21:30',
  active: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const groups = [
  { _id: id(10), name: 'Ventas Lima', chatId: '-1001', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' },
  { _id: id(11), name: 'Reparto', chatId: '-1002', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' },
];

/** The routines behind the API: execute posts to Ventas Lima and fails in Reparto, and the log grows. */
function serve(permissions: object = { messaging: ['list', 'read', 'create', 'update', 'delete'] }) {
  const log: TelegramExecutionOut[] = [];
  const api = fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/telegram-routines') return { status: 200, body: pageOf([routine]) };
    if (call.method === 'GET' && call.path === '/telegram-groups') return { status: 200, body: pageOf(groups) };
    if (call.method === 'POST' && call.path === `/telegram-routines/${id(1)}/execute`) {
      const execution: TelegramExecutionOut = {
        _id: id(100 + log.length),
        routineId: id(1),
        trigger: 'manual',
        status: 'partial',
        startedAt: '2026-11-26T01:00:00Z',
        finishedAt: '2026-11-26T01:00:01Z',
        results: [
          { groupId: id(10), name: 'Ventas Lima', chatId: '-1001', status: 'sent', messageId: 4321 },
          { groupId: id(11), name: 'Reparto', chatId: '-1002', status: 'failed', error: 'El bot fue expulsado del grupo: agrégalo de nuevo al grupo' },
        ],
      };
      log.unshift(execution);
      return { status: 200, body: { msg: 'Rutina ejecutada con éxito', execution } };
    }
    if (call.method === 'GET' && call.path === `/telegram-routines/${id(1)}/executions`) return { status: 200, body: { payload: log } };
    return undefined;
  });
  return { ...api, log };
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/telegram/rutinas row actions', () => {
  it('«Ejecutar ahora» posts the routine, says so, and shows the outcome in each group', async () => {
    const { calls } = serve();
    renderApp(<ResourceListPage config={routinesScreen} />, { route: '/telegram/rutinas' });

    await userEvent.click(await screen.findByRole('button', { name: 'Ejecutar ahora: Cierre de caja' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path === `/telegram-routines/${id(1)}/execute`)).toHaveLength(1));
    expect(await screen.findByText('Rutina ejecutada con éxito')).toBeTruthy();

    const dialog = await screen.findByRole('dialog', { name: 'Últimas ejecuciones de «Cierre de caja»' });
    const list = await within(dialog).findByRole('list', { name: 'Últimas ejecuciones' });
    expect(within(list).getByText('Enviada con errores')).toBeTruthy();
    expect(within(list).getByText('Manual')).toBeTruthy();
    expect(within(list).getByText('Ventas Lima: enviado (mensaje n.º 4321)')).toBeTruthy();
    expect(within(list).getByText('Reparto: no enviado — El bot fue expulsado del grupo: agrégalo de nuevo al grupo')).toBeTruthy();
  });

  it('shows when it ran in the company’s time zone, not the browser’s', async () => {
    serve();
    const company = { _id: 'company-1', name: 'Demo Chile', country: 'CL' as const, timezone: 'America/Santiago' };
    sessionStore.set((st) => ({ ...st, user: { _id: 'u1', first_name: 'Ana', last_name: 'Díaz', corporation: { companies: [{ company, default: true, role: 'admin' as const }] } } as never }));
    renderApp(<ResourceListPage config={routinesScreen} />, { route: '/telegram/rutinas' });
    await userEvent.click(await screen.findByRole('button', { name: 'Ejecutar ahora: Cierre de caja' }));
    const list = await within(await screen.findByRole('dialog')).findByRole('list', { name: 'Últimas ejecuciones' });
    // 01:00 UTC of 26 Nov is 22:00 of the 25th in Santiago (UTC−3 in summer)
    expect(within(list).getByText(/^25 nov\.? 2026, 10:00\sp\.\sm\.$/)).toBeTruthy();
  });

  it('an agent who may only read sees the log but not «Ejecutar ahora»', async () => {
    serve({ messaging: ['list', 'read'] });
    renderApp(<ResourceListPage config={routinesScreen} />, { route: '/telegram/rutinas' });
    await userEvent.click(await screen.findByRole('button', { name: 'Últimas ejecuciones: Cierre de caja' }));
    expect(await screen.findByText('Esta rutina aún no se ha ejecutado')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Ejecutar ahora/ })).toBeNull();
  });
});
