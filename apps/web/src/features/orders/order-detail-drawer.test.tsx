import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { FakeXhr } from '../../test/fake-xhr';
import { renderApp } from '../../test/render';
import { OrderDetailDrawer } from './order-detail-drawer';

vi.setConfig({ testTimeout: 20_000 });

const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const permissions = { role: 'admin', permissions: { catalog: ['list', 'read', 'update', 'delete'], chats: ['list', 'read'] } };
const order = {
  _id: uid(1),
  code: 'P-7F3A2C',
  status: 'created',
  source: 'catalogo',
  customerName: 'María Quispe',
  telefono: '51987654321',
  customer: { name: 'María Quispe', telefono: '51987654321' },
  items: [{ productId: uid(60), sku: 'TAZA-M', name: 'Taza cerámica Mostrador', quantity: 2, unitPrice: 60, total: 120 }],
  subtotal: 120,
  total: 120,
  currency: 'PEN',
  createdAt: '2026-11-30T15:30:00Z',
  updatedAt: '2026-11-30T15:30:00Z',
};
const at = '2026-12-01T10:00:00Z';
const history = [
  { _id: uid(11), orderId: uid(1), provider: 'mercadopago', status: 'rejected', statusLabel: 'Rechazado', amount: 120, currency: 'PEN', method: 'visa', providerPaymentId: '1320000101', createdAt: at, updatedAt: at },
  {
    _id: uid(12),
    orderId: uid(1),
    provider: 'mercadopago',
    status: 'approved',
    statusLabel: 'Aprobado',
    amount: 60,
    currency: 'PEN',
    providerPaymentId: '1320000102',
    flaggedReason: 'El pago de S/ 60.00 no coincide con el total de la orden (S/ 120.00): la orden no se marcó pagada; revísalo en Mercado Pago',
    createdAt: at,
    updatedAt: at,
  },
  { _id: uid(13), orderId: uid(1), provider: 'mercadopago', status: 'refunded', statusLabel: 'Reembolsado', amount: 120, currency: 'PEN', providerPaymentId: '1320000103', createdAt: at, updatedAt: at },
];

function serve(o: { payments: unknown[] | 'error'; link?: { status: number; body: unknown } }) {
  const state = { order: { ...order }, payments: o.payments };
  const api = fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: permissions };
    if (call.method === 'GET' && call.path === `/orders/${uid(1)}`) return { status: 200, body: state.order };
    if (call.method === 'GET' && call.path === `/orders/${uid(1)}/payments`) {
      return state.payments === 'error' ? { status: 500, body: { errors: { code: 'INTERNAL', msg: 'Error' } } } : { status: 200, body: { payload: state.payments } };
    }
    if (call.method === 'POST' && call.path === `/orders/${uid(1)}/payment-link`) return o.link ?? { status: 200, body: { url: 'http://localhost:3000/pago-sandbox/123-abc', preferenceId: '123-abc', sandbox: true } };
    if (call.method === 'GET' && call.path === `/orders/${uid(1)}/proof-images`) {
      return { status: 200, body: { payload: [{ _id: uid(90), mediaUrl: '/product-images/yape.svg', text: 'Ya pagué', direction: 'in', sentAt: at }] } };
    }
    if (call.method === 'POST' && call.path === `/orders/${uid(1)}/mark-paid`) {
      const body = call.body as { amount: number; method: string; note?: string; proofMessageId?: string; proofFileId?: string };
      if (body.amount !== 120 && !body.note) {
        return { status: 400, body: { errors: { code: 'VALIDATION', msg: 'El monto no es el total', details: [{ path: 'note', msg: 'Explica por qué el monto es otro' }] } } };
      }
      state.order = { ...state.order, status: 'paid' };
      const payment = { _id: uid(20), orderId: uid(1), provider: 'manual', status: 'approved', statusLabel: 'Aprobado', amount: body.amount, currency: 'PEN', method: body.method, methodLabel: 'Plin', note: body.note, proofMessageId: body.proofMessageId, proofUrl: '/product-images/yape.svg', byName: 'Ana Administradora', createdAt: at, updatedAt: at };
      state.payments = [payment];
      return { status: 200, body: { msg: 'Orden marcada como pagada', payment } };
    }
    return undefined;
  });
  return api;
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));

const sheet = () => screen.findByRole('dialog', { name: 'Orden P-7F3A2C' });

