import { type ChatState, chatStateReasons } from '@mostrador/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../../lib/session';
import { fakeApi, pageOf } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { ids, message } from '../test-fixtures';
import { offerComposerDraft } from '../lib/composer-draft';
import { Composer, type ComposerProps } from './composer';
import { MessageBubble } from './message-bubble';

vi.setConfig({ testTimeout: 15_000 });

const hour = 3_600_000;
const quickReplies = [
  { _id: 'q1', atajo: 'saludo', texto: '¡Hola {{nombre}}! Soy {{agente}}. ¿En qué te ayudo?' },
  { _id: 'q2', atajo: 'delivery', texto: 'Hacemos delivery de lunes a sábado 🚚' },
  { _id: 'q3', atajo: 'pagos', texto: 'Aceptamos Yape, Plin y tarjeta. Tu número: {{telefono}}' },
];

function state(overrides: Partial<ChatState> = {}): ChatState {
  return {
    chatId: ids.chat1,
    platform: 'whatsapp',
    channel: 'whatsapp',
    state: 'open',
    canSend: true,
    windowOpenUntil: new Date(Date.now() + 20 * hour).toISOString(),
    status: 'open',
    ...overrides,
  };
}

function renderComposer(props: Partial<ComposerProps> = {}) {
  const onSend = vi.fn(async () => true);
  const onNote = vi.fn(async () => true);
  const view = renderApp(
    <Composer
      chatId={ids.chat1}
      closed={false}
      sending={false}
      onSend={onSend}
      onNote={onNote}
      variables={{ nombre: 'María', agente: 'Carlos' }}
      {...props}
    />,
  );
  return { ...view, onSend, onNote };
}

const replyBox = () => screen.getByRole('textbox', { name: 'Escribe un mensaje' }) as HTMLTextAreaElement;

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
  fakeApi((call) => (call.path === '/respuestas-rapidas' ? { status: 200, body: pageOf(quickReplies, { limit: 100 }) } : undefined));
});
afterEach(() => vi.restoreAllMocks());

describe('Composer: the channel’s state before typing', () => {
  it('open: no warning, and Enter sends what was typed', async () => {
    const { onSend } = renderComposer({ state: state() });
    expect(screen.queryByTestId('outside-window')).toBeNull();
    expect(screen.queryByTestId('composer-locked')).toBeNull();
    await userEvent.type(replyBox(), 'Hola{Enter}');
    expect(onSend).toHaveBeenCalledWith({ kind: 'text', text: 'Hola' });
  });

  it('window closed: says so in Spanish, that a template is needed, and locks the answer', async () => {
    const { onSend } = renderComposer({ state: state({ state: 'window_closed', canSend: false, reason: chatStateReasons.windowClosed('whatsapp') }) });
    const banner = screen.getByTestId('outside-window');
    expect(banner.textContent).toContain('Ventana de 24 horas cerrada');
    expect(banner.textContent).toContain('Pasaron más de 24 horas desde el último mensaje del cliente');
    expect(banner.textContent).toContain('plantilla aprobada');
    expect(replyBox().disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Adjuntar' }) as HTMLButtonElement).disabled).toBe(true);
    expect(onSend).not.toHaveBeenCalled();
  });

  it('the window that closes while the chat is open locks it too (the clock, not only the server)', () => {
    renderComposer({ state: state({ windowOpenUntil: new Date(Date.now() - 1000).toISOString() }) });
    expect(screen.getByTestId('outside-window').textContent).toContain('WhatsApp solo permite escribirle con una plantilla aprobada');
    expect(replyBox().disabled).toBe(true);
  });

  it('Messenger not connected, for an admin: locked with the reason and a link to the screen that connects it', () => {
    const reason = chatStateReasons.notConnected('messenger');
    renderComposer({ state: state({ platform: 'facebook', channel: 'messenger', state: 'not_connected', canSend: false, reason }), canConnect: true });
    const locked = screen.getByTestId('composer-locked');
    expect(locked.textContent).toContain('Messenger no está conectado');
    expect(locked.textContent).toContain('no tiene una página de Facebook configurada');
    // no provider path or internal code in what the user reads
    expect(within(locked).queryByText(/\/whatsapp|CONFLICT|409/)).toBeNull();
    const link = within(locked).getByRole('link', { name: 'Conectar Messenger' });
    expect(link.getAttribute('href')).toBe('/whatsapp');
    expect(replyBox().disabled).toBe(true);
  });

  it('not connected, for an agent: no link, and who to ask', () => {
    renderComposer({ state: state({ state: 'not_connected', canSend: false, reason: chatStateReasons.notConnected('whatsapp') }), canConnect: false });
    const locked = screen.getByTestId('composer-locked');
    expect(within(locked).queryByRole('link')).toBeNull();
    expect(locked.textContent).toContain('Pide a un administrador que lo conecte');
  });

  it('a locked chat still takes an internal note, which is not sent to the customer', async () => {
    const { onSend, onNote } = renderComposer({ state: state({ state: 'window_closed', canSend: false, reason: chatStateReasons.windowClosed('whatsapp') }) });
    await userEvent.click(screen.getByRole('button', { name: 'Nota interna' }));
    expect(screen.queryByTestId('outside-window')).toBeNull();
    const noteBox = screen.getByRole('textbox', { name: 'Nota interna: solo la ve tu equipo' }) as HTMLTextAreaElement;
    expect(noteBox.disabled).toBe(false);
    await userEvent.type(noteBox, 'Llamarlo mañana a las 10{Enter}');
    expect(onNote).toHaveBeenCalledWith('Llamarlo mañana a las 10');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByTestId('composer').dataset.mode).toBe('note');
  });
});

