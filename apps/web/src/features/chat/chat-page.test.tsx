import type { ChatMessage, ChatSummary } from '@mostrador/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeMessage } from '../../lib/realtime';
import { sessionStore } from '../../lib/session';
import { type FakeAnswer, type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { ChatPage } from './chat-page';
import { ids, message, summary, thread } from './test-fixtures';

const realtime = vi.hoisted(() => ({ handler: null as null | ((m: RealtimeMessage) => void) }));
vi.mock('../../lib/realtime', () => ({
  useRealtimeEvents: (handler: (m: RealtimeMessage) => void) => {
    realtime.handler = handler;
  },
}));

const emit = (event: RealtimeMessage) => act(() => realtime.handler?.(event));

// Whole-screen tests that type and click: room for a busy two-core machine running every file at once.
vi.setConfig({ testTimeout: 15_000 });

const all = ['list', 'read', 'create', 'update', 'delete'];
const admin = { role: 'admin', permissions: { chats: all, leads: all, organization: all } };
const agent = { role: 'agent', permissions: { chats: ['list', 'read', 'create', 'update'], leads: ['list', 'read', 'create', 'update'] } };

interface Server {
  chats: ChatSummary[];
  messages: Record<string, ChatMessage[]>;
  permissions?: object;
  /** Answers a call before the defaults (a 409, a massive send…). */
  extra?: (call: FakeCall) => FakeAnswer;
}

function serve(server: Server) {
  return fakeApi((call) => {
    const own = server.extra?.(call);
    if (own) return own;
    if (call.path === '/permissions') return { status: 200, body: server.permissions ?? admin };
    if (call.method === 'GET' && call.path === '/chats/get_chats') {
      const filter = call.query.get('filter')?.toLowerCase();
      const found = server.chats.filter((c) => !filter || c.contactName.toLowerCase().includes(filter));
      return { status: 200, body: pageOf(found, { limit: 10 }) };
    }
    const thread_ = /^\/chats\/([^/]+)\/messages$/.exec(call.path);
    if (thread_ && call.method === 'GET') {
      const chat = server.chats.find((c) => c._id === thread_[1]);
      return chat ? { status: 200, body: thread(chat, server.messages[chat._id] ?? []) } : undefined;
    }
    if (thread_ && call.method === 'POST') {
      const body = call.body as { kind: ChatMessage['kind']; text?: string; mediaUrl?: string };
      const sent = message({ chatId: thread_[1], direction: 'out', status: 'sent', ...body, sentAt: new Date().toISOString() });
      return { status: 201, body: sent };
    }
    const read = /^\/chats\/([^/]+)\/read$/.exec(call.path);
    if (read) {
      const chat = server.chats.find((c) => c._id === read[1]);
      return chat ? { status: 200, body: { ...chat, unreadCount: 0 } } : undefined;
    }
    if (call.path === '/chats/get_all_by_cleanlead_id') return { status: 200, body: { payload: [] } };
    if (['/agentes', '/mostrador-labels', '/users/chat_groups'].includes(call.path)) return { status: 200, body: pageOf([]) };
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
  realtime.handler = null;
});
afterEach(() => vi.restoreAllMocks());

const composer = () => screen.getByRole('textbox', { name: 'Escribe un mensaje' });

describe('ChatPage: inbox', () => {
  it('lists conversations with channel, preview, relative time and unread badge', async () => {
    const { calls } = serve({
      chats: [summary({ unreadCount: 3 }), summary({ _id: ids.chat2, contactName: 'Luis Paredes', platform: 'facebook', lastMessagePreview: 'Perfecto' })],
      messages: {},
    });
    renderApp(<ChatPage />, { route: '/chat' });
    const items = await screen.findAllByTestId('chat-item');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    expect(within(first).getByText('María Fernández')).toBeTruthy();
    expect(within(first).getByTitle('WhatsApp')).toBeTruthy();
    expect(within(first).getByText('hace 5 min')).toBeTruthy();
    expect(within(first).getByTestId('unread-badge').textContent).toBe('3');
    expect(within(second).getByTitle('Messenger')).toBeTruthy();
    expect(within(second).queryByTestId('unread-badge')).toBeNull();
    expect(screen.getByText('Elige una conversación para ver sus mensajes')).toBeTruthy();
    const list = calls.find((c) => c.path === '/chats/get_chats');
    expect(Object.fromEntries(list?.query ?? [])).toMatchObject({ page: '1', limit: '10' });
  });

  it('shows the empty state with the way to connect WhatsApp', async () => {
    serve({ chats: [], messages: {} });
    renderApp(<ChatPage />, { route: '/chat' });
    expect(await screen.findByText('Aún no hay conversaciones')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Conectar WhatsApp' }).getAttribute('href')).toBe('/whatsapp');
  });

  it('searches after a pause and shows the no-results state', async () => {
    const { calls } = serve({ chats: [summary()], messages: {} });
    renderApp(<ChatPage />, { route: '/chat' });
    await screen.findByTestId('chat-item');
    await userEvent.type(screen.getByRole('searchbox', { name: /Buscar/ }), 'zzz');
    expect(await screen.findByText('Ninguna conversación coincide con la búsqueda o los filtros')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/chats/get_chats' && c.query.get('filter')).map((c) => c.query.get('filter'))).toEqual(['zzz']);
  });

  it('pages by 10 with "Cargar más"', async () => {
    const many = Array.from({ length: 12 }, (_, i) => summary({ _id: `00000000-0000-4000-8000-0000000010${String(i).padStart(2, '0')}`, contactName: `Cliente ${i + 1}` }));
    const { calls } = serve({
      chats: [],
      messages: {},
      extra: (call) => {
        if (call.path !== '/chats/get_chats') return undefined;
        const page = Number(call.query.get('page'));
        return { status: 200, body: pageOf(many.slice((page - 1) * 10, page * 10), { totalDocs: 12, page, limit: 10 }) };
      },
    });
    renderApp(<ChatPage />, { route: '/chat' });
    expect(await screen.findAllByTestId('chat-item')).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    await waitFor(() => expect(screen.getAllByTestId('chat-item')).toHaveLength(12));
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(calls.filter((c) => c.path === '/chats/get_chats').map((c) => c.query.get('page'))).toEqual(['1', '2']);
  });

  it('loads older messages with `before`', async () => {
    const older = message({ text: 'Mensaje antiguo', sentAt: '2025-03-13T10:00:00Z' });
    const recent = message({ text: 'Mensaje reciente', sentAt: '2025-03-14T10:00:00Z' });
    const { calls } = serve({
      chats: [summary()],
      messages: {},
      extra: (call) => {
        if (call.method !== 'GET' || call.path !== `/chats/${ids.chat1}/messages`) return undefined;
        return call.query.get('before') ? { status: 200, body: thread(summary(), [older], false) } : { status: 200, body: thread(summary(), [recent], true) };
      },
    });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByText('Mensaje reciente');
    await userEvent.click(screen.getByRole('button', { name: 'Cargar mensajes anteriores' }));
    await screen.findByText('Mensaje antiguo');
    expect(screen.getAllByTestId('message-text').map((t) => t.textContent)).toEqual(['Mensaje antiguo', 'Mensaje reciente']);
    expect(calls.filter((c) => c.path.endsWith('/messages')).at(-1)?.query.get('before')).toBe('2025-03-14T10:00:00Z');
    expect(screen.queryByRole('button', { name: 'Cargar mensajes anteriores' })).toBeNull();
  });

  it('opens a chat from the list: reads it and shows its messages oldest first', async () => {
    const older = message({ text: 'Hola', sentAt: '2025-03-14T15:00:00Z' });
    const newer = message({ text: '¿Tienen delivery?', sentAt: '2025-03-14T15:01:00Z' });
    const { calls } = serve({ chats: [summary({ unreadCount: 2 })], messages: { [ids.chat1]: [older, newer] } });
    renderApp(<ChatPage />, { route: '/chat' });
    await userEvent.click(await screen.findByTestId('chat-item'));
    const texts = await screen.findAllByTestId('message-text');
    expect(texts.map((t) => t.textContent)).toEqual(['Hola', '¿Tienen delivery?']);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `/chats/${ids.chat1}/read`)).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('unread-badge')).toBeNull());
  });
});

