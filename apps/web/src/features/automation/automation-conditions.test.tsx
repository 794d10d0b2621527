import type { AutomationRuleOut, AutomationRunOut, AutomationSettingsOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from '../../components/ui/confirm-dialog';
import { sessionStore } from '../../lib/session';
import { type FakeCall, type FakeAnswer, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AutomationPage } from './automation-page';

const NORTE = '00000000-0000-4000-8000-000000003001';
const SUR = '00000000-0000-4000-8000-000000003002';
const CHAT = '00000000-0000-4000-8000-000000003003';

const watched: AutomationRuleOut = {
  _id: '00000000-0000-4000-8000-000000003010',
  name: 'Molestos del Norte en Chile',
  enabled: true,
  position: 1,
  trigger: { event: 'message.received' },
  match: 'all',
  conditions: [
    { field: 'team', op: 'is', value: NORTE },
    { field: 'sentiment', op: 'is', value: 'negative' },
    { field: 'motive', op: 'contains', value: 'entrega' },
    { field: 'country', op: 'is_not', value: 'CL' },
    { field: 'team', op: 'none' },
  ],
  actions: [{ type: 'resolve' }],
  lastRunAt: null,
  runsToday: 0,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
};
const run: AutomationRunOut = {
  _id: '00000000-0000-4000-8000-000000003020',
  ruleId: watched._id,
  eventId: '00000000-0000-4000-8000-000000003021',
  eventType: 'message.received',
  chatId: CHAT,
  status: 'ok',
  depth: 1,
  conditions: [
    { field: 'team', op: 'is', value: NORTE, actual: NORTE, passed: true },
    { field: 'sentiment', op: 'is', value: 'negative', actual: 'negative', passed: true },
    { field: 'motive', op: 'contains', value: 'entrega', actual: 'envio', passed: true },
    { field: 'country', op: 'is_not', value: 'CL', actual: 'PE', passed: true },
  ],
  actions: [{ type: 'resolve', ok: true }],
  error: null,
  createdAt: new Date(Date.now() - 60_000).toISOString(),
};
const admin = { automation: ['list', 'read', 'create', 'update', 'delete'], chats: ['list', 'read'] };

function refs(call: FakeCall): FakeAnswer {
  if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
  if (call.path === '/equipos-de-ventas')
    return {
      status: 200,
      body: pageOf([
        { _id: NORTE, name: 'Equipo Norte' },
        { _id: SUR, name: 'Equipo Sur' },
      ]),
    };
  if (['/mostrador-labels', '/agentes', '/telefonos'].includes(call.path)) return { status: 200, body: pageOf([]) };
  if (call.path === '/whatsapp-templates') return { status: 200, body: { payload: [], totalDocs: 0, totalPages: 1, page: 1, limit: 100 } };
  return undefined;
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

const render = () =>
  renderApp(
    <ConfirmProvider>
      <AutomationPage />
    </ConfirmProvider>,
    { route: '/automatizaciones' },
  );

async function choose(scope: HTMLElement, label: string, option: string) {
  await userEvent.click(within(scope).getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}
const optionsOf = async (scope: HTMLElement, label: string) => {
  await userEvent.click(within(scope).getByRole('combobox', { name: label }));
  const names = (await screen.findAllByRole('option')).map((o) => o.textContent);
  await userEvent.keyboard('{Escape}');
  return names;
};

describe('conditions on the team, the analysis and the country (/automatizaciones)', () => {
  it('the card says them in words, and a run shows what each found', async () => {
    fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: [watched] } };
      if (call.method === 'GET' && call.path === `/automation-rules/${watched._id}/runs`) return { status: 200, body: { payload: [run] } };
      return refs(call);
    });
    render();
    const card = await screen.findByTestId('automation-rule');
    await waitFor(() =>
      expect(within(card).getByTestId('rule-summary').textContent).toBe(
        'Si el equipo del agente es «Equipo Norte» y el sentimiento del último análisis es negativo y el motivo del último análisis contiene "entrega" y el país de la persona no es Chile y el agente asignado no tiene equipo → Resolver el chat',
      ),
    );
    await userEvent.click(within(card).getByRole('button', { name: 'Ejecuciones' }));
    const shown = await within(card).findByTestId('automation-run');
    expect(within(shown).getAllByTestId('evaluated-condition').map((c) => c.textContent)).toEqual([
      '✓el equipo del agente es «Equipo Norte» — encontró: «Equipo Norte»',
      '✓el sentimiento del último análisis es negativo — encontró: Negativo',
      '✓el motivo del último análisis contiene "entrega" — encontró: «Envío o entrega»',
      '✓el país de la persona no es Chile — encontró: Perú',
    ]);
  });

  it('the editor offers the company’s teams, the sentiments, the motives and the countries, and sends them', async () => {
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: [] } };
      if (call.method === 'POST' && call.path === '/automation-rules') return { status: 201, body: { ...watched, ...(call.body as object) } };
      return refs(call);
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Nueva regla' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByLabelText(/^Nombre/));
    await userEvent.paste('Molestos');
    const row = (n: number) => within(dialog).getAllByTestId('condition-row')[n];
    const add = () => userEvent.click(within(dialog).getByRole('button', { name: 'Agregar condición' }));

    await choose(row(0), 'Condición', 'Equipo de ventas del agente');
    expect(await optionsOf(row(0), 'Comparación')).toEqual(['es', 'no es', 'no tiene ninguno']);
    expect(await optionsOf(row(0), 'Equipo de ventas')).toEqual(['Equipo Norte', 'Equipo Sur']);
    await choose(row(0), 'Equipo de ventas', 'Equipo Sur');

    await add();
    await choose(row(1), 'Condición', 'Sentimiento del último análisis');
    expect(await optionsOf(row(1), 'Valor')).toEqual(['Positivo', 'Neutral', 'Negativo']);
    await choose(row(1), 'Valor', 'Negativo');

    await add();
    await choose(row(2), 'Condición', 'Motivo del último análisis');
    expect(await optionsOf(row(2), 'Comparación')).toEqual(['es', 'contiene']);
    await choose(row(2), 'Valor', 'Reclamo o devolución');
    await add();
    await choose(row(3), 'Condición', 'Motivo del último análisis');
    await choose(row(3), 'Comparación', 'contiene');
    await userEvent.click(within(row(3)).getByLabelText(/^Palabras del motivo/));
    await userEvent.paste('entrega');

    await add();
    await choose(row(4), 'Condición', 'País de la persona (por su teléfono)');
    expect(await optionsOf(row(4), 'Valor')).toEqual(['Perú', 'Chile', 'Colombia', 'España']);
    await choose(row(4), 'Comparación', 'no es');
    await choose(row(4), 'Valor', 'Chile');

    await choose(within(dialog).getByTestId('action-row'), 'Acción', 'Resolver el chat');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear regla' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST'), dialog.textContent ?? '').toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      conditions: [
        { field: 'team', op: 'is', value: SUR },
        { field: 'sentiment', op: 'is', value: 'negative' },
        { field: 'motive', op: 'is', value: 'reclamo' },
        { field: 'motive', op: 'contains', value: 'entrega' },
        { field: 'country', op: 'is_not', value: 'CL' },
      ],
      actions: [{ type: 'resolve' }],
    });
  }, 60_000);

  it('«Ajustes»: the messages per chat and hour, 1 to 100, checked before it goes and the server’s refusal under the field', async () => {
    let saved: AutomationSettingsOut = { messagesPerChatHour: 10, saved: false, updatedAt: null };
    let refuse = false;
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: [] } };
      if (call.method === 'GET' && call.path === '/automation-rules/settings') return { status: 200, body: saved };
      if (call.method === 'PUT' && call.path === '/automation-rules/settings') {
        if (refuse) return { status: 400, body: { errors: { code: 'VALIDATION', msg: 'Como mucho 100 mensajes', details: [{ path: 'body.messagesPerChatHour', msg: 'Como mucho 100 mensajes' }] } } };
        saved = { ...(call.body as { messagesPerChatHour: number }), saved: true, updatedAt: new Date().toISOString() };
        return { status: 200, body: saved };
      }
      return refs(call);
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Ajustes' }));
    let dialog = await screen.findByRole('dialog', { name: 'Ajustes de las automatizaciones' });
    const field = await within(dialog).findByLabelText(/^Mensajes de reglas por chat y hora/);
    expect((field as HTMLInputElement).value).toBe('10');

    await userEvent.clear(field);
    await userEvent.type(field, '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Al menos 1 mensaje')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.clear(field);
    await userEvent.type(field, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ messagesPerChatHour: 3 }]);

    // opened again it reads the saved number; the server's refusal shows under the field
    await userEvent.click(screen.getByRole('button', { name: 'Ajustes' }));
    dialog = await screen.findByRole('dialog', { name: 'Ajustes de las automatizaciones' });
    const again = await within(dialog).findByLabelText(/^Mensajes de reglas por chat y hora/);
    expect((again as HTMLInputElement).value).toBe('3');
    refuse = true;
    await userEvent.clear(again);
    await userEvent.type(again, '50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Como mucho 100 mensajes')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  }, 60_000);
});
