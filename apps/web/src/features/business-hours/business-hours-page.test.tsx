import type { BusinessHoursOut, TeamHoursOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, type FakeAnswer, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { BusinessHoursPage } from './business-hours-page';

const week = (intervals: Array<{ start: string; end: string }>) => ({ mon: intervals, tue: intervals, wed: intervals, thu: intervals, fri: intervals, sat: [], sun: [] });
const hours: BusinessHoursOut = {
  zone: 'America/Lima',
  schedule: week([
    { start: '09:00', end: '13:00' },
    { start: '14:00', end: '19:00' },
  ]),
  holidays: [{ date: '2026-12-25', name: 'Navidad' }],
  awayEnabled: true,
  awayText: 'Ya cerramos: te respondemos mañana desde las 9:00.',
  saved: true,
  openNow: false,
  updatedAt: '2026-12-01T10:00:00.000Z',
};
const perms = (call: FakeCall): FakeAnswer =>
  call.path === '/permissions' ? { status: 200, body: { role: 'admin', permissions: { settings: ['read', 'update'] } } } : undefined;

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

const render = () => renderApp(<BusinessHoursPage />, { route: '/configuracion/horario' });

describe('BusinessHoursPage (/configuracion/horario)', () => {
  it('shows the week, the holidays and the away message, and saves the whole of it', async () => {
    const api = fakeApi((call) => {
      if (call.path === '/business-hours' && call.method === 'GET') return { status: 200, body: hours };
      if (call.path === '/business-hours' && call.method === 'PUT') return { status: 200, body: { ...hours, ...(call.body as object), saved: true } };
      return perms(call);
    });
    render();
    const monday = await screen.findByTestId('day-mon');
    expect(within(monday).getAllByRole('textbox')).toHaveLength(4);
    expect(within(screen.getByTestId('day-sun')).getByText('Cerrado')).toBeTruthy();
    expect(screen.getByText('Cerrado ahora')).toBeTruthy();
    expect(screen.getByTestId('holiday').textContent).toContain('2026-12-25 — Navidad');

    // Saturday morning added, Monday's afternoon removed, a holiday added
    await userEvent.click(screen.getByRole('button', { name: 'Agregar un horario al sábado' }));
    await userEvent.click(screen.getByRole('button', { name: 'Quitar el horario 2 del lunes' }));
    const date = screen.getByLabelText('Fecha');
    await userEvent.type(date, '2027-01-01');
    await userEvent.click(screen.getByLabelText('Nombre (opcional)'));
    await userEvent.paste('Año nuevo');
    await userEvent.click(screen.getByRole('button', { name: 'Agregar feriado' }));
    expect(screen.getAllByTestId('holiday')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = api.calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
    expect(put.zone).toBe('America/Lima');
    expect((put.schedule as Record<string, unknown>).mon).toEqual([{ start: '09:00', end: '13:00' }]);
    expect((put.schedule as Record<string, unknown>).sat).toEqual([{ start: '09:00', end: '18:00' }]);
    expect(put.holidays).toEqual([
      { date: '2026-12-25', name: 'Navidad' },
      { date: '2027-01-01', name: 'Año nuevo' },
    ]);
    expect(put.awayEnabled).toBe(true);
  });

  it('shows a malformed interval and an empty away message next to their fields, without calling the server', async () => {
    const api = fakeApi((call) => (call.path === '/business-hours' && call.method === 'GET' ? { status: 200, body: hours } : perms(call)));
    render();
    const tuesday = await screen.findByTestId('day-tue');
    const close = within(tuesday).getByLabelText('Martes: cierra (1)');
    await userEvent.clear(close);
    await userEvent.type(close, '08:00');
    await userEvent.clear(screen.getByLabelText('Mensaje'));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await within(tuesday).findByText('La hora de cierre debe ser posterior a la de apertura')).toBeTruthy();
    expect(screen.getByText('Escribe el mensaje de ausencia para poder activarlo')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('puts the server’s refusal next to its field', async () => {
    fakeApi((call) => {
      if (call.path === '/business-hours' && call.method === 'GET') return { status: 200, body: hours };
      if (call.method === 'PUT')
        return { status: 400, body: { errors: { code: 'VALIDATION', msg: 'Ese feriado ya está en la lista', details: [{ path: 'holidays.0.date', msg: 'Ese feriado ya está en la lista' }] } } };
      return perms(call);
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(/Ese feriado ya está en la lista/)).toBeTruthy();
  });

  it('says when nothing is saved yet', async () => {
    fakeApi((call) => (call.path === '/business-hours' ? { status: 200, body: { ...hours, saved: false, openNow: true, holidays: [], updatedAt: null } } : perms(call)));
    render();
    expect(await screen.findByText(/Todavía no guardaste un horario/)).toBeTruthy();
    expect(screen.getByText('No hay feriados.')).toBeTruthy();
  });

  it('an error answer shows a retry', async () => {
    fakeApi((call) => (call.path === '/business-hours' ? { status: 500, body: { errors: { code: 'INTERNAL', msg: 'Error' } } } : perms(call)));
    render();
    expect(await screen.findByText('No se pudo cargar el horario de atención.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });

  it('edits a team’s hours: starts from the company’s, saves them as the team’s, and goes back to the company’s', async () => {
    const teamPath = '/business-hours/teams/team-1';
    let own: TeamHoursOut | null = null;
    const inherited = (): TeamHoursOut => ({ ...hours, teamId: 'team-1', own: false });
    const api = fakeApi((call) => {
      if (call.path === '/equipos-de-ventas') return { status: 200, body: pageOf([{ _id: 'team-1', name: 'Equipo Noche' }]) };
      if (call.path === '/business-hours' && call.method === 'GET') return { status: 200, body: hours };
      if (call.path === teamPath && call.method === 'GET') return { status: 200, body: own ?? inherited() };
      if (call.path === teamPath && call.method === 'PUT') {
        own = { ...hours, ...(call.body as object), teamId: 'team-1', own: true, updatedAt: '2026-12-02T10:00:00.000Z' };
        return { status: 200, body: own };
      }
      if (call.path === teamPath && call.method === 'DELETE') {
        own = null;
        return { status: 200, body: inherited() };
      }
      return perms(call);
    });
    render();
    await screen.findByTestId('day-mon');
    await userEvent.click(await screen.findByRole('combobox', { name: 'Horario de' }));
    expect(screen.getByRole('option', { name: 'Compañía' })).toBeTruthy();
    await userEvent.click(screen.getByRole('option', { name: 'Equipo Noche' }));
    expect(await screen.findByText(/El equipo «Equipo Noche» usa el horario de la compañía/)).toBeTruthy();
    // the company's week to start from: Saturday morning added, saved as the team's
    await userEvent.click(screen.getByRole('button', { name: 'Agregar un horario al sábado' }));
    await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const puts = api.calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.path)).toEqual([teamPath]);
    const body = puts[0].body as { schedule: Record<string, unknown>; awayText: string };
    expect(body.schedule.sat).toEqual([{ start: '09:00', end: '18:00' }]);
    expect(body.schedule.mon).toEqual(hours.schedule.mon);
    expect(body.awayText).toBe(hours.awayText);

    expect(await screen.findByText(/El equipo «Equipo Noche» tiene su propio horario/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Usar el horario de la compañía' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'DELETE' && c.path === teamPath)).toBe(true));
    expect(await screen.findByText(/El equipo «Equipo Noche» usa el horario de la compañía/)).toBeTruthy();
    // back to the company: its own call again
    await userEvent.click(screen.getByRole('combobox', { name: 'Horario de' }));
    await userEvent.click(screen.getByRole('option', { name: 'Compañía' }));
    expect(await screen.findByText('Cerrado ahora')).toBeTruthy();
    expect(screen.queryByText(/El equipo «Equipo Noche»/)).toBeNull();
  });
});
