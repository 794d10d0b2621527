import type { ReplySuggestionOut } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp } from '../../../test/render';
import { COMPOSER_DRAFT_EVENT, type ComposerDraftDetail, onComposerDraft } from '../lib/composer-draft';
import { readDraft } from '../lib/drafts';
import { message } from '../test-fixtures';
import { MessageBubble } from './message-bubble';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const suggestion: ReplySuggestionOut = {
  products: [
    {
      productId: '00000000-0000-4000-8000-000000000101',
      sku: 'POLO-PIMA-M-3',
      name: 'Polo algodón pima clásico',
      variant: { sku: 'POLO-PIMA-M-3', size: 'M', color: 'Azul marino' },
      price: 49.9,
      currency: 'PEN',
      stock: 3,
      available: true,
      quantity: 2,
    },
    { productId: '00000000-0000-4000-8000-000000000102', sku: 'ZAP-ANDES-40-1', name: 'Zapatillas urbanas Andes', variant: { sku: 'ZAP-ANDES-40-1', size: '40', color: 'Rojo carmesí' }, price: 149, currency: 'PEN', stock: 0, available: false },
  ],
  draft: '¡Hola, María! Te cuento lo que tenemos:\n• 2 × Polo algodón pima clásico (talla M, Azul marino): S/ 49.90 c/u\n• Zapatillas urbanas Andes (talla 40, Rojo carmesí): agotado por ahora',
  engine: 'embedded',
};

/** «Sugerir respuesta» (decision 0087): the button on the customer's text messages and its panel. */
describe('MessageBubble: «Sugerir respuesta»', () => {
  it('is offered on the customer’s text messages only', () => {
    renderApp(
      <>
        <MessageBubble message={message({ direction: 'out', status: 'sent', text: 'Sí, tenemos' })} />
        <MessageBubble message={message({ kind: 'image', mediaUrl: 'https://cdn.tienda.pe/foto.jpg', text: '' })} />
        <MessageBubble message={message({ isActive: false, text: 'borrado' })} />
      </>,
    );
    expect(screen.queryByRole('button', { name: 'Sugerir respuesta' })).toBeNull();
  });

  it('shows the matched products with variant, price and stock, and the draft; «Usar respuesta» hands it to the composer', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(200, suggestion));
    const m = message({ text: 'quiero 2 polos pima talla M azul y zapatillas andes 40' });
    renderApp(<MessageBubble message={m} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sugerir respuesta' }));
    const panel = await screen.findByRole('region', { name: 'Respuesta sugerida' });
    const rows = await within(panel).findAllByTestId('suggested-product');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('2 × Polo algodón pima clásico');
    expect(rows[0].textContent).toContain('Talla M · Azul marino');
    expect(rows[0].textContent).toMatch(/S\/\s49\.90/);
    expect(rows[0].textContent).toContain('3 en stock');
    expect(rows[1].textContent).toContain('Agotado');
    expect(within(panel).getByTestId('suggestion-draft').textContent).toBe(suggestion.draft);
    expect(within(panel).getByTestId('suggestion-engine').textContent).toBe('Motor integrado');
    const [url, init] = fetchSpy.mock.calls[0] as [string, RequestInit];
    expect(String(url)).toBe(`/api/chats/${m.chatId}/messages/${m._id}/suggestion`);
    expect(init.method).toBe('POST');

    const heard: ComposerDraftDetail[] = [];
    const stop = onComposerDraft(m.chatId, (text) => heard.push({ chatId: m.chatId, text }));
    const other = vi.fn();
    const stopOther = onComposerDraft('otro-chat', other);
    await userEvent.click(within(panel).getByRole('button', { name: 'Usar respuesta' }));
    stop();
    stopOther();
    expect(heard).toEqual([{ chatId: m.chatId, text: suggestion.draft }]);
    expect(other).not.toHaveBeenCalled();
    expect(readDraft(m.chatId).text).toBe(suggestion.draft);
    expect(within(panel).getByRole('status').textContent).toContain('borrador de este chat');
    expect(COMPOSER_DRAFT_EVENT).toBe('mostrador:composer-draft');

    await userEvent.click(within(panel).getByRole('button', { name: 'Descartar' }));
    expect(screen.queryByRole('region', { name: 'Respuesta sugerida' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Sugerir respuesta' })).toBeTruthy();
  });

  it('says when the message names no product, and why the company’s model was not used', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(200, { products: [], draft: '¡Hola! Aceptamos Yape, Plin, transferencia y tarjeta contra entrega.', engine: 'embedded', fallbackReason: 'El modelo escribió un precio que no es del catálogo (S/ 12.50): se muestra el borrador del motor integrado', quickReply: 'pagos' }),
    );
    renderApp(<MessageBubble message={message({ text: 'aceptan yape?' })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sugerir respuesta' }));
    expect((await screen.findByTestId('suggestion-empty')).textContent).toBe('No encontré productos del catálogo en este mensaje');
    expect(screen.getByTestId('suggestion-draft').textContent).toContain('Yape');
    expect(screen.getByTestId('suggestion-fallback').textContent).toContain('precio que no es del catálogo');
  });

  it('shows the loading state, then an error with «Reintentar» that asks again', async () => {
    let answer: (r: Response) => void = () => {};
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)))
      .mockResolvedValueOnce(jsonResponse(200, suggestion));
    renderApp(<MessageBubble message={message({ text: 'polo pima talla M' })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sugerir respuesta' }));
    expect((await screen.findByTestId('suggestion-loading')).textContent).toContain('Buscando productos');
    expect(screen.getByRole('button', { name: 'Usar respuesta' }).hasAttribute('disabled')).toBe(true);
    answer(jsonResponse(500, { errors: { code: 'INTERNAL', msg: 'Ocurrió un error en el servidor' } }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No se pudo sugerir una respuesta');
    await userEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findAllByTestId('suggested-product')).toHaveLength(2);
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
});
