import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { requestCreateOrder } from '../lib/create-order-event';
import { CreateOrderButton } from './create-order-dialog';

vi.setConfig({ testTimeout: 30_000 });

const CHAT = '00000000-0000-4000-8000-000000000001';
const CART = '00000000-0000-4000-8000-000000000009';
const mug = { _id: '00000000-0000-4000-8000-000000000002', name: 'Taza de greda', sku: 'TG-01', price: 25, stock: 10 };
const shirt = {
  _id: '00000000-0000-4000-8000-000000000003',
  name: 'Polo de lino',
  sku: 'PLN-01',
  price: 60,
  stock: 0,
  variants: [
    { sku: 'PLN-01-S', size: 'S', stock: 0 },
    { sku: 'PLN-01-M', size: 'M', stock: 4, price: 65 },
  ],
};

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

const draft = (withCart: boolean) => ({
  customer: { name: 'Rosa Quispe', telefono: '51987654321' },
  shippment: { method: 'delivery', address: 'Av. Larco 345', city: 'Miraflores' },
  currency: 'PEN',
  ...(withCart
    ? {
        cart: {
          messageId: CART,
          receivedAt: '2026-12-03T10:00:00Z',
          lines: [
            { sku: 'TG-01', quantity: 2, productId: mug._id, name: mug.name, unitPrice: 25, stock: 10 },
            { sku: 'NO-EXISTE', quantity: 1 },
          ],
        },
      }
    : {}),
});

describe('«Crear pedido» in the chat', () => {
  it('confirms a WhatsApp cart: its lines, the person and their last delivery prefilled; one click sends them with the cart', async () => {
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/order-draft`) return { status: 200, body: draft(true) };
      if (call.method === 'GET' && call.path === `/products/${mug._id}`) return { status: 200, body: mug };
      if (call.method === 'GET' && call.path === '/products') return { status: 200, body: pageOf([mug, shirt]) };
      if (call.method === 'GET' && call.path === '/colors') return { status: 200, body: pageOf([]) };
      if (call.method === 'POST' && call.path === `/chats/${CHAT}/orders`) return { status: 201, body: { _id: 'o1', code: 'P-ABC234', total: 50, currency: 'PEN', status: 'created' } };
      if (call.method === 'POST' && call.path === `/chats/${CHAT}/orders/o1/send`) return { status: 200, body: { messageId: 'm1', text: 'Este es tu pedido', url: 'http://pago' } };
      return undefined;
    });
    renderApp(<CreateOrderButton chatId={CHAT} />);
    await userEvent.click(screen.getByRole('button', { name: 'Crear pedido' }));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByTestId('cart-found')).textContent).toContain('Carrito de WhatsApp con 2 productos');
    expect(within(dialog).getByTestId('cart-found').textContent).toContain('NO-EXISTE no está en tus productos');
    expect(within(dialog).getAllByTestId('order-line')).toHaveLength(1);
    expect((within(dialog).getByLabelText('Nombre') as HTMLInputElement).value).toBe('Rosa Quispe');
    expect((within(dialog).getByLabelText('Dirección') as HTMLInputElement).value).toBe('Av. Larco 345');
    expect(within(dialog).getByTestId('order-total').textContent).toMatch(/50\.00/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear pedido' }));
    expect((await screen.findByRole('status')).textContent).toContain('Pedido P-ABC234 creado');
    // then its summary and payment link to the customer, in one click
    await userEvent.click(screen.getByRole('button', { name: 'Enviar con enlace de pago' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Pedido P-ABC234 enviado al cliente'));
    expect(calls.find((c) => c.path === `/chats/${CHAT}/orders/o1/send`)?.body).toEqual({ paymentLink: true });
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      items: [{ productId: mug._id, quantity: 2 }],
      customer: { name: 'Rosa Quispe', telefono: '51987654321' },
      shippment: { method: 'delivery', address: 'Av. Larco 345', city: 'Miraflores' },
      cartMessageId: CART,
    });
  });

  it('builds an order from the catalogue: a variant in stock is chosen, the total follows, the server’s refusal shows on its line', async () => {
    fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/order-draft`) return { status: 200, body: draft(false) };
      if (call.method === 'GET' && call.path === '/products') return { status: 200, body: pageOf([mug, shirt]) };
      if (call.method === 'GET' && call.path === '/colors') return { status: 200, body: pageOf([]) };
      if (call.method === 'POST' && call.path === `/chats/${CHAT}/orders`)
        return { status: 409, body: { errors: { code: 'CONFLICT', msg: 'Solo quedan 4 unidades de Polo de lino', details: [{ path: 'items.0.quantity', msg: 'Solo quedan 4 unidades de Polo de lino' }] } } };
      return undefined;
    });
    renderApp(<CreateOrderButton chatId={CHAT} />);
    await userEvent.click(screen.getByRole('button', { name: 'Crear pedido' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Agrega los productos del pedido')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Crear pedido' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Agregar producto (nombre o SKU)' }));
    await userEvent.click(await screen.findByRole('option', { name: /Polo de lino/ }));
    const line = within(dialog).getByTestId('order-line');
    // the first variant with stock (M, at its own price)
    expect(within(line).getByText(/S\/\s?65\.00 · 4 en stock/)).toBeTruthy();
    const quantity = within(line).getByLabelText('Cantidad');
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '5');
    expect(within(dialog).getByTestId('order-total').textContent).toMatch(/325\.00/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear pedido' }));
    await waitFor(() => expect(within(line).getByText('Solo quedan 4 unidades de Polo de lino')).toBeTruthy());
    expect(within(dialog).getByRole('alert').textContent).toContain('Solo quedan 4 unidades');
    // nothing was lost: the dialog stays with the line
    expect(within(dialog).getAllByTestId('order-line')).toHaveLength(1);
  });

  it('opens from the cart card too («Crear pedido» inside the thread)', async () => {
    fakeApi((call: FakeCall) => {
      if (call.method === 'GET' && call.path === `/chats/${CHAT}/order-draft`) return { status: 200, body: draft(true) };
      if (call.method === 'GET' && call.path === `/products/${mug._id}`) return { status: 200, body: mug };
      if (call.method === 'GET' && (call.path === '/products' || call.path === '/colors')) return { status: 200, body: pageOf([]) };
      return undefined;
    });
    renderApp(<CreateOrderButton chatId={CHAT} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => requestCreateOrder());
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByTestId('cart-found')).textContent).toContain('Carrito de WhatsApp');
  });
});
