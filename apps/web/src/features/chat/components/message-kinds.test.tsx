import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp } from '../../../test/render';
import { message } from '../test-fixtures';
import { previewOf } from '../texts';
import { MessageBubble } from './message-bubble';

afterEach(() => vi.restoreAllMocks());

/** Decision 0020: every kind a customer can send shows as what it is. */
describe('MessageBubble: the kinds customers send', () => {
  it('a location: name, address and a map link', () => {
    renderApp(
      <MessageBubble message={message({ kind: 'location', text: undefined, content: { location: { latitude: -12.1211, longitude: -77.0297, name: 'Parque Kennedy', address: 'Av. José Larco, Miraflores' } } })} />,
    );
    const card = screen.getByTestId('location-card');
    expect(within(card).getByText('Parque Kennedy')).toBeTruthy();
    expect(within(card).getByText('Av. José Larco, Miraflores')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Ver en el mapa' }).getAttribute('href')).toBe('https://www.google.com/maps?q=-12.1211,-77.0297');
  });

  it('contact cards with their phones and “Agregar como lead”, which then opens the lead', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(jsonResponse(200, { _id: '00000000-0000-4000-8000-000000000999', name: 'Ana Rojas', telefono: '51987654111', status: 'sin-asignar', created: true }));
    const m = message({ kind: 'contacts', text: undefined, content: { contacts: [{ name: 'Ana Rojas', phones: [{ phone: '+51 987 654 111', waId: '51987654111' }], org: 'Bodega Rojas' }] } });
    renderApp(<MessageBubble message={m} />);
    const card = screen.getByTestId('contact-card');
    expect(within(card).getByText('Ana Rojas')).toBeTruthy();
    expect(within(card).getByRole('link', { name: '+51 987 654 111' }).getAttribute('href')).toBe('tel:+51987654111');
    await userEvent.click(within(card).getByRole('button', { name: 'Agregar como lead' }));
    const open = await within(card).findByRole('link', { name: /Ver lead: Ana Rojas/ });
    expect(open.getAttribute('href')).toBe('/lead/sin-asignar?q=51987654111');
    const [url, init] = fetchSpy.mock.calls[0] as [string, RequestInit];
    expect(String(url)).toBe(`/api/chats/${m.chatId}/messages/${m._id}/contact-lead`);
    expect(JSON.parse(String(init.body))).toEqual({ index: 0 });
  });

  it('a public catalogue order says so above its note: anyone may type that phone', () => {
    const note = (unverified?: boolean) =>
      message({ kind: 'system', text: '🛒 Nuevo pedido P-ABC234 desde el catálogo digital', content: { system: { type: 'order', body: '…', ...(unverified ? { unverified } : {}) } } });
    const first = renderApp(<MessageBubble message={note(true)} />);
    expect(screen.getByTestId('unverified-note').textContent).toBe('Pedido del catálogo público · teléfono no verificado');
    expect(screen.getByText('🛒 Nuevo pedido P-ABC234 desde el catálogo digital')).toBeTruthy();
    first.unmount();
    renderApp(<MessageBubble message={note()} />);
    expect(screen.queryByTestId('unverified-note')).toBeNull();
  });

  it('an order as a table of lines with its total', () => {
    renderApp(
      <MessageBubble
        message={message({
          kind: 'order',
          text: 'Para recoger el sábado',
          content: {
            order: {
              catalogId: '1588461368287262',
              items: [
                { productRetailerId: 'polo-basico-m', quantity: 2, itemPrice: 39.9, currency: 'PEN' },
                { productRetailerId: 'gorra-negra', quantity: 1, itemPrice: 25, currency: 'PEN' },
              ],
              total: 104.8,
              currency: 'PEN',
            },
          },
        })}
      />,
    );
    const card = screen.getByTestId('order-card');
    expect(within(card).getAllByRole('row')).toHaveLength(4);
    expect(within(card).getByText('polo-basico-m')).toBeTruthy();
    expect(within(card).getByTestId('order-total').textContent).toMatch(/104[.,]80/);
    expect(screen.getByTestId('message-text').textContent).toBe('Para recoger el sábado');
  });

  it('an ad referral as a “Llegó desde un anuncio” card with headline and link', () => {
    renderApp(
      <MessageBubble
        message={message({ text: 'Hola, vi su anuncio', content: { referral: { headline: 'Polos a S/ 39.90', body: 'Envío gratis', sourceUrl: 'https://fb.me/3cr4Wqqkv', sourceType: 'ad' } } })}
      />,
    );
    const card = screen.getByTestId('referral-card');
    expect(within(card).getByText('Llegó desde un anuncio')).toBeTruthy();
    expect(within(card).getByText('Polos a S/ 39.90')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Ver anuncio' }).getAttribute('href')).toBe('https://fb.me/3cr4Wqqkv');
  });

  it('a reply quotes its original; a missing original says so', () => {
    renderApp(
      <>
        <MessageBubble message={message({ text: 'Mejor la L', content: { replyTo: { mid: 'wamid.1', found: true, kind: 'text', text: '¿Tienen talla M?', direction: 'in' } } })} />
        <MessageBubble message={message({ text: 'Esa', content: { replyTo: { mid: 'wamid.2', found: false } } })} />
      </>,
    );
    const [quoted, missing] = screen.getAllByTestId('quoted-reply');
    expect(quoted.textContent).toContain('Cliente');
    expect(quoted.textContent).toContain('¿Tienen talla M?');
    expect(missing.textContent).toBe('Mensaje que no está en Mostrador');
  });

  it('a reaction shows as an emoji on its bubble', () => {
    renderApp(<MessageBubble message={message({ direction: 'out', status: 'read', text: 'Sí, hay stock', content: { reaction: '❤️' } })} />);
    expect(screen.getByTestId('message-reaction').textContent).toBe('❤️');
  });

  it('a button tap, an unsupported message with its reason, a story mention and extra attachments', () => {
    renderApp(
      <>
        <MessageBubble message={message({ kind: 'interactive', text: 'Sí, confirmar', content: { interactive: { type: 'button_reply', id: 'ok', title: 'Sí, confirmar' } } })} />
        <MessageBubble message={message({ kind: 'unsupported', text: undefined, content: { providerType: 'unsupported', error: { code: 131051, details: 'Message type is currently not supported.' } } })} />
        <MessageBubble message={message({ kind: 'story', text: '¡Me encanta!', content: { story: { type: 'reply', url: 'https://lookaside.fbsbx.com/story' } } })} />
        <MessageBubble
          message={message({
            kind: 'image',
            mediaUrl: 'https://scontent.xx.fbcdn.net/foto-1.jpg',
            text: undefined,
            content: {
              attachments: [
                { type: 'image', url: 'https://scontent.xx.fbcdn.net/foto-1.jpg' },
                { type: 'fallback', url: 'https://acme.pe/polo', title: 'Polo básico' },
              ],
            },
          })}
        />
      </>,
    );
    expect(screen.getByTestId('interactive-tap').textContent).toContain('Sí, confirmar');
    expect(screen.queryByTestId('message-text')?.textContent).not.toBe('Sí, confirmar');
    expect(screen.getByTestId('unsupported-note').textContent).toBe('Mensaje no compatible: Message type is currently not supported. (131051)');
    expect(screen.getByTestId('story-note').textContent).toContain('Respondió a tu historia');
    expect(within(screen.getByTestId('extra-attachments')).getByRole('link', { name: 'Polo básico' }).getAttribute('href')).toBe('https://acme.pe/polo');
  });

  it('a document shows the file name it came with', () => {
    renderApp(<MessageBubble message={message({ kind: 'document', hasMedia: true, mimeType: 'application/pdf', text: 'La cotización', content: { fileName: 'cotizacion-marzo.pdf' } })} />);
    expect(screen.getByRole('button', { name: 'Descargar cotizacion-marzo.pdf' })).toBeTruthy();
  });
});

describe('inbox preview of each kind', () => {
  it.each([
    [{ kind: 'location', content: { location: { latitude: 1, longitude: 2 } } }, '📍 Ubicación'],
    [{ kind: 'contacts', content: { contacts: [{ name: 'Ana', phones: [] }] } }, '👤 Contacto: Ana'],
    [{ kind: 'order', content: { order: { items: [{ productRetailerId: 'a', quantity: 2 }, { productRetailerId: 'b', quantity: 1 }] } } }, '🛒 Pedido: 3 productos'],
    [{ kind: 'unsupported', content: { error: { title: 'Message type unknown' } } }, 'Mensaje no compatible: Message type unknown'],
    [{ kind: 'referral', content: { referral: { headline: 'Promo 2x1' } } }, '📣 Llegó desde un anuncio: Promo 2x1'],
    [{ kind: 'audio', content: { voice: true } }, '🎤 Nota de voz'],
  ] as const)('%o reads “%s”', (m, expected) => {
    expect(previewOf(m as Parameters<typeof previewOf>[0])).toBe(expected);
  });
});