describe('ChatPage: sending', () => {
  it('sends with Enter, keeps Shift+Enter as a new line, and shows the message with its status', async () => {
    const { calls } = serve({ chats: [summary()], messages: { [ids.chat1]: [message({ text: 'Hola' })] } });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByText('Hola');
    await userEvent.type(composer(), 'Sí, llegamos{Shift>}{Enter}{/Shift}hoy mismo{Enter}');
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `/chats/${ids.chat1}/messages`)).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.path === `/chats/${ids.chat1}/messages`);
    expect(post?.body).toEqual({ kind: 'text', text: 'Sí, llegamos\nhoy mismo' });
    const sent = await screen.findByText('Sí, llegamos\nhoy mismo', { normalizer: (s) => s, selector: '[data-testid="message-text"]' });
    const bubble = sent.closest('[data-testid="message"]') as HTMLElement;
    await waitFor(() => expect(within(bubble).getByTestId('message-status').dataset.status).toBe('sent'));
    expect((composer() as HTMLTextAreaElement).value).toBe('');
  });

  it("answers an empty send with 'Escribe un mensaje'", async () => {
    const { calls } = serve({ chats: [summary()], messages: {} });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('thread-title');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Escribe un mensaje')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/messages'))).toBe(false);
  });

  it('validates a media link with the contract messages and sends it', async () => {
    const { calls } = serve({ chats: [summary()], messages: {} });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('thread-title');
    await userEvent.click(screen.getByRole('button', { name: 'Adjuntar' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Por enlace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adjuntar archivo por enlace' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Falta el enlace del archivo')).toBeTruthy();
    const url = within(dialog).getByRole('textbox', { name: 'Enlace del archivo' });
    await userEvent.click(url);
    await userEvent.paste('no es un enlace');
    expect(await within(dialog).findByText('Debe ser una URL válida')).toBeTruthy();
    await userEvent.clear(url);
    await userEvent.paste('https://cdn.tienda.pe/catalogo.pdf');
    // The kind follows the extension.
    expect(within(dialog).getByRole('combobox', { name: 'Tipo de archivo' }).textContent).toBe('Documento');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `/chats/${ids.chat1}/messages`)).toBe(true));
    expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/messages'))?.body).toEqual({ kind: 'document', mediaUrl: 'https://cdn.tienda.pe/catalogo.pdf' });
    expect(await screen.findByRole('link', { name: 'Descargar catalogo.pdf' })).toBeTruthy();
  });

  it('sends a file «Desde Drive» by its public address, as its kind, with the caption', async () => {
    const pdf = {
      _id: 'abcdefghijklmnopqrstuvwx',
      name: 'Lista de precios.pdf',
      folder: 'Precios',
      mimeType: 'application/pdf',
      kind: 'document',
      size: 20_480,
      sha256: 'a'.repeat(64),
      path: '/api/drive/files/abcdefghijklmnopqrstuvwx/Lista%20de%20precios.pdf',
      url: 'https://mostrador.test/api/drive/files/abcdefghijklmnopqrstuvwx/Lista%20de%20precios.pdf',
      uploadedBy: null,
      createdAt: '2026-11-20T15:00:00Z',
    };
    const { calls } = serve({
      chats: [summary()],
      messages: {},
      extra: (call) => {
        if (call.path === '/drive/folders') return { status: 200, body: { payload: [{ name: 'Precios', files: 1 }] } };
        if (call.path === '/drive/files') return { status: 200, body: pageOf(call.query.get('filter') === 'nada' ? [] : [pdf], { limit: 12 }) };
        return undefined;
      },
    });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('thread-title');
    await userEvent.click(screen.getByRole('button', { name: 'Adjuntar' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Desde Drive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar desde Drive' });
    expect(await within(dialog).findByRole('button', { name: 'Precios (1)' })).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(await within(dialog).findByRole('option', { name: 'Lista de precios.pdf' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Texto (opcional)' }), 'Nuestros precios');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `/chats/${ids.chat1}/messages`)).toBe(true));
    expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/messages'))?.body).toEqual({ kind: 'document', mediaUrl: pdf.url, text: 'Nuestros precios' });
  });

  it('outside the 24-hour window: shows the banner and does not let free text be sent', async () => {
    const { calls } = serve({ chats: [summary({ windowOpenUntil: new Date(Date.now() - 60_000).toISOString() })], messages: {} });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    const banner = await screen.findByTestId('outside-window');
    expect(banner.textContent).toContain('Pasaron más de 24 horas desde el último mensaje del cliente');
    expect((composer() as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Adjuntar' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/messages'))).toBe(false);
  });

  it('a WhatsApp chat without any customer message is outside the window too; Messenger is not', async () => {
    serve({ chats: [summary({ windowOpenUntil: undefined }), summary({ _id: ids.chat2, platform: 'facebook', windowOpenUntil: undefined })], messages: {} });
    const { unmount } = renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    expect(await screen.findByTestId('outside-window')).toBeTruthy();
    unmount();
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat2}` });
    await screen.findByTestId('thread-title');
    expect(screen.queryByTestId('outside-window')).toBeNull();
    expect((composer() as HTMLTextAreaElement).disabled).toBe(false);
  });

  it("shows the server's 409 refusal and gives the text back", async () => {
    const refusal = 'Pasaron más de 24 horas desde el último mensaje del cliente: WhatsApp solo permite escribirle con una plantilla aprobada.';
    serve({
      chats: [summary()],
      messages: {},
      extra: (call) => (call.method === 'POST' && call.path.endsWith('/messages') ? { status: 409, body: { errors: { code: 'CONFLICT', msg: refusal } } } : undefined),
    });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('thread-title');
    await userEvent.type(composer(), 'Hola{Enter}');
    expect((await screen.findByTestId('send-refusal')).textContent).toBe(refusal);
    await waitFor(() => expect((composer() as HTMLTextAreaElement).value).toBe('Hola'));
    expect(screen.queryAllByTestId('message')).toHaveLength(0);
  });
});

describe('ChatPage: real time', () => {
  it('a new message of the open chat appears in the thread once, and the list moves it up', async () => {
    const first = message({ text: 'Hola' });
    const { calls } = serve({
      chats: [summary({ _id: ids.chat2, contactName: 'Luis Paredes', lastMessageAt: new Date().toISOString() }), summary()],
      messages: { [ids.chat1]: [first] },
    });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByText('Hola');
    const incoming = message({ text: '¿Siguen abiertos?', sentAt: new Date().toISOString() });
    const chat = summary({ unreadCount: 1, lastMessagePreview: '¿Siguen abiertos?', lastMessageAt: incoming.sentAt });
    const readsBefore = calls.filter((c) => c.path.endsWith('/read')).length;
    emit({ type: 'message.created', chat, message: incoming });
    emit({ type: 'message.created', chat, message: incoming });
    expect(await screen.findByText('¿Siguen abiertos?', { selector: '[data-testid="message-text"]' })).toBeTruthy();
    expect(screen.getAllByTestId('message')).toHaveLength(2);
    const [top] = screen.getAllByTestId('chat-item') as [HTMLElement];
    expect(top.dataset.chatId).toBe(ids.chat1);
    expect(within(top).getByTestId('chat-preview').textContent).toBe('¿Siguen abiertos?');
    // The open chat is being read: no badge, and the server is told.
    expect(within(top).queryByTestId('unread-badge')).toBeNull();
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/read')).length).toBeGreaterThan(readsBefore));
  });

  it('a message of another chat raises its badge; a status update changes the ticks', async () => {
    const mine = message({ direction: 'out', status: 'sent', text: 'Le confirmo el pedido' });
    serve({ chats: [summary(), summary({ _id: ids.chat2, contactName: 'Luis Paredes' })], messages: { [ids.chat1]: [mine] } });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByText('Le confirmo el pedido');
    emit({ type: 'message.created', chat: summary({ _id: ids.chat2, contactName: 'Luis Paredes', unreadCount: 4, lastMessageAt: new Date().toISOString() }), message: message({ chatId: ids.chat2, text: 'Hola' }) });
    const luis = await screen.findByText('Luis Paredes');
    const item = luis.closest('[data-testid="chat-item"]') as HTMLElement;
    expect(within(item).getByTestId('unread-badge').textContent).toBe('4');
    expect(screen.queryByText('Hola', { selector: '[data-testid="message-text"]' })).toBeNull();
    emit({ type: 'message.updated', chatId: ids.chat1, message: { ...mine, status: 'read' } });
    await waitFor(() => expect(screen.getByTestId('message-status').dataset.status).toBe('read'));
  });

  it('our own message is not doubled when the event arrives before the POST answer', async () => {
    let release: (() => void) | undefined;
    const sent = message({ direction: 'out', status: 'sent', text: 'Va en camino', sentAt: new Date().toISOString() });
    const { spy } = serve({ chats: [summary()], messages: {} });
    const original = spy.getMockImplementation();
    if (!original) throw new Error('fakeApi installs an implementation');
    spy.mockImplementation(async (input, init) => {
      if (init?.method === 'POST' && String(input).endsWith('/messages')) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return new Response(JSON.stringify(sent), { status: 201, headers: { 'Content-Type': 'application/json' } });
      }
      return original(input, init);
    });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('thread-title');
    await userEvent.type(composer(), 'Va en camino{Enter}');
    // Shown at once as Pendiente.
    await waitFor(() => expect(screen.getByTestId('message-status').dataset.status).toBe('pending'));
    emit({ type: 'message.created', chat: summary(), message: sent });
    // the event takes the placeholder's place at once: never two bubbles, even before the POST answers
    await waitFor(() => expect(screen.getByTestId('message-status').dataset.status).toBe('sent'));
    expect(screen.getAllByTestId('message')).toHaveLength(1);
    await act(async () => release?.());
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(1));
    expect(screen.getByTestId('message-status').dataset.status).toBe('sent');
  });

  it('reloads when the stream opens again', async () => {
    const { calls } = serve({ chats: [summary()], messages: {} });
    renderApp(<ChatPage />, { route: '/chat' });
    await screen.findByTestId('chat-item');
    const before = calls.filter((c) => c.path === '/chats/get_chats').length;
    emit({ type: 'resync' });
    await waitFor(() => expect(calls.filter((c) => c.path === '/chats/get_chats').length).toBe(before + 1));
  });
});

describe('ChatPage: deep links, deleting, mass message', () => {
  it('/chat?leadId=&platform= opens the lead’s chat', async () => {
    const { calls } = serve({
      chats: [summary()],
      messages: {},
      extra: (call) =>
        call.path === '/chats/get_all_by_lead_id' ? { status: 200, body: thread(summary({ contactName: 'Rosa Quispe' }), [message({ text: 'Buenas' })]) } : undefined,
    });
    renderApp(<ChatPage />, { route: `/chat?leadId=${ids.lead1}&platform=whatsapp` });
    expect((await screen.findByTestId('thread-title')).textContent).toBe('Rosa Quispe');
    expect(await screen.findByText('Buenas')).toBeTruthy();
    const call = calls.find((c) => c.path === '/chats/get_all_by_lead_id');
    expect(Object.fromEntries(call?.query ?? [])).toEqual({ leadId: ids.lead1, platform: 'whatsapp' });
  });

  it('deletes a message after the Advertencia dialog', async () => {
    const m = message({ text: 'Precio equivocado', direction: 'out', status: 'delivered' });
    const { calls } = serve({
      chats: [summary()],
      messages: { [ids.chat1]: [m] },
      extra: (call) => (call.method === 'DELETE' ? { status: 200, body: { status: 200, _id: m._id } } : undefined),
    });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByText('Precio equivocado');
    await userEvent.click(await screen.findByRole('button', { name: 'Eliminar mensaje' }));
    const dialog = await screen.findByRole('dialog', { name: 'Advertencia' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
    expect(await screen.findByText('Registro eliminado con éxito')).toBeTruthy();
    expect(await screen.findByText('Mensaje eliminado')).toBeTruthy();
    expect(screen.queryByText('Precio equivocado')).toBeNull();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/chats/${ids.chat1}/messages/${m._id}`);
  });

  it('moves and assigns the lead from the side panel (PUT /leads/:id)', async () => {
    const agentId = '00000000-0000-4000-8000-000000000201';
    const { calls } = serve({
      chats: [summary()],
      messages: {},
      extra: (call) => {
        if (call.path === '/agentes') return { status: 200, body: pageOf([{ _id: agentId, name: 'Carla Mendoza' }]) };
        if (call.method === 'PUT' && call.path === `/leads/${ids.lead1}`) return { status: 200, body: { _id: ids.lead1, ...(call.body as object) } };
        return undefined;
      },
    });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('thread-title');
    await userEvent.click(screen.getByRole('button', { name: 'Ver datos del lead' }));
    const panel = await screen.findByTestId('lead-panel');
    expect(within(panel).getByText('51987001122')).toBeTruthy();
    await userEvent.click(within(panel).getByRole('combobox', { name: 'Estado' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Informado al agente' }));
    expect(await screen.findByText('Registro actualizado con éxito')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'informado-al-agente' });
    await waitFor(() => expect(within(panel).getByRole('combobox', { name: 'Estado' }).textContent).toBe('Informado al agente'));
    await userEvent.click(within(panel).getByRole('combobox', { name: 'Agente' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Carla Mendoza' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ agenteId: agentId }));
  });

  it('keeps a draft per chat when switching chats', async () => {
    serve({ chats: [summary(), summary({ _id: ids.chat2, contactName: 'Luis Paredes' })], messages: {} });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByTestId('thread-title');
    await userEvent.click(composer());
    await userEvent.paste('Le escribo en un momento');
    await userEvent.click(screen.getByText('Luis Paredes'));
    await waitFor(() => expect(screen.getByTestId('thread-title').textContent).toBe('Luis Paredes'));
    expect((composer() as HTMLTextAreaElement).value).toBe('');
    await userEvent.click(screen.getAllByText('María Fernández')[0] as HTMLElement);
    await waitFor(() => expect((composer() as HTMLTextAreaElement).value).toBe('Le escribo en un momento'));
  });

  it('agents cannot delete messages', async () => {
    serve({ chats: [summary()], messages: { [ids.chat1]: [message({ text: 'Hola' })] }, permissions: agent });
    renderApp(<ChatPage />, { route: `/chat?chatId=${ids.chat1}` });
    await screen.findByText('Hola');
    await screen.findByRole('button', { name: 'Seleccionar' });
    expect(screen.queryByRole('button', { name: 'Eliminar mensaje' })).toBeNull();
  });

  it('sends a mass message to the selected chats and lists the skipped ones', async () => {
    const { calls } = serve({
      chats: [summary(), summary({ _id: ids.chat2, contactName: 'Luis Paredes' })],
      messages: {},
      extra: (call) =>
        call.path === '/chats/send_massive_message'
          ? { status: 200, body: { msg: 'Mensajes enviados con éxito', queued: 1, skipped: [{ chatId: ids.chat2, reason: 'Fuera de la ventana de 24 horas' }] } }
          : undefined,
    });
    renderApp(<ChatPage />, { route: '/chat' });
    await screen.findAllByTestId('chat-item');
    await userEvent.click(screen.getByRole('button', { name: 'Seleccionar' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'María Fernández' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Luis Paredes' }));
    expect(screen.getByTestId('selected-count').textContent).toBe('2 seleccionados');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar mensaje masivo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar mensaje masivo' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Este campo es requerido')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Mensaje' }));
    await userEvent.paste('Hoy 20% de descuento');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Mensajes enviados con éxito')).toBeTruthy();
    const skipped = await within(dialog).findByTestId('massive-skipped');
    expect(within(skipped).getByText('Luis Paredes')).toBeTruthy();
    expect(within(skipped).getByText('Fuera de la ventana de 24 horas')).toBeTruthy();
    expect(calls.find((c) => c.path === '/chats/send_massive_message')?.body).toEqual({ chatIds: [ids.chat1, ids.chat2], text: 'Hoy 20% de descuento' });
  });
});