describe('order detail: payments', () => {
  it('shows an empty history, creates the payment link and shows it to copy', async () => {
    const user = userEvent.setup();
    const { calls } = serve({ payments: [] });
    renderApp(<OrderDetailDrawer id={uid(1)} onClose={() => {}} />);
    const drawer = await sheet();
    expect(await within(drawer).findByText('Sin pagos registrados.', undefined, { timeout: 10_000 })).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: 'Enlace de pago' }));
    const field = (await within(drawer).findByLabelText('Enlace de pago')) as HTMLInputElement;
    expect(field.value).toBe('http://localhost:3000/pago-sandbox/123-abc');
    expect(within(drawer).getByText('Sandbox: el enlace abre un pago simulado, no se cobra a nadie.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.path.endsWith('/payment-link'))).toHaveLength(1);
    expect(within(drawer).getByRole('button', { name: 'Copiar enlace' })).toBeTruthy();
  });

  it("says why the link cannot be made (the server's Spanish reason)", async () => {
    const user = userEvent.setup();
    serve({ payments: [], link: { status: 409, body: { errors: { code: 'CONFLICT', msg: 'Configura Mercado Pago (Integraciones → Mercado Pago) antes de crear enlaces de pago' } } } });
    renderApp(<OrderDetailDrawer id={uid(1)} onClose={() => {}} />);
    const drawer = await sheet();
    await user.click(await within(drawer).findByRole('button', { name: 'Enlace de pago' }, { timeout: 10_000 }));
    expect(await within(drawer).findByText('Configura Mercado Pago (Integraciones → Mercado Pago) antes de crear enlaces de pago')).toBeTruthy();
  });

  it('lists rejected, flagged and refunded payments in Spanish, and an error reading them', async () => {
    serve({ payments: history });
    const { unmount } = renderApp(<OrderDetailDrawer id={uid(1)} onClose={() => {}} />);
    const drawer = await sheet();
    const list = await within(drawer).findByRole('list', { name: 'Pagos de la orden' }, { timeout: 10_000 });
    const items = within(list).getAllByTestId('payment');
    expect(items.map((i) => within(i).getAllByText(/Rechazado|Aprobado|Reembolsado/)[0].textContent)).toEqual(['Rechazado', 'Aprobado', 'Reembolsado']);
    expect(items[1].textContent).toContain('no coincide con el total de la orden');
    expect(items[0].textContent).toContain('operación 1320000101');
    unmount();
    serve({ payments: 'error' });
    renderApp(<OrderDetailDrawer id={uid(1)} onClose={() => {}} />);
    expect(await screen.findByText('No se pudieron leer los pagos de la orden.', undefined, { timeout: 10_000 })).toBeTruthy();
  });

  it('«Marcar pagado»: the total prefilled, another amount needs a note, then the order is paid and the payment listed', async () => {
    const user = userEvent.setup();
    const { calls } = serve({ payments: [] });
    renderApp(<OrderDetailDrawer id={uid(1)} onClose={() => {}} />);
    const drawer = await sheet();
    await user.click(await within(drawer).findByRole('button', { name: 'Marcar pagado' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Marcar pagado · P-7F3A2C' });
    const amount = within(dialog).getByLabelText(/Monto pagado/) as HTMLInputElement;
    expect(amount.value).toBe('120');
    await user.clear(amount);
    await user.type(amount, '110');
    await user.click(within(dialog).getByRole('combobox', { name: 'Medio de pago' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Plin' }));
    // the proof: a picture of the order's chat
    const picture = await within(dialog).findByRole('button', { name: /Ya pagué/ });
    await user.click(picture);
    expect(picture.getAttribute('aria-pressed')).toBe('true');
    await user.click(within(dialog).getByRole('button', { name: 'Marcar pagado' }));
    expect(await within(dialog).findByText('Explica por qué el monto es otro')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Nota'), 'Descuento acordado en el chat');
    await user.click(within(dialog).getByRole('button', { name: 'Marcar pagado' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Marcar pagado · P-7F3A2C' })).toBeNull());
    const sent = calls.filter((c) => c.method === 'POST' && c.path.endsWith('/mark-paid')).at(-1);
    expect(sent?.body).toEqual({ amount: 110, method: 'plin', proofMessageId: uid(90), note: 'Descuento acordado en el chat' });
    const list = await within(drawer).findByRole('list', { name: 'Pagos de la orden' });
    expect(list.textContent).toContain('Plin (a mano)');
    expect(list.textContent).toContain('Ana Administradora');
    expect(within(list).getByRole('link', { name: 'Ver comprobante' })).toBeTruthy();
    // a paid order offers no more payment actions
    await waitFor(() => expect(within(drawer).queryByRole('button', { name: 'Enlace de pago' })).toBeNull());
  });

  it('«Marcar pagado» with a proof uploaded from the device: sent to Drive with its progress, then named by the payment; a wrong type refused before sending', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const user = userEvent.setup({ applyAccept: false });
    const { calls } = serve({ payments: [] });
    renderApp(<OrderDetailDrawer id={uid(1)} onClose={() => {}} />);
    const drawer = await sheet();
    await user.click(await within(drawer).findByRole('button', { name: 'Marcar pagado' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Marcar pagado · P-7F3A2C' });
    FakeXhr.last = undefined;
    await user.upload(within(dialog).getByLabelText('Comprobante desde el dispositivo'), new File(['hola'], 'notas.txt', { type: 'text/plain' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('El comprobante debe ser una imagen o un PDF');
    expect(FakeXhr.last).toBeUndefined();
    const shot = new File([new Uint8Array(2048)], 'yape captura.png', { type: 'image/png' });
    FakeXhr.answer = {
      status: 201,
      body: { file: { _id: 'AbCdEfGhIjKlMnOpQrStUvWx', name: 'yape captura.png', path: '/api/drive/files/AbCdEfGhIjKlMnOpQrStUvWx/yape%20captura.png', mimeType: 'image/png' }, duplicate: false, msg: 'subido' },
    };
    await user.upload(within(dialog).getByLabelText('Comprobante desde el dispositivo'), shot);
    const xhr = FakeXhr.last as unknown as FakeXhr;
    expect(xhr.url).toBe('/api/drive/files?name=yape+captura.png&folder=Comprobantes');
    expect((await within(dialog).findByRole('progressbar', { name: 'Subiendo el comprobante' })).getAttribute('aria-valuenow')).toBe('50');
    xhr.respond();
    expect(await within(dialog).findByRole('img', { name: 'Comprobante subido' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Marcar pagado' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Marcar pagado · P-7F3A2C' })).toBeNull());
    const sent = calls.filter((c) => c.method === 'POST' && c.path.endsWith('/mark-paid')).at(-1);
    expect(sent?.body).toEqual({ amount: 120, method: 'yape', proofFileId: 'AbCdEfGhIjKlMnOpQrStUvWx' });
    vi.unstubAllGlobals();
  });
});
