import type { AutomationRuleOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from '../../components/ui/confirm-dialog';
import { sessionStore } from '../../lib/session';
import { type FakeCall, type FakeAnswer, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AutomationPage } from './automation-page';

/** The editor's assignment and Imagina actions: their selects list the company's teams and Imagina templates, and what is chosen goes in the POST. */
const SUR = '00000000-0000-4000-8000-000000003001';
const NORTE = '00000000-0000-4000-8000-000000003002';
const BIENVENIDA = '00000000-0000-4000-8000-000000003003';

const admin = { automation: ['list', 'read', 'create', 'update', 'delete'], chats: ['list', 'read'] };

function refs(call: FakeCall): FakeAnswer {
  if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
  if (call.path === '/equipos-de-ventas')
    return {
      status: 200,
      body: pageOf([
        { _id: SUR, name: 'Mayoristas Sur' },
        { _id: NORTE, name: 'Mayoristas Norte' },
      ]),
    };
  if (call.path === '/imagina_template_messages') return { status: 200, body: pageOf([{ _id: BIENVENIDA, name: 'bienvenida_regla', status: 'approved' }]) };
  if (call.path === '/mostrador-labels' || call.path === '/agentes' || call.path === '/telefonos') return { status: 200, body: pageOf([]) };
  if (call.path === '/whatsapp-templates') return { status: 200, body: { payload: [], totalDocs: 0, totalPages: 0, page: 1, limit: 100 } };
  return undefined;
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

async function choose(scope: HTMLElement, label: string, option: string) {
  await userEvent.click(within(scope).getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('the rule editor’s assignment and Imagina actions', () => {
  it('offers them with their selects (teams, Imagina templates), posts them, and the card names them', async () => {
    let list: AutomationRuleOut[] = [];
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: list } };
      if (call.method === 'POST' && call.path === '/automation-rules') {
        list = [
          {
            ...(call.body as object),
            _id: '00000000-0000-4000-8000-000000003010',
            position: 1,
            runsToday: 0,
            lastRunAt: null,
            createdAt: '2026-12-01T10:00:00.000Z',
            updatedAt: '2026-12-01T10:00:00.000Z',
          } as AutomationRuleOut,
        ];
        return { status: 201, body: list[0] };
      }
      return refs(call);
    });
    renderApp(
      <ConfirmProvider>
        <AutomationPage />
      </ConfirmProvider>,
      { route: '/automatizaciones' },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Crear la primera regla' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByLabelText(/^Nombre/));
    await userEvent.paste('Mayoristas al equipo Sur');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Quitar la condición 1' }));

    // the action select offers the new actions
    const first = within(dialog).getByTestId('action-row');
    await userEvent.click(within(first).getByRole('combobox', { name: 'Acción' }));
    const offered = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(offered).toEqual(expect.arrayContaining(['Asignar a un agente disponible de un equipo', 'Asignar por turnos a un agente disponible', 'Enviar una plantilla Imagina']));
    await userEvent.click(screen.getByRole('option', { name: 'Asignar a un agente disponible de un equipo' }));
    // the team select lists the company's teams
    await userEvent.click(within(first).getByRole('combobox', { name: 'Equipo de ventas' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Mayoristas Sur', 'Mayoristas Norte']);
    await userEvent.click(screen.getByRole('option', { name: 'Mayoristas Sur' }));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar acción' }));
    const imagina = within(dialog).getAllByTestId('action-row')[1];
    await choose(imagina, 'Acción', 'Enviar una plantilla Imagina');
    // not chosen yet: the editor says what to choose, nothing is sent
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear regla' }));
    expect(within(imagina).getByText('Elige una plantilla Imagina')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await choose(imagina, 'Plantilla Imagina', 'bienvenida_regla');

    // a wait, then (only then) what follows it
    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar acción' }));
    const wait = within(dialog).getAllByTestId('action-row')[2];
    await choose(wait, 'Acción', 'Esperar y luego seguir');
    await userEvent.type(within(wait).getByLabelText(/^Minutos de espera/), '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear regla' }));
    expect(await within(dialog).findByText('Después de esperar, agrega la acción que sigue')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar acción' }));
    await choose(within(dialog).getAllByTestId('action-row')[3], 'Acción', 'Asignar por turnos a un agente disponible');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear regla' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Mayoristas al equipo Sur',
      enabled: true,
      trigger: { event: 'message.received' },
      match: 'all',
      conditions: [],
      actions: [{ type: 'assign_team', teamId: SUR }, { type: 'send_imagina', templateId: BIENVENIDA }, { type: 'wait', minutes: 30 }, { type: 'assign_round_robin' }],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = await screen.findByTestId('automation-rule');
    await waitFor(() =>
      expect(within(card).getByTestId('rule-summary').textContent).toBe(
        'Siempre → Asignar por turnos a un agente disponible del equipo «Mayoristas Sur», Enviar una plantilla Imagina «bienvenida_regla», Esperar 30 min y seguir, Asignar por turnos a un agente disponible',
      ),
    );
  }, 60_000);
});