describe('Composer: quick replies with "/"', () => {
  it('lists them when "/" is typed, filters as one types, and inserts the chosen one with the lead’s variables', async () => {
    renderComposer({ state: state() });
    await userEvent.type(replyBox(), '/');
    const picker = await screen.findByRole('listbox', { name: 'Respuestas rápidas' });
    expect(within(picker).getAllByRole('option').map((o) => o.querySelector('span')?.textContent)).toEqual(['/saludo', '/delivery', '/pagos']);
    await userEvent.type(replyBox(), 'sal');
    await waitFor(() => expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(replyBox().value).toBe('¡Hola María! Soy Carlos. ¿En qué te ayudo?'));
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('finds by the text too, moves with the arrows, and keeps what was typed before the "/"', async () => {
    const { onSend } = renderComposer({ state: state() });
    await userEvent.type(replyBox(), 'Claro. /yap');
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([expect.stringContaining('/pagos')]);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    // {{telefono}} has no value here: it stays written for the agent to complete
    await waitFor(() => expect(replyBox().value).toBe('Claro. Aceptamos Yape, Plin y tarjeta. Tu número: {{telefono}}'));
    expect(onSend).not.toHaveBeenCalled();
  });

  it('says when nothing matches, closes with Escape, and inserts on click', async () => {
    renderComposer({ state: state() });
    await userEvent.type(replyBox(), '/zzz');
    expect((await screen.findByTestId('quick-reply-picker')).textContent).toContain('Ninguna respuesta rápida coincide con «/zzz»');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('quick-reply-picker')).toBeNull());
    await userEvent.clear(replyBox());
    await userEvent.type(replyBox(), '/deli');
    const option = await screen.findByRole('option', { name: /delivery/ });
    await userEvent.pointer({ keys: '[MouseLeft>]', target: option });
    await waitFor(() => expect(replyBox().value).toBe('Hacemos delivery de lunes a sábado 🚚'));
  });

  it('a "/" inside a word or a link does not open it', async () => {
    renderComposer({ state: state() });
    await userEvent.type(replyBox(), 'https://tienda.pe/promo y 1/2');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(screen.queryByTestId('quick-reply-picker')).toBeNull();
  });
});

describe('Composer: drafts', () => {
  it('keeps each chat’s draft across a reload (localStorage) and forgets it once sent', async () => {
    const first = renderComposer({ state: state() });
    await userEvent.type(replyBox(), 'Te escribo en un momento');
    first.unmount();
    const second = renderComposer({ state: state() });
    expect(replyBox().value).toBe('Te escribo en un momento');
    second.unmount();
    const other = renderComposer({ chatId: ids.chat2, state: state({ chatId: ids.chat2 }) });
    expect(replyBox().value).toBe('');
    other.unmount();
    const third = renderComposer({ state: state() });
    await userEvent.type(replyBox(), '{Enter}');
    expect(third.onSend).toHaveBeenCalledWith({ kind: 'text', text: 'Te escribo en un momento' });
    third.unmount();
    renderComposer({ state: state() });
    expect(replyBox().value).toBe('');
  });
});

describe('MessageBubble: notes and failed messages', () => {
  it('a failed message shows the provider’s reason and «Reintentar» retries it', async () => {
    const onRetry = vi.fn();
    const failed = message({ direction: 'out', status: 'failed', statusError: 'Mensaje no entregable: el número no tiene WhatsApp (código 131026)' });
    renderApp(<MessageBubble message={failed} onRetry={onRetry} />);
    expect(screen.getByTestId('message-failure').textContent).toContain('Fallido: Mensaje no entregable: el número no tiene WhatsApp (código 131026)');
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(onRetry).toHaveBeenCalledWith(failed);
  });

  it('while it is retried the button waits; a sent message has no button', () => {
    const { unmount } = renderApp(<MessageBubble message={message({ direction: 'out', status: 'failed', statusError: 'x' })} onRetry={() => {}} retrying />);
    expect((screen.getByRole('button', { name: 'Reintentando…' }) as HTMLButtonElement).disabled).toBe(true);
    unmount();
    renderApp(<MessageBubble message={message({ direction: 'out', status: 'sent' })} onRetry={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Reintentar' })).toBeNull();
  });

  it('a note is shown as an internal note, without delivery state', () => {
    renderApp(<MessageBubble message={message({ direction: 'out', kind: 'note', status: 'received', text: 'Cliente frecuente: ofrecer 10 %' })} onRetry={() => {}} />);
    const bubble = screen.getByTestId('message');
    expect(bubble.dataset.kind).toBe('note');
    expect(within(bubble).getByTestId('note-label').textContent).toBe('Nota interna');
    expect(within(bubble).getByText('Cliente frecuente: ofrecer 10 %')).toBeTruthy();
    expect(within(bubble).queryByTestId('message-status')).toBeNull();
    expect(within(bubble).queryByRole('button', { name: 'Reintentar' })).toBeNull();
  });
});

describe('Composer: a text offered from the thread («Usar respuesta»)', () => {
  it('goes into the open composer of its chat, ready to edit and send; another chat’s does not', async () => {
    const { onSend } = renderComposer({ state: state() });
    act(() => offerComposerDraft('otro-chat', 'No es para este chat'));
    expect(replyBox().value).toBe('');
    act(() => offerComposerDraft(ids.chat1, 'Sí, tenemos el polo pima en talla M a S/ 45.00'));
    expect(replyBox().value).toBe('Sí, tenemos el polo pima en talla M a S/ 45.00');
    await userEvent.type(replyBox(), ' 😊{Enter}');
    expect(onSend).toHaveBeenCalledWith({ kind: 'text', text: 'Sí, tenemos el polo pima en talla M a S/ 45.00 😊' });
  });
});
