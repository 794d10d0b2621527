import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as ordersScreen } from '../ecommerce/ecommerces-orders-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { InvoiceCell } from './invoice-cell';

vi.setConfig({ testTimeout: 20_000 });

const order = (n: number, number: string) => ({
  _id: `00000000-0000-4000-8000-00000000070${n}`,
  number,
  status: 'created',
  customerName: `Cliente ${n}`,
  total: 34.5,
  currency: 'PEN',
  country: 'PE',
  woocommerceId: 1000 + n,
  items: [{ sku: 'IK-1500', name: 'Inca Kola 1.5 L', quantity: 1, price: 34.5 }],
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});
const issuedOrder = order(1, 'WC-1');
const failedOrder = order(2, 'WC-2');
const pendingOrder = order(3, 'WC-3');
const REASON = 'Genial rechazó el comprobante: El RUC 20100070972 no es válido (dígito verificador): revísalo con el cliente';

function serve() {
  const invoices: Record<string, Record<string, unknown>> = {
    [issuedOrder._id]: { kind: 'ecommerce', orderId: issuedOrder._id, status: 'issued', documentType: 'boleta', series: 'B001', number: '1042', pdfUrl: 'https://genial.example/v1/documents/a.pdf', attempts: 1 },
    [failedOrder._id]: { kind: 'ecommerce', orderId: failedOrder._id, status: 'failed', error: REASON, attempts: 1 },
    [pendingOrder._id]: { kind: 'ecommerce', orderId: pendingOrder._id, status: 'pending', attempts: 0, updatedAt: new Date().toISOString() },
  };
  let reads = 0;
  const api = fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { ecommerce: ['list', 'read', 'create', 'update', 'delete'] } } };
    if (call.method === 'GET' && call.path === '/ecommerces-orders') return { status: 200, body: pageOf([issuedOrder, failedOrder, pendingOrder]) };
    if (call.method === 'GET' && call.path === '/genial/invoices/ecommerce') {
      reads++;
      const ids = (call.query.get('orderIds') ?? '').split(',');
      return { status: 200, body: { payload: ids.map((id) => invoices[id]).filter(Boolean) } };
    }
    if (call.method === 'POST' && call.path === `/ecommerces-orders/${failedOrder._id}/genial-retry`) {
      invoices[failedOrder._id] = { kind: 'ecommerce', orderId: failedOrder._id, status: 'pending', attempts: 1, updatedAt: new Date().toISOString() };
      // the job issues it: the next read answers it issued
      setTimeout(() => {
        invoices[failedOrder._id] = { kind: 'ecommerce', orderId: failedOrder._id, status: 'issued', documentType: 'factura', series: 'F001', number: '77', pdfUrl: 'https://genial.example/v1/documents/b.pdf', attempts: 2 };
      }, 50);
      return { status: 202, body: { msg: 'Reintentando la factura en Genial', invoice: invoices[failedOrder._id] } };
    }
    return undefined;
  });
  return { ...api, reads: () => reads };
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('«Factura» column of /ecommerce/ordenes', () => {
  it('shows each order\'s invoice in one call, and «Reintentar» issues a failed one', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    renderApp(<ResourceListPage config={ordersScreen} />, { route: '/ecommerce/ordenes' });
    expect(await screen.findByRole('columnheader', { name: 'Factura' }, { timeout: 10_000 })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('genial-invoice')).toHaveLength(3), { timeout: 10_000 });
    const cells = screen.getAllByTestId('genial-invoice');
    // one request for the page's three orders
    const batch = calls.filter((c) => c.path === '/genial/invoices/ecommerce');
    expect(batch).toHaveLength(1);
    expect(batch[0].query.get('orderIds')?.split(',').sort()).toEqual([issuedOrder._id, failedOrder._id, pendingOrder._id].sort());

    const [issued, failed, pending] = cells;
    expect(within(issued).getByText('Emitida')).toBeTruthy();
    expect(within(issued).getByText('B001-1042')).toBeTruthy();
    expect(within(issued).getByRole('link', { name: 'PDF B001-1042' }).getAttribute('href')).toBe('https://genial.example/v1/documents/a.pdf');
    expect(within(issued).queryByRole('button', { name: 'Reintentar' })).toBeNull();
    expect(within(pending).getByText('Pendiente')).toBeTruthy();
    expect(within(pending).queryByRole('button', { name: 'Reintentar' })).toBeNull();
    expect(within(failed).getByText('Fallida')).toBeTruthy();
    expect(within(failed).getByText(REASON)).toBeTruthy();

    await user.click(within(failed).getByRole('button', { name: 'Reintentar' }));
    expect(calls.some((c) => c.method === 'POST' && c.path === `/ecommerces-orders/${failedOrder._id}/genial-retry`)).toBe(true);
    await waitFor(() => expect(within(failed).getByText('Pendiente')).toBeTruthy());
    // while pending the cell asks again, until the job has issued it
    await waitFor(() => expect(within(failed).getByText('F001-77')).toBeTruthy(), { timeout: 8_000 });
    expect(within(failed).getByText('Emitida')).toBeTruthy();
    expect(within(failed).queryByText(REASON)).toBeNull();
  });

  it("in an order's detail, a failed invoice is retried with the customer's corrected tax id", async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    renderApp(<InvoiceCell kind="ecommerce" orderId={failedOrder._id} compact={false} />, { route: '/ecommerce/ordenes' });
    const field = await screen.findByLabelText('RUC / RUT / NIT del cliente', undefined, { timeout: 10_000 });
    await user.type(field, '20100070970');
    await user.click(screen.getByRole('button', { name: 'Reintentar con este documento' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ customerTaxId: '20100070970' });
    await waitFor(() => expect(screen.getByText('F001-77')).toBeTruthy(), { timeout: 8_000 });
  });
});
