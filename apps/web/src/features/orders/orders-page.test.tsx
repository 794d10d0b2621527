import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeMessage } from '../../lib/realtime';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { OrdersPage } from './orders-page';

const realtime = vi.hoisted(() => ({ handler: null as null | ((m: RealtimeMessage) => void) }));
vi.mock('../../lib/realtime', () => ({
  useRealtimeEvents: (handler: (m: RealtimeMessage) => void) => {
    realtime.handler = handler;
  },
}));
const emit = (event: RealtimeMessage) => act(() => realtime.handler?.(event));

const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const permissions = { role: 'admin', permissions: { catalog: ['list', 'read', 'update', 'delete'], chats: ['list', 'read'] } };

const maria = {
  _id: uid(1),
  code: 'P-7F3A2C',
  status: 'created',
  source: 'catalogo',
  catalogId: uid(50),
  customerName: 'María Quispe',
  telefono: '51987654321',
  customer: { name: 'María Quispe', telefono: '51987654321', email: 'maria.quispe@gmail.com', document: '45678912' },
  shippment: { method: 'delivery', address: 'Av. Primavera 1234, dpto. 301', city: 'Surco', reference: 'Frente al parque', notes: 'Tocar el timbre' },
  items: [
    { productId: uid(60), sku: 'POLO-PIMA-M-AZUL', name: 'Polo algodón pima clásico', size: 'M', color: 'Azul marino', quantity: 2, unitPrice: 49.9, total: 99.8 },
    { productId: uid(61), sku: 'TAZA-M', name: 'Taza cerámica Mostrador', quantity: 1, unitPrice: 25, total: 25 },
  ],
  subtotal: 124.8,
  total: 124.8,
  currency: 'PEN',
  leadId: uid(70),
  chatId: uid(80),
  createdAt: '2025-03-14T15:30:00Z',
  updatedAt: '2025-03-14T15:30:00Z',
};
const jose = { ...maria, _id: uid(2), code: 'P-4D5E6F', status: 'paid', source: 'whatsapp', customerName: 'José Flores', shippment: undefined, chatId: undefined };

/** A fake API of orders; `orders` may change between calls (a new order arrives). */
function serve(orders: { current: Array<Record<string, unknown>> }) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: permissions };
    if (call.method === 'GET' && call.path === '/orders') {
      const status = call.query.get('status');
      return { status: 200, body: pageOf(orders.current.filter((o) => !status || o.status === status)) };
    }
    const one = orders.current.find((o) => call.path === `/orders/${o._id}`);
    if (call.method === 'GET' && one) return { status: 200, body: one };
    if (call.method === 'DELETE' && one) {
      orders.current = orders.current.filter((o) => o !== one);
      return { status: 200, body: { status: 200, _id: one._id } };
    }
    return undefined;
  });
}

function Address() {
  return <output data-testid="search">{useLocation().search}</output>;
}
const page = (route = '/ordenes') =>
  renderApp(
    <>
      <OrdersPage />
      <Address />
    </>,
    { route },
  );
