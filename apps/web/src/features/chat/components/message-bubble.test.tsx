import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render';
import { message } from '../test-fixtures';
import { MessageBubble } from './message-bubble';

afterEach(() => vi.restoreAllMocks());

describe('MessageBubble: content by kind (SPEC §5)', () => {
  it('shows text as text, never as HTML, keeping line breaks', () => {
    renderApp(<MessageBubble message={message({ text: '<b>hola</b>\n<img src=x onerror=alert(1)>' })} />);
    const text = screen.getByTestId('message-text');
    expect(text.textContent).toBe('<b>hola</b>\n<img src=x onerror=alert(1)>');
    expect(text.querySelector('b')).toBeNull();
    expect(text.querySelector('img')).toBeNull();
    expect(getComputedStyle(text).whiteSpace).toBe('pre-wrap');
  });

  it('shows WhatsApp’s formatting as the customer sees it, and its addresses as links that open apart', () => {
    renderApp(<MessageBubble message={message({ text: 'Hola *Rosa*: el _polo_ ~S/ 60~ S/ 45, código ```PE-12```. Ver https://tienda.pe/polo.' })} />);
    const text = screen.getByTestId('message-text');
    expect(text.textContent).toBe('Hola Rosa: el polo S/ 60 S/ 45, código PE-12. Ver https://tienda.pe/polo.');
    expect(text.querySelector('strong')?.textContent).toBe('Rosa');
    expect(text.querySelector('em')?.textContent).toBe('polo');
    expect(text.querySelector('s')?.textContent).toBe('S/ 60');
    expect(text.querySelector('code')?.textContent).toBe('PE-12');
    const link = within(text).getByRole('link', { name: 'https://tienda.pe/polo' });
    expect(link.getAttribute('href')).toBe('https://tienda.pe/polo');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('shows an image that opens larger on click', async () => {
    renderApp(<MessageBubble message={message({ kind: 'image', mediaUrl: 'https://cdn.tienda.pe/foto.jpg', text: 'Así llega' })} />);
    const img = screen.getByRole('img', { name: 'Así llega' });
    expect(img.getAttribute('src')).toBe('https://cdn.tienda.pe/foto.jpg');
    await userEvent.click(screen.getByRole('button', { name: 'Abrir imagen' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('plays video and audio with controls', () => {
    const { container } = renderApp(
      <>
        <MessageBubble message={message({ kind: 'video', mediaUrl: 'https://cdn.tienda.pe/demo.mp4', text: '' })} />
        <MessageBubble message={message({ kind: 'audio', mediaUrl: 'https://cdn.tienda.pe/nota.ogg', text: '' })} />
      </>,
    );
    const video = container.querySelector('video');
    const audio = container.querySelector('audio');
    expect(video?.getAttribute('src')).toBe('https://cdn.tienda.pe/demo.mp4');
    expect(video?.hasAttribute('controls')).toBe(true);
    expect(audio?.getAttribute('src')).toBe('https://cdn.tienda.pe/nota.ogg');
    expect(audio?.hasAttribute('controls')).toBe(true);
  });

  it('shows a document as a file chip with its name, extension and a download link', () => {
    renderApp(<MessageBubble message={message({ kind: 'document', mediaUrl: 'https://cdn.tienda.pe/Lista%20de%20precios.pdf', text: '' })} />);
    const link = screen.getByRole('link', { name: 'Descargar Lista de precios.pdf' });
    expect(link.getAttribute('href')).toBe('https://cdn.tienda.pe/Lista%20de%20precios.pdf');
    expect(link.hasAttribute('download')).toBe(true);
    expect(within(link).getByText('PDF')).toBeTruthy();
  });

  it('classifies a text message link by its extension and embeds YouTube links', () => {
    const { container } = renderApp(
      <>
        <MessageBubble message={message({ kind: 'text', mediaUrl: 'https://cdn.tienda.pe/promo.png', text: 'Promo' })} />
        <MessageBubble message={message({ text: 'Mira https://youtu.be/dQw4w9WgXcQ' })} />
      </>,
    );
    expect(screen.getByRole('img', { name: 'Promo' }).getAttribute('src')).toBe('https://cdn.tienda.pe/promo.png');
    const iframe = container.querySelector('iframe');
    expect(iframe?.getAttribute('src')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
    expect(iframe?.getAttribute('title')).toBe('Video de YouTube');
  });

  it('never puts a javascript: link in the page', () => {
    const { container } = renderApp(<MessageBubble message={message({ kind: 'document', mediaUrl: 'javascript:alert(1)', text: '' })} />);
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
    expect(screen.getByText('No se pudo cargar el archivo')).toBeTruthy();
  });

  it('loads provider media through /api/chats/media/:id with the session', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('x', { status: 200, headers: { 'Content-Type': 'image/jpeg' } }));
    const createUrl = vi.fn(() => 'blob:http://localhost/1');
    Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() });
    const m = message({ kind: 'image', hasMedia: true, text: 'Foto' });
    renderApp(<MessageBubble message={m} />);
    expect((await screen.findByRole('img', { name: 'Foto' })).getAttribute('src')).toBe('blob:http://localhost/1');
    expect(String(fetchSpy.mock.calls[0]?.[0])).toBe(`/api/chats/media/${m._id}`);
  });
});

describe('MessageBubble: status and deletion', () => {
  it.each([
    ['pending', 'Pendiente'],
    ['sent', 'Enviado'],
    ['delivered', 'Entregado'],
    ['read', 'Leído'],
  ] as const)('shows %s as %s', (status, label) => {
    renderApp(<MessageBubble message={message({ direction: 'out', status })} />);
    const badge = screen.getByTestId('message-status');
    expect(badge.dataset.status).toBe(status);
    expect(within(badge).getByTitle(label)).toBeTruthy();
  });

  it('shows a failed message in red with the provider reason', () => {
    renderApp(<MessageBubble message={message({ direction: 'out', status: 'failed', statusError: 'Más de 24 horas desde la última respuesta' })} />);
    expect(screen.getByText('Fallido: Más de 24 horas desde la última respuesta')).toBeTruthy();
  });

  it('shows no status on customer messages', () => {
    renderApp(<MessageBubble message={message({ direction: 'in' })} />);
    expect(screen.queryByTestId('message-status')).toBeNull();
  });

  it("shows a deleted message as 'Mensaje eliminado' without its content", () => {
    renderApp(<MessageBubble message={message({ text: 'secreto', isActive: false })} onDelete={() => {}} />);
    expect(screen.getByText('Mensaje eliminado')).toBeTruthy();
    expect(screen.queryByText('secreto')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Eliminar mensaje' })).toBeNull();
  });

  it("never offers delete on the customer's (inbound) messages", () => {
    renderApp(<MessageBubble message={message({ direction: 'in', text: 'Hola, quiero info' })} onDelete={() => {}} />);
    expect(screen.getByText('Hola, quiero info')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Eliminar mensaje' })).toBeNull();
  });

  it('offers delete only when allowed', async () => {
    const onDelete = vi.fn();
    const m = message({ direction: 'out' });
    const { unmount } = renderApp(<MessageBubble message={m} />);
    expect(screen.queryByRole('button', { name: 'Eliminar mensaje' })).toBeNull();
    unmount();
    renderApp(<MessageBubble message={m} onDelete={onDelete} />);
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar mensaje' }));
    expect(onDelete).toHaveBeenCalledWith(m);
  });
});
