import type { AutomationRuleOut, AutomationRunOut, AutomationTestOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from '../../components/ui/confirm-dialog';
import { sessionStore } from '../../lib/session';
import { type FakeCall, type FakeAnswer, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AutomationPage, movesOf } from './automation-page';

const TEMPLATE = '9c1f3a52-5d1e-4a8b-9a55-2f0f6b1d7e20';
const COTIZACION = '00000000-0000-4000-8000-000000002901';
const VENTAS = '00000000-0000-4000-8000-000000002902';
const LINE = '00000000-0000-4000-8000-000000002903';
const CHAT = '00000000-0000-4000-8000-000000002904';

const quotes: AutomationRuleOut = {
  _id: '00000000-0000-4000-8000-000000002910',
  name: 'Cotizaciones a Ventas',
  enabled: true,
  position: 1,
  trigger: { event: 'message.received' },
  match: 'all',
  conditions: [
    { field: 'text', op: 'contains', value: 'precio' },
    { field: 'channel', op: 'is', value: 'whatsapp' },
  ],
  actions: [
    { type: 'add_label', labelId: COTIZACION },
    { type: 'assign_agent', agentId: VENTAS },
    { type: 'send_text', text: 'Gracias, un asesor te envía la cotización.' },
  ],
  lastRunAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  runsToday: 3,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
};
const resolver: AutomationRuleOut = {
  ...quotes,
  _id: '00000000-0000-4000-8000-000000002911',
  name: 'Resolver sin agente',
  position: 2,
  enabled: false,
  trigger: { event: 'chat.created' },
  match: 'any',
  conditions: [{ field: 'agent', op: 'none' }],
  actions: [{ type: 'resolve' }],
  lastRunAt: null,
  runsToday: 0,
};
const run: AutomationRunOut = {
  _id: '00000000-0000-4000-8000-000000002920',
  ruleId: quotes._id,
  eventId: '00000000-0000-4000-8000-000000002921',
  eventType: 'message.received',
  chatId: CHAT,
  status: 'error',
  depth: 1,
  conditions: [
    { field: 'text', op: 'contains', value: 'precio', actual: '¿Cuál es el PRÉCIO?', passed: true },
    { field: 'channel', op: 'is', value: 'whatsapp', actual: 'whatsapp', passed: true },
  ],
  actions: [
    { type: 'add_label', ok: true },
    { type: 'send_text', ok: false, detail: 'La ventana de 24 horas está cerrada: fuera de ella solo se envían plantillas' },
  ],
  error: 'La ventana de 24 horas está cerrada: fuera de ella solo se envían plantillas',
  createdAt: new Date(Date.now() - 60 * 60_000).toISOString(),
};
const admin = { automation: ['list', 'read', 'create', 'update', 'delete'], chats: ['list', 'read'] };

/** The labels, agents and lines the selects and summaries name. */
function refs(call: FakeCall): FakeAnswer {
  if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
  if (call.path === '/mostrador-labels') return { status: 200, body: pageOf([{ _id: COTIZACION, name: 'Cotización' }]) };
  if (call.path === '/agentes') return { status: 200, body: pageOf([{ _id: VENTAS, name: 'Equipo Ventas' }]) };
  if (call.path === '/telefonos') return { status: 200, body: pageOf([{ _id: LINE, numero: '51987654321' }]) };
  if (call.path === '/whatsapp-templates')
    return {
      status: 200,
      body: { payload: [{ _id: TEMPLATE, name: 'pedido_pagado', language: 'es_PE', body: 'Hola {{1}}, recibimos el pago de tu pedido {{2}}.', status: 'APPROVED' }], totalDocs: 1, totalPages: 1, page: 1, limit: 100 },
    };
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

/** Types into a field at once (a paste): many fields, a busy machine. */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

/** Picks `option` in the MUI select labelled `label` inside `scope`. */
async function choose(scope: HTMLElement, label: string, option: string) {
  await userEvent.click(within(scope).getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('AutomationPage (/automatizaciones)', () => {
  it('lists the rules in their order with a sentence each, and their runs with each condition and action', async () => {
    fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: [quotes, resolver] } };
      if (call.method === 'GET' && call.path === `/automation-rules/${quotes._id}/runs`) return { status: 200, body: { payload: [run] } };
      if (call.method === 'GET' && call.path === `/automation-rules/${resolver._id}/runs`) return { status: 200, body: { payload: [] } };
      return refs(call);
    });
    render();
    const cards = await screen.findAllByTestId('automation-rule');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Cotizaciones a Ventas', 'Resolver sin agente']);
    const [first, second] = cards;
    await waitFor(() =>
      expect(within(first).getByTestId('rule-summary').textContent).toBe(
        'Si el texto del mensaje contiene "precio" y el canal es WhatsApp → Agregar una etiqueta «Cotización», Asignar a Equipo Ventas, Enviar un texto: "Gracias, un asesor te envía la cotización."',
      ),
    );
    expect(within(first).getByText('Cuando: Un cliente escribe')).toBeTruthy();
    expect(within(first).getByTestId('rule-runs').textContent).toBe('3 ejecuciones hoy · Última: hace 5 min');
    expect(within(second).getByTestId('rule-summary').textContent).toBe('Si no tiene agente asignado → Resolver el chat');
    expect(within(second).getByTestId('rule-runs').textContent).toBe('0 ejecuciones hoy · Nunca se ejecutó');
    expect(within(second).getByText('Inactiva')).toBeTruthy();
    expect((within(first).getByRole('button', { name: 'Subir' }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(within(first).getByRole('button', { name: 'Ejecuciones' }));
    const shown = await within(first).findByTestId('automation-run');
    expect(within(shown).getByText('Con errores')).toBeTruthy();
    expect(within(shown).getByText('Un cliente escribe')).toBeTruthy();
    expect(within(shown).getByRole('link', { name: 'Ver el chat' }).getAttribute('href')).toBe(`/chat?chatId=${CHAT}`);
    const judged = within(shown).getAllByTestId('evaluated-condition');
    expect(judged[0].textContent).toBe('✓el texto del mensaje contiene "precio" — encontró: «¿Cuál es el PRÉCIO?»');
    expect(judged[1].textContent).toBe('✓el canal es WhatsApp — encontró: WhatsApp');
    const acted = within(shown).getAllByTestId('run-action');
    expect(acted[0].textContent).toBe('✓Agregar una etiqueta — hecho');
    expect(acted[1].textContent).toMatch(/^✗Enviar un texto — La ventana de 24 horas está cerrada/);

    await userEvent.click(within(second).getByRole('button', { name: 'Ejecuciones' }));
    expect(await within(second).findByText('Todavía no se ejecutó.')).toBeTruthy();
  });

  it('switching a rule off PUTs the whole rule with enabled false', async () => {
    let rule = quotes;
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: [rule] } };
      if (call.method === 'PUT' && call.path === `/automation-rules/${quotes._id}`) {
        rule = { ...quotes, enabled: false };
        return { status: 200, body: rule };
      }
      return refs(call);
    });
    render();
    const card = await screen.findByTestId('automation-rule');
    await userEvent.click(within(card).getByRole('switch', { name: 'Activar «Cotizaciones a Ventas»' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Cotizaciones a Ventas',
      enabled: false,
      trigger: { event: 'message.received' },
      match: 'all',
      conditions: quotes.conditions,
      actions: quotes.actions,
    });
    expect(await within(card).findByText('Inactiva')).toBeTruthy();
  });

  it('builds a rule in the editor: each condition and action with its params goes in the POST', async () => {
    let list: AutomationRuleOut[] = [];
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: list } };
      if (call.method === 'POST' && call.path === '/automation-rules') {
        list = [{ ...quotes, ...(call.body as object), _id: 'nueva', runsToday: 0, lastRunAt: null } as AutomationRuleOut];
        return { status: 201, body: list[0] };
      }
      return refs(call);
    });
    render();
    expect(await screen.findByText(/Todavía no hay reglas/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Crear la primera regla' }));
    const dialog = await screen.findByRole('dialog');
    await fill(within(dialog).getByLabelText(/^Nombre/), 'Cotizaciones a Ventas');
    // the first row is «Texto del mensaje contiene …»
    await fill(within(within(dialog).getByTestId('condition-row')).getByLabelText(/^Valor/), 'precio');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar condición' }));
    const second = within(dialog).getAllByTestId('condition-row')[1];
    await choose(second, 'Condición', 'Línea de WhatsApp');
    // its comparisons are the field's own
    await userEvent.click(within(second).getByRole('combobox', { name: 'Comparación' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['es', 'no es']);
    await userEvent.click(screen.getByRole('option', { name: 'no es' }));
    await choose(second, 'Línea', '+51987654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar condición' }));
    const third = within(dialog).getAllByTestId('condition-row')[2];
    await choose(third, 'Condición', 'Agente asignado');
    await choose(third, 'Comparación', 'no tiene ninguno');
    expect(within(third).queryByRole('combobox', { name: 'Agente' })).toBeNull();

    await choose(within(dialog).getByTestId('action-row'), 'Etiqueta', 'Cotización');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar acción' }));
    const assign = within(dialog).getAllByTestId('action-row')[1];
    await choose(assign, 'Acción', 'Asignar a un agente');
    await choose(assign, 'Agente', 'Equipo Ventas');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar acción' }));
    const snooze = within(dialog).getAllByTestId('action-row')[2];
    await choose(snooze, 'Acción', 'Posponer el chat');
    await fill(within(snooze).getByLabelText(/^Minutos/), '90');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar acción' }));
    const answer = within(dialog).getAllByTestId('action-row')[3];
    await choose(answer, 'Acción', 'Enviar un texto');
    await fill(within(answer).getByLabelText(/^Texto/), 'Un asesor te escribe en minutos');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear regla' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Cotizaciones a Ventas',
      enabled: true,
      trigger: { event: 'message.received' },
      match: 'all',
      conditions: [
        { field: 'text', op: 'contains', value: 'precio' },
        { field: 'line', op: 'is_not', value: LINE },
        { field: 'agent', op: 'none' },
      ],
      actions: [
        { type: 'add_label', labelId: COTIZACION },
        { type: 'assign_agent', agentId: VENTAS },
        { type: 'snooze', minutes: 90 },
        { type: 'send_text', text: 'Un asesor te escribe en minutos' },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByTestId('automation-rule')).toBeTruthy();
  }, 60_000);

  it('a timer rule: «Cuando» a timer, its time in hours, and the card says it', async () => {
    let list: AutomationRuleOut[] = [];
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: list } };
      if (call.method === 'POST' && call.path === '/automation-rules') {
        list = [{ ...quotes, ...(call.body as object), _id: 'seguimiento', runsToday: 0, lastRunAt: null } as AutomationRuleOut];
        return { status: 201, body: list[0] };
      }
      return refs(call);
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Crear la primera regla' }));
    const dialog = await screen.findByRole('dialog');
    await fill(within(dialog).getByLabelText(/^Nombre/), 'Seguimiento');
    await choose(dialog, 'Cuando', 'Temporizador: El cliente no responde al último mensaje que le enviaron');
    const timer = within(dialog).getByTestId('timer-fields');
    await userEvent.clear(within(timer).getByLabelText(/^Tiempo/));
    await fill(within(timer).getByLabelText(/^Tiempo/), '23');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Quitar la condición 1' }));
    await choose(within(dialog).getByTestId('action-row'), 'Acción', 'Enviar un texto');
    await fill(within(within(dialog).getByTestId('action-row')).getByLabelText(/^Texto/), '¿Pudiste verlo?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear regla' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST'), dialog.textContent ?? '').toBe(true));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      trigger: { timer: { kind: 'no_customer_reply', minutes: 1380 } },
      conditions: [],
      actions: [{ type: 'send_text', text: '¿Pudiste verlo?' }],
    });
    expect(await screen.findByText('Cuando: El cliente no responde al último mensaje que le enviaron · 23 horas')).toBeTruthy();
  }, 60_000);

  it('«Avisos de órdenes» writes one rule per status chosen: its event, the status, the template with the chat’s values', async () => {
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: [] } };
      if (call.method === 'POST' && call.path === '/automation-rules') return { status: 201, body: { ...quotes, _id: 'aviso' } };
      return refs(call);
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Avisos de órdenes' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('combobox', { name: 'Orden pagada' }));
    await userEvent.click(await screen.findByRole('option', { name: 'pedido_pagado (es_PE)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear las reglas' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Aviso de orden: pagada',
      enabled: true,
      trigger: { event: 'order.status_changed' },
      match: 'all',
      conditions: [{ field: 'order_status', op: 'is', value: 'paid' }],
      actions: [{ type: 'send_template', templateId: TEMPLATE, bodyValues: ['{nombre}', '{pedido}'] }],
    });
  }, 60_000);

  it('shows the contract’s errors next to their row before sending, and the server’s after', async () => {
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: [] } };
      if (call.method === 'POST' && call.path === '/automation-rules')
        return {
          status: 400,
          body: { errors: { code: 'VALIDATION', msg: 'Esa etiqueta no es de esta compañía', details: [{ path: 'actions.0.labelId', msg: 'Esa etiqueta no es de esta compañía' }] } },
        };
      return refs(call);
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Nueva regla' }));
    const dialog = await screen.findByRole('dialog');
    await fill(within(dialog).getByLabelText(/^Nombre/), 'Incompleta');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear regla' }));
    const condition = within(dialog).getByTestId('condition-row');
    expect(within(condition).getByText('Indica el valor de la condición')).toBeTruthy();
    expect(within(within(dialog).getByTestId('action-row')).getByText('Elige una etiqueta')).toBeTruthy();
    expect(within(dialog).getByText('Revisa los campos marcados.')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    // fixed as typed: the errors go as soon as the values hold
    await fill(within(condition).getByLabelText(/^Valor/), 'precio');
    expect(within(condition).queryByText('Indica el valor de la condición')).toBeNull();
    // no actions at all: the list says so
    await userEvent.click(within(dialog).getByRole('button', { name: 'Quitar la acción 1' }));
    expect(within(dialog).getByText('Agrega al menos una acción')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Agregar acción' }));
    await choose(within(dialog).getByTestId('action-row'), 'Etiqueta', 'Cotización');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear regla' }));
    await waitFor(() => expect(within(within(dialog).getByTestId('action-row')).getByText('Esa etiqueta no es de esta compañía')).toBeTruthy());
    expect(within(dialog).getByRole('alert').textContent).toContain('Esa etiqueta no es de esta compañía');
  }, 30_000);

  it('tries a rule on a chosen chat: each condition with what it found, and what it would do', async () => {
    const preview: AutomationTestOut = {
      matched: true,
      conditions: [
        { field: 'text', op: 'contains', value: 'precio', actual: 'precio por favor', passed: true },
        { field: 'channel', op: 'is', value: 'whatsapp', actual: 'instagram', passed: false },
      ],
      actions: [
        { type: 'add_label', wouldDo: 'Agregaría la etiqueta «Cotización»' },
        { type: 'assign_agent', wouldDo: 'Asignaría el chat a Equipo Ventas' },
      ],
    };
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return { status: 200, body: { payload: [{ ...quotes, match: 'any' }, resolver] } };
      if (call.method === 'GET' && call.path === '/chats/get_chats')
        return {
          status: 200,
          body: pageOf([
            { _id: CHAT, contactName: 'Ana Torres', platform: 'instagram', status: 'open', unreadCount: 0, lastMessagePreview: 'precio por favor', createdAt: quotes.createdAt, updatedAt: quotes.createdAt },
          ]),
        };
      if (call.method === 'POST' && call.path === `/automation-rules/${quotes._id}/test`) return { status: 200, body: preview };
      if (call.method === 'POST' && call.path === `/automation-rules/${resolver._id}/test`)
        return { status: 200, body: { matched: false, conditions: [{ field: 'agent', op: 'none', actual: VENTAS, passed: false }], actions: [] } };
      return refs(call);
    });
    render();
    const [first, second] = await screen.findAllByTestId('automation-rule');
    await userEvent.click(within(first).getByRole('button', { name: 'Probar' }));
    let dialog = await screen.findByRole('dialog', { name: 'Probar «Cotizaciones a Ventas»' });
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Chat' }), 'Ana');
    // searched as the inbox searches, once typing stops
    await waitFor(() => expect(api.calls.some((c) => c.path === '/chats/get_chats' && c.query.get('filter') === 'Ana')).toBe(true));
    await userEvent.click(await screen.findByRole('option', { name: /Ana Torres · Instagram/ }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ chatId: CHAT }));
    const judged = await within(dialog).findAllByTestId('evaluated-condition');
    expect(judged.map((j) => j.textContent)).toEqual(['✓el texto del mensaje contiene "precio" — encontró: «precio por favor»', '✗el canal es WhatsApp — encontró: Instagram']);
    expect(within(dialog).getAllByTestId('would-do').map((w) => w.textContent)).toEqual(['Agregaría la etiqueta «Cotización»', 'Asignaría el chat a Equipo Ventas']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(within(second).getByRole('button', { name: 'Probar' }));
    dialog = await screen.findByRole('dialog', { name: 'Probar «Resolver sin agente»' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Chat' }));
    await userEvent.click(await screen.findByRole('option', { name: /Ana Torres/ }));
    expect(await within(dialog).findByText('No se cumplen las condiciones: no haría nada.')).toBeTruthy();
    expect(within(dialog).getByTestId('evaluated-condition').textContent).toBe('✗no tiene agente asignado — encontró: Equipo Ventas');
  });

  it('a list that did not load offers «Reintentar»; deleting a rule asks first', async () => {
    let fail = true;
    let list = [quotes];
    const api = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/automation-rules') return fail ? { status: 500, body: { errors: { code: 'INTERNAL', msg: 'Error interno' } } } : { status: 200, body: { payload: list } };
      if (call.method === 'DELETE' && call.path === `/automation-rules/${quotes._id}`) {
        list = [];
        return { status: 204, body: null };
      }
      return refs(call);
    });
    render();
    expect(await screen.findByText('No se pudieron cargar las reglas.')).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    const card = await screen.findByTestId('automation-rule');
    await userEvent.click(within(card).getByRole('button', { name: 'Eliminar' }));
    const ask = await screen.findByRole('dialog');
    expect(within(ask).getByText(/Se elimina «Cotizaciones a Ventas» con su historial/)).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(ask).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText(/Todavía no hay reglas/)).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('moves a rule by swapping positions, or by renumbering when positions tie', () => {
    const a = { ...quotes, _id: 'a', position: 1 };
    const b = { ...quotes, _id: 'b', position: 4 };
    const c = { ...quotes, _id: 'c', position: 4 };
    expect(movesOf([a, b], b, 'up').map((m) => [m.rule._id, m.position])).toEqual([
      ['b', 1],
      ['a', 4],
    ]);
    expect(movesOf([a, b, c], a, 'down').map((m) => [m.rule._id, m.position])).toEqual([
      ['b', 1],
      ['a', 2],
      ['c', 3],
    ]);
    expect(movesOf([a, b], a, 'up')).toEqual([]);
  });
});