const listCalls = (calls: FakeCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/orders');
/** An order of the list, by the link its code is. */
const orderLink = (code: string) => screen.findByRole('link', { name: code });
const noOrderLink = (code: string) => screen.queryByRole('link', { name: code });

beforeEach(() => {
  realtime.handler = null;
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});

describe('/ordenes', () => {
  it('filters by status and by a date range of placement, kept in the address', async () => {
    const user = userEvent.setup();
    const { calls } = serve({ current: [maria, jose] });
    page();
    await orderLink('P-7F3A2C');

    await user.click(screen.getByRole('combobox', { name: 'Estado' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Pagada' }));
    await waitFor(() => expect(noOrderLink('P-7F3A2C')).toBeNull());
    expect(await orderLink('P-4D5E6F')).toBeTruthy();
    expect(listCalls(calls).at(-1)?.query.get('status')).toBe('paid');

    await user.type(screen.getByLabelText('Desde'), '2025-03-01');
    await user.type(screen.getByLabelText('Hasta'), '2025-03-31');
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.get('to')).toBeTruthy());
    const last = listCalls(calls).at(-1)?.query;
    // the days in the browser's zone, the end exclusive (the start of the day after)
    expect(last?.get('from')).toBe(new Date(2025, 2, 1).toISOString());
    expect(last?.get('to')).toBe(new Date(2025, 3, 1).toISOString());
    expect(last?.get('status')).toBe('paid');
    expect(screen.getByTestId('search').textContent).toBe('?estado=paid&desde=2025-03-01&hasta=2025-03-31');

    await user.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    expect(await orderLink('P-7F3A2C')).toBeTruthy();
    expect(screen.getByTestId('search').textContent).toBe('');
  });

  it('says when the date range is inverted, and does not send it', async () => {
    const { calls } = serve({ current: [maria] });
    page('/ordenes?desde=2025-03-31&hasta=2025-03-01');
    expect(await screen.findByText('La fecha final debe ser posterior a la inicial')).toBeTruthy();
    await orderLink('P-7F3A2C');
    expect(listCalls(calls).every((c) => !c.query.get('from') && !c.query.get('to'))).toBe(true);
  });

  it("opens an order's detail from its row: customer, delivery, lines with variants and totals in its currency, source, dates, chat", async () => {
    const user = userEvent.setup();
    serve({ current: [maria, jose] });
    page();
    await orderLink('P-7F3A2C');
    // a click anywhere on the row (its total)
    await user.click(screen.getAllByText('María Quispe')[0] as HTMLElement);
    const sheet = await screen.findByRole('dialog', { name: 'Orden P-7F3A2C' });
    expect(screen.getByTestId('search').textContent).toBe(`?orden=${maria._id}`);
    await within(sheet).findByText('maria.quispe@gmail.com');
    const text = sheet.textContent ?? '';
    for (const expected of [
      'Creada',
      '+51987654321',
      '45678912',
      'Envío a domicilio',
      'Av. Primavera 1234, dpto. 301, Surco',
      'Frente al parque',
      'Tocar el timbre',
      'Catálogo digital',
    ]) {
      expect(text).toContain(expected);
    }
    const lines = within(sheet).getAllByTestId('order-line');
    expect(lines).toHaveLength(2);
    expect(lines[0].textContent).toContain('Polo algodón pima clásico');
    expect(lines[0].textContent).toContain('Talla M · Azul marino');
    expect(lines[0].textContent).toMatch(/2 × S\/\s?49\.90/);
    expect(lines[0].textContent).toMatch(/S\/\s?99\.80/);
    expect(within(sheet).getByTestId('order-total').textContent).toMatch(/S\/\s?124\.80/);
    expect(within(sheet).getByRole('link', { name: 'Abrir chat del cliente' }).getAttribute('href')).toBe(`/chat?chatId=${maria.chatId}`);
    // the moves its status allows
    expect(within(sheet).getByRole('button', { name: 'Marcar como pagada' })).toBeTruthy();

    await user.click(within(sheet).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('search').textContent).toBe('');
  });

  it('opens the detail a link names (?orden=), a WhatsApp order without delivery data says so', async () => {
    serve({ current: [maria, jose] });
    page(`/ordenes?orden=${jose._id}`);
    const sheet = await screen.findByRole('dialog', { name: 'Orden P-4D5E6F' });
    expect(await within(sheet).findByText('Catálogo de WhatsApp')).toBeTruthy();
    expect(within(sheet).getByText('Sin datos de entrega: se coordina en el chat.')).toBeTruthy();
    // no chat yet: the lead's WhatsApp chat
    expect(within(sheet).getByRole('link', { name: 'Abrir chat del cliente' }).getAttribute('href')).toBe(`/chat?leadId=${jose.leadId}&platform=whatsapp`);
    expect(within(within(sheet).getByRole('group', { name: 'Cambiar estado' })).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Marcar como enviada',
      'Cancelar orden',
    ]);
  });

  it('lives: a new order appears without a reload and is announced with a link to it; a move elsewhere updates the open detail', async () => {
    const user = userEvent.setup();
    const orders = { current: [jose] as Array<Record<string, unknown>> };
    serve(orders);
    page();
    await orderLink('P-4D5E6F');
    expect(realtime.handler).toBeTruthy();

    orders.current = [maria, jose];
    emit({ type: 'order.updated', orderId: maria._id, code: maria.code, status: 'created', created: true });
    expect(await orderLink('P-7F3A2C')).toBeTruthy();
    expect(await screen.findByText('Nueva orden P-7F3A2C')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Ver' }));
    const sheet = await screen.findByRole('dialog', { name: 'Orden P-7F3A2C' });
    expect(within(sheet).getByRole('button', { name: 'Marcar como pagada' })).toBeTruthy();

    // another person marks it paid: the open detail follows
    orders.current = [{ ...maria, status: 'paid' }, jose];
    emit({ type: 'order.updated', orderId: maria._id, code: maria.code, status: 'paid', created: false });
    await waitFor(() => expect(within(sheet).queryByRole('button', { name: 'Marcar como pagada' })).toBeNull());
    expect(within(sheet).getByRole('button', { name: 'Marcar como enviada' })).toBeTruthy();
  });

  it("opens the detail from the order's code, a link that keeps the filters", async () => {
    const user = userEvent.setup();
    serve({ current: [maria, jose] });
    page('/ordenes?estado=paid');
    const link = await orderLink('P-4D5E6F');
    expect(link.getAttribute('href')).toBe(`/ordenes?estado=paid&orden=${jose._id}`);
    await user.click(link);
    expect(await screen.findByRole('dialog', { name: 'Orden P-4D5E6F' })).toBeTruthy();
  });

  it('deletes a test order from its detail only, after a warning that says the stock does not come back', async () => {
    const user = userEvent.setup();
    const orders = { current: [maria, jose] as Array<Record<string, unknown>> };
    const { calls } = serve(orders);
    page(`/ordenes?orden=${maria._id}`);
    const sheet = await screen.findByRole('dialog', { name: 'Orden P-7F3A2C' });
    // no trash can beside every order in the list
    expect(screen.queryByRole('button', { name: /Eliminar: / })).toBeNull();

    await user.click(await within(sheet).findByRole('button', { name: 'Eliminar orden' }));
    const warning = await screen.findByRole('dialog', { name: 'Advertencia' });
    expect(warning.textContent).toContain('sus unidades no vuelven al stock');
    await user.click(within(warning).getByRole('button', { name: 'Eliminar orden' }));
    expect(await screen.findByText('Registro eliminado con éxito')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/orders/${maria._id}`]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Orden P-7F3A2C' })).toBeNull());
    await waitFor(() => expect(noOrderLink('P-7F3A2C')).toBeNull());
    // the deleted order's detail is not asked for again
    expect(calls.filter((c) => c.method === 'GET' && c.path === `/orders/${maria._id}`)).toHaveLength(1);
    expect(screen.queryByText('El registro no existe')).toBeNull();
  });
});
