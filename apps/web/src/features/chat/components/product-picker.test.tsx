import type { ChatProductOption } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../../lib/session';
import { type FakeCall, fakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { message } from '../test-fixtures';
import { Composer } from './composer';
import { MessageContent } from './message-content';
import { ProductPicker } from './product-picker';

vi.setConfig({ testTimeout: 30_000 });

const CHAT = '00000000-0000-4000-8000-000000000001';
const option = (i: number, extra: Partial<ChatProductOption> = {}): ChatProductOption => ({
  id: `00000000-0000-4000-8000-${String(100 + i).padStart(12, '0')}`,
  sku: `SKU-${i}`,
  name: `Producto ${i}`,
  price: 5 + i,
  currency: 'PEN',
  stock: 3,
  category: 'Bebidas',
  inCatalog: true,
  ...extra,
});

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('the composer’s «Productos» picker', () => {
  it('searches, chooses several with an optional text and sends them; one Meta lacks cannot be chosen', async () => {
    const options = [option(1), option(2), option(3, { inCatalog: false, name: 'Producto sin catálogo' })];
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/products`) {
        const q = call.query.get('q') ?? '';
        return { status: 200, body: { payload: options.filter((o) => o.name.includes(q) || o.sku.includes(q)), needsCatalog: true, max: 30 } };
      }
      if (call.method === 'POST' && call.path === `/chats/${CHAT}/products`) return { status: 201, body: message({ kind: 'interactive', chatId: CHAT }) };
      return undefined;
    });
    const onSent = vi.fn();
    const onClose = vi.fn();
    renderApp(<ProductPicker chatId={CHAT} open onClose={onClose} onSent={onSent} />);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Producto 1')).toBeTruthy();
    expect(within(dialog).getByText('S/ 6.00')).toBeTruthy();
    expect((within(dialog).getByRole('checkbox', { name: 'Producto sin catálogo' }) as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByText(/Aún no está en el catálogo de Meta/)).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Producto 1' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Producto 2' }));
    expect(within(dialog).getByTestId('products-chosen').textContent).toContain('2 de 30 elegidos');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Buscar por nombre, SKU o categoría' }), 'SKU-2');
    await waitFor(() => expect(within(dialog).queryByText('Producto 1')).toBeNull());
    expect(calls.some((c) => c.method === 'GET' && c.query.get('q') === 'SKU-2')).toBe(true);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Texto (opcional)' }), 'Te los recomiendo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar (2)' }));
    await waitFor(() => expect(onSent).toHaveBeenCalled());
    const sent = calls.filter((c) => c.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({ productIds: [options[0].id, options[1].id], text: 'Te los recomiendo' });
    expect(onClose).toHaveBeenCalled();
  });

  it('says when the maximum is reached (10 on Messenger) and shows the server’s refusal', async () => {
    const options = Array.from({ length: 11 }, (_, i) => option(i));
    fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/products`) return { status: 200, body: { payload: options, needsCatalog: false, max: 30 } };
      if (call.method === 'POST') return { status: 409, body: { errors: { code: 'CONFLICT', msg: 'Pasaron más de 24 horas desde el último mensaje del cliente' } } };
      return undefined;
    });
    renderApp(<ProductPicker chatId={CHAT} channel="messenger" open onClose={vi.fn()} onSent={vi.fn()} />);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Producto 0');
    for (let i = 0; i < 10; i++) await userEvent.click(within(dialog).getByRole('checkbox', { name: `Producto ${i}` }));
    expect(within(dialog).getByTestId('products-chosen').textContent).toContain('10 de 10 elegidos · Máximo 10 productos por mensaje en Messenger e Instagram');
    expect((within(dialog).getByRole('checkbox', { name: 'Producto 10' }) as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar (10)' }));
    expect((await within(dialog).findByTestId('products-refusal')).textContent).toContain('Pasaron más de 24 horas');
  });

  it('opens a product’s variants, chooses one by size and colour (sold-out ones cannot be) and sends it as items', async () => {
    const polo = option(7, {
      name: 'Polo básico',
      price: 20,
      stock: 6,
      variants: [
        { sku: 'POLO-S-1', size: 'S', color: 'Rojo', stock: 4, price: 25 },
        { sku: 'POLO-M-1', size: 'M', color: 'Rojo', stock: 0, price: 20 },
        { sku: 'POLO-L-1', size: 'L', stock: 2, price: 20 },
      ],
    });
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/products`) return { status: 200, body: { payload: [option(1), polo], needsCatalog: true, max: 30 } };
      if (call.method === 'POST' && call.path === `/chats/${CHAT}/products`) return { status: 201, body: message({ kind: 'interactive', chatId: CHAT }) };
      return undefined;
    });
    const onSent = vi.fn();
    renderApp(<ProductPicker chatId={CHAT} open onClose={vi.fn()} onSent={onSent} />);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/3 variantes/)).toBeTruthy();
    expect(within(dialog).queryByRole('list', { name: 'Variantes de Polo básico' })).toBeNull();
    const expand = within(dialog).getByRole('button', { name: 'Elegir talla o color' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(expand);
    const variants = within(dialog).getByRole('list', { name: 'Variantes de Polo básico' });
    expect(within(variants).getAllByTestId('product-variant')).toHaveLength(3);
    expect(within(variants).getByText('Talla S · Rojo')).toBeTruthy();
    expect(within(variants).getByText('S/ 25.00')).toBeTruthy();
    // sold out: marked, and its box cannot be ticked
    const soldOut = within(variants).getByRole('checkbox', { name: 'Polo básico — Talla M · Rojo' }) as HTMLInputElement;
    expect(soldOut.disabled).toBe(true);
    expect(within(variants).getByText('POLO-M-1 · Sin stock')).toBeTruthy();
    await userEvent.click(within(variants).getByText('Talla M · Rojo'));
    expect(soldOut.checked).toBe(false);
    expect(within(dialog).getByTestId('products-chosen').textContent).toContain('0 de 30 elegidos');

    await userEvent.click(within(variants).getByRole('checkbox', { name: 'Polo básico — Talla S · Rojo' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Producto 1' }));
    expect(within(dialog).getByTestId('products-chosen').textContent).toContain('2 de 30 elegidos');
    expect(within(dialog).getByRole('button', { name: 'Ocultar variantes (1)' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar (2)' }));
    await waitFor(() => expect(onSent).toHaveBeenCalled());
    const sent = calls.filter((c) => c.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({ items: [{ productId: polo.id, variantSku: 'POLO-S-1' }, { productId: option(1).id }] });
  });

  it('outside the 24-hour window asks for a template and opens the template picker', async () => {
    const { calls } = fakeApi(() => undefined);
    const onTemplate = vi.fn();
    renderApp(<ProductPicker chatId={CHAT} open windowClosed onClose={vi.fn()} onSent={vi.fn()} onTemplate={onTemplate} />);
    const alert = await screen.findByTestId('products-window-closed');
    expect(alert.textContent).toContain('Fuera de la ventana de 24 horas');
    await userEvent.click(within(alert).getByRole('button', { name: 'Enviar plantilla' }));
    expect(onTemplate).toHaveBeenCalled();
    expect(calls.filter((c) => c.path.endsWith('/products'))).toHaveLength(0);
  });
});

describe('the composer’s «Productos» button', () => {
  it('opens the picker; outside the window it says so and offers the template picker', async () => {
    fakeApi(() => undefined);
    renderApp(
      <Composer
        chatId={CHAT}
        closed
        sending={false}
        onSend={vi.fn(async () => true)}
        onTemplateSent={vi.fn()}
        state={{ chatId: CHAT, platform: 'whatsapp', channel: 'whatsapp', state: 'window_closed', canSend: false, reason: 'Ventana cerrada', status: 'open' }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Productos' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar productos' });
    await userEvent.click(within(within(dialog).getByTestId('products-window-closed')).getByRole('button', { name: 'Enviar plantilla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Enviar productos' })).toBeNull());
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });
});

describe('products and carts in the thread', () => {
  const item = (i: number) => ({ id: `p${i}`, sku: `SKU-${i}`, name: `Producto ${i}`, price: 10 + i, currency: 'PEN', image: `https://cdn.mostrador.app/p${i}.png`, link: 'https://shop.mostrador.app/catalogo-digital/1' });

  it('one product as a card with its image, name, price and a link to the catalogue', () => {
    renderApp(<MessageContent message={message({ kind: 'interactive', direction: 'out', text: 'Mira este', content: { products: { items: [{ ...item(1), variant: '3 variantes' }] } } })} />);
    const card = screen.getByTestId('product-card');
    expect(within(card).getByRole('img', { name: 'Producto 1' }).getAttribute('src')).toBe('https://cdn.mostrador.app/p1.png');
    expect(within(card).getByText('3 variantes')).toBeTruthy();
    expect(within(card).getByTestId('product-price').textContent).toMatch(/^S\/\s11\.00$/);
    const link = within(card).getByRole('link', { name: 'Ver en el catálogo' });
    expect(link.getAttribute('href')).toBe('https://shop.mostrador.app/catalogo-digital/1');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByTestId('message-text').textContent).toBe('Mira este');
  });

  it('a variant sent shows its size, colour, price and SKU on the card', () => {
    renderApp(
      <MessageContent
        message={message({ kind: 'interactive', direction: 'out', text: undefined, content: { products: { items: [{ ...item(1), price: 25, variant: 'Talla S · Rojo', variantSku: 'POLO-S-1', size: 'S', color: 'Rojo' }] } } })}
      />,
    );
    const card = screen.getByTestId('product-card');
    expect(within(card).getByTestId('product-variant-label').textContent).toBe('Talla S · Rojo');
    expect(within(card).getByTestId('product-price').textContent).toMatch(/^S\/\s25\.00$/);
    expect(within(card).getByText('SKU POLO-S-1')).toBeTruthy();
  });

  it('several products as a compact list, one line each', () => {
    renderApp(<MessageContent message={message({ kind: 'interactive', direction: 'out', text: undefined, content: { products: { items: [item(1), item(2), item(3)] } } })} />);
    const list = screen.getByTestId('product-list');
    expect(within(list).getByText('3 productos')).toBeTruthy();
    expect(within(list).getAllByTestId('product-line')).toHaveLength(3);
    expect(within(list).getByText('S/ 13.00')).toBeTruthy();
    expect(screen.queryByTestId('product-card')).toBeNull();
  });

  it('an inbound cart shows its lines and total', () => {
    renderApp(
      <MessageContent
        message={message({ kind: 'order', direction: 'in', text: undefined, content: { order: { items: [{ productRetailerId: 'SKU-1', quantity: 2, itemPrice: 7.5, currency: 'PEN' }], total: 15, currency: 'PEN' } } })}
      />,
    );
    const cart = screen.getByTestId('order-card');
    expect(within(cart).getByText('SKU-1')).toBeTruthy();
    expect(within(cart).getByTestId('order-total').textContent).toMatch(/^S\/\s15\.00$/);
  });
});
