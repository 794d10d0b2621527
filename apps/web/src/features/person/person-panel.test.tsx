import type { ChatSummary, DuplicateCandidate, MergeResult, Person } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { pageOf } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render';
import { LeadPanel } from '../chat/components/lead-panel';
import { summary } from '../chat/test-fixtures';

vi.setConfig({ testTimeout: 20_000 });

/**
 * The chat's side panel shows the person behind the chat (issue 11): name, phones, e-mails,
 * labels, every conversation on every channel, the saved contacts; edits them in place; and
 * merges a duplicate after a confirmation that says what it does.
 */

const ids = {
  person: '00000000-0000-4000-8000-000000000501',
  wa: '00000000-0000-4000-8000-000000000001',
  ig: '00000000-0000-4000-8000-000000000002',
  fb: '00000000-0000-4000-8000-000000000003',
  leadWa: '00000000-0000-4000-8000-000000000101',
  leadIg: '00000000-0000-4000-8000-000000000102',
  dup: '00000000-0000-4000-8000-000000000502',
  label: '00000000-0000-4000-8000-000000000601',
};
const at = '2025-03-14T15:30:00.000Z';

const waChat = summary({
  _id: ids.wa,
  contactName: 'Valeria Mendoza',
  lead: { _id: ids.leadWa, name: 'Valeria Mendoza', telefono: '51987650001', status: 'informado-al-agente', mostradorLabels: [ids.label], cleanLeadId: ids.person },
});
const igChat: ChatSummary = {
  ...summary({ _id: ids.ig, contactName: 'Valeria Mendoza', platform: 'instagram', lastMessagePreview: 'Perfecto, les escribo por WhatsApp' }),
  lead: { _id: ids.leadIg, name: 'Valeria Mendoza', cleanLeadId: ids.person },
};
const fbChat = summary({ _id: ids.fb, contactName: 'Vale Mendoza', platform: 'facebook' });

const valeria: Person = {
  _id: ids.person,
  name: 'Valeria Mendoza',
  telefono: '51987650001',
  email: 'valeria.mendoza@gmail.com',
  telefonos: ['51987650001'],
  emails: ['valeria.mendoza@gmail.com'],
  mostradorLabels: [ids.label],
  status: 'informado-al-agente',
  leads: [
    { _id: ids.leadWa, name: 'Valeria Mendoza', platform: 'whatsapp', telefono: '51987650001', createdAt: at, chats: [waChat] },
    { _id: ids.leadIg, name: 'Valeria Mendoza', platform: 'instagram', createdAt: at, chats: [igChat] },
  ],
  contactos: [{ _id: '00000000-0000-4000-8000-000000000701', nombre: 'Valeria Mendoza (cliente frecuente)', telefono: '987650001' }],
  createdAt: at,
  updatedAt: at,
};
const vale: DuplicateCandidate = {
  _id: ids.dup,
  name: 'Vale Mendoza',
  email: 'valeria.mendoza@gmail.com',
  reasons: ['email'],
  platforms: ['facebook'],
  leads: 1,
  chats: 1,
  messages: 4,
  createdAt: at,
};

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}
type Answer = { status: number; body: unknown } | undefined;

/** A fake server whose answers may wait (a merge in progress); it keeps the person an edit or a merge answered. */
function serve(answer: (call: Call) => Answer | Promise<Answer>, permissions: object = { role: 'admin', permissions: { leads: ['list', 'read', 'create', 'update', 'delete'], chats: ['list', 'read'] } }) {
  const calls: Call[] = [];
  let current = valeria;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    if (call.path === '/permissions') return jsonResponse(200, permissions);
    const own = await answer(call);
    if (own) {
      if (own.status === 200 && call.method === 'PUT') current = own.body as Person;
      if (own.status === 200 && call.method === 'POST') current = (own.body as MergeResult).person;
      return jsonResponse(own.status, own.body);
    }
    if (call.path === '/people') return jsonResponse(200, current);
    if (call.path === `/people/${ids.person}/duplicates`) return jsonResponse(200, { payload: call.query.get('filter') ? [] : [vale] });
    if (call.path === '/chats/get_all_by_cleanlead_id') return jsonResponse(200, { payload: [waChat, igChat] });
    if (call.path === '/mostrador-labels') return jsonResponse(200, pageOf([{ _id: ids.label, name: 'Cliente frecuente', color: '#1DA851' }]));
    if (call.path === '/agentes') return jsonResponse(200, pageOf([]));
    return jsonResponse(404, { errors: { code: 'NOT_FOUND', msg: 'No existe' } });
  });
  return calls;
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

const panel = () => screen.getByTestId('lead-panel');

describe('the person in the chat panel', () => {
  it('shows the person: name, phones, e-mails, labels, both channels and conversations, contacts and duplicates', async () => {
    const calls = serve(() => undefined);
    renderApp(<LeadPanel chat={waChat} />, { route: `/chat?chatId=${ids.wa}` });
    expect(await within(panel()).findByText('valeria.mendoza@gmail.com')).toBeTruthy();
    expect(calls.find((c) => c.path === '/people')?.query.get('chatId')).toBe(ids.wa);
    expect(within(screen.getByTestId('person-name')).getByText('Valeria Mendoza')).toBeTruthy();
    expect(within(screen.getByTestId('person-phones')).getByRole('link', { name: /51987650001/ }).getAttribute('href')).toBe('tel:+51987650001');
    const channels = screen.getByTestId('person-channels');
    expect(within(channels).getByText('WhatsApp', { selector: 'p' })).toBeTruthy();
    expect(within(channels).getByText('Instagram', { selector: 'p' })).toBeTruthy();
    expect(await within(screen.getByTestId('lead-labels')).findByText('Cliente frecuente')).toBeTruthy();
    // every conversation: this one marked, the Instagram one opens
    const conversations = await screen.findByTestId('person-conversations');
    expect(within(conversations).getByText('Esta conversación')).toBeTruthy();
    expect(within(conversations).getByRole('link', { name: /Instagram · Valeria Mendoza/ }).getAttribute('href')).toBe(`/chat?chatId=${ids.ig}`);
    expect(within(panel()).getByText('Valeria Mendoza (cliente frecuente)')).toBeTruthy();
    const duplicate = await screen.findByTestId('duplicate-candidate');
    expect(within(duplicate).getByText('Vale Mendoza')).toBeTruthy();
    expect(within(duplicate).getByText('Mismo correo')).toBeTruthy();
    expect(within(duplicate).getByText('1 conversación · 4 mensajes')).toBeTruthy();
  });

  it('edits the name in place and shows the server’s Spanish error for a bad phone', async () => {
    const calls = serve((call) => {
      if (call.method !== 'PUT') return undefined;
      const body = call.body as { name?: string; telefono?: string };
      if (body.telefono !== undefined) {
        const msg = 'El teléfono no es válido: escribe de 8 a 15 dígitos, con el código de país si no es de tu país';
        return { status: 400, body: { errors: { code: 'VALIDATION', msg, details: [{ path: 'telefono', msg }] } } };
      }
      return { status: 200, body: { ...valeria, ...body } };
    });
    renderApp(<LeadPanel chat={waChat} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Editar nombre' }));
    const input = screen.getByRole('textbox', { name: 'Nombre' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Valeria Mendoza Ríos{Enter}');
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ name: 'Valeria Mendoza Ríos' }));
    expect(calls.find((c) => c.method === 'PUT')?.path).toBe(`/people/${ids.person}`);
    expect(await within(screen.getByTestId('person-name')).findByText('Valeria Mendoza Ríos')).toBeTruthy();
    expect(await screen.findByText('Registro actualizado con éxito')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Editar teléfono de la persona' }));
    const phone = screen.getByRole('textbox', { name: 'Teléfono de la persona' });
    await userEvent.clear(phone);
    await userEvent.type(phone, '12{Enter}');
    expect(await screen.findByText(/El teléfono no es válido/)).toBeTruthy();
    // still editing, nothing else changed
    expect(screen.getByRole('textbox', { name: 'Teléfono de la persona' })).toBeTruthy();
  });

  it('merges a duplicate after a confirmation that says what happens, showing progress and the result', async () => {
    let finish: (a: Answer) => void = () => {};
    const calls = serve((call) =>
      call.method === 'POST' && call.path === `/people/${ids.person}/merge` ? new Promise<Answer>((resolve) => { finish = resolve; }) : undefined,
    );
    renderApp(<LeadPanel chat={waChat} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Unir a Vale Mendoza' }));
    const dialog = await screen.findByRole('dialog', { name: '¿Unir contactos?' });
    expect(within(dialog).getByText('«Vale Mendoza» se unirá a «Valeria Mendoza».')).toBeTruthy();
    expect(within(dialog).getByText(/Su conversación y sus 4 mensajes pasan a Valeria Mendoza/)).toBeTruthy();
    expect(within(dialog).getByText(/deja de existir como persona aparte/)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Unir contactos' });
    expect(confirm.className).toMatch(/colorError/);
    await userEvent.click(confirm);
    expect(await within(dialog).findByRole('button', { name: 'Uniendo…' })).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toHaveProperty('disabled', true);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ duplicateId: ids.dup });

    const merged: MergeResult = {
      msg: 'Contactos unidos: todo pasó a Valeria Mendoza',
      alreadyMerged: false,
      moved: { leads: 1, chats: 1, messages: 4 },
      person: { ...valeria, leads: [...valeria.leads, { _id: 'x', name: 'Vale Mendoza', platform: 'facebook', createdAt: at, chats: [fbChat] }] },
    };
    finish({ status: 200, body: merged });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const result = await screen.findByRole('status');
    expect(within(result).getByText('Contactos unidos: todo pasó a Valeria Mendoza')).toBeTruthy();
    expect(within(result).getByText(/1 conversación · 4 mensajes pasaron a Valeria Mendoza/)).toBeTruthy();
    // the person now has the Messenger channel too
    expect(await within(screen.getByTestId('person-channels')).findByText('Messenger', { selector: 'p' })).toBeTruthy();
  });

  it('cancelling merges nothing; a failed merge says so and keeps the dialog open', async () => {
    const calls = serve((call) =>
      call.method === 'POST' ? { status: 500, body: { errors: { code: 'INTERNAL', msg: 'Error interno del servidor' } } } : undefined,
    );
    renderApp(<LeadPanel chat={waChat} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Unir a Vale Mendoza' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Unir a Vale Mendoza' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unir contactos' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Unir contactos' })).toHaveProperty('disabled', false);
  });

  it('without leads · update: nothing to edit or merge', async () => {
    serve(() => undefined, { role: 'agent', permissions: { leads: ['list', 'read'], chats: ['list', 'read'] } });
    renderApp(<LeadPanel chat={waChat} />);
    expect(await screen.findByTestId('duplicate-candidate')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar nombre' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Unir a/ })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Buscar otra persona para unir' })).toBeNull();
  });

  it('finds another person by search and offers to merge them', async () => {
    const calls = serve((call) =>
      call.path === `/people/${ids.person}/duplicates` && call.query.get('filter')
        ? { status: 200, body: { payload: [{ ...vale, _id: '00000000-0000-4000-8000-000000000503', name: 'mariafer.lima', reasons: ['busqueda'], platforms: ['instagram'], email: undefined }] } }
        : undefined,
    );
    renderApp(<LeadPanel chat={waChat} />);
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Buscar otra persona para unir' }), 'mariafer');
    expect(await screen.findByText('mariafer.lima')).toBeTruthy();
    expect(screen.getByText('Encontrada por búsqueda')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unir a mariafer.lima' })).toBeTruthy();
    expect(calls.filter((c) => c.query.get('filter')).map((c) => c.query.get('filter'))).toEqual(['mariafer']);
  });
});
