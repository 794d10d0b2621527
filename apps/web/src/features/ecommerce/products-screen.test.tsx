import type { SyncRunOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as productsScreen } from './ecommerces-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));

vi.setConfig({ testTimeout: 30_000 });

const product = (n: number, name: string, sku: string, country: string) => ({
  _id: `00000000-0000-4000-8000-00000000060${n}`,
  name,
  sku,
  price: 59.9,
  stock: 10,
  status: 'publish',
  country,
  categoryIds: [],
  tagIds: [],
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});
const polo = product(1, 'Polo piqué algodón pima', 'POLO-PIMA', 'PE');
const poloCl = product(2, 'Polo piqué algodón pima', 'POLO-PIMA', 'CL');
const chompa = product(3, 'Chompa de alpaca', 'CHOMPA-ALP', 'PE');
const run = (over: Partial<SyncRunOut>): SyncRunOut => ({
  _id: '00000000-0000-4000-8000-000000000701',
  storeId: '00000000-0000-4000-8000-000000000101',
  storeName: 'Lima principal',
  country: 'PE',
  kind: 'selected',
  status: 'queued',
  total: 2,
  done: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  storeWrites: 0,
  requests: 0,
  failedItems: 0,
  errors: [],
  createdAt: '2026-05-02T10:00:00.000Z',
  ...over,
});

function serve() {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { ecommerce: ['list', 'read', 'create', 'update', 'delete'] } } };
    if (call.method === 'GET' && call.path === '/ecommerces') return { status: 200, body: pageOf([polo, poloCl, chompa]) };
    if (call.method === 'GET' && call.path === '/ecommerces/sync-runs') return { status: 200, body: { payload: [] } };
    if (call.method === 'POST' && call.path === '/ecommerces/sync-selected') return { status: 202, body: { msg: 'Envío de 2 productos iniciado', runs: [run({})] } };
    if (call.method === 'GET' && call.path === '/ecommerces/crossover/country/PE') {
      const side = (p: typeof polo) => ({ _id: p._id, country: p.country, name: p.name, price: p.price, stock: p.stock, status: 'publish', variations: 0 });
      return { status: 200, body: pageOf([{ sku: 'POLO-PIMA', product: side(polo), others: [side(poloCl)], missingIn: [], differences: [] }]) };
    }
    if (call.method === 'POST' && call.path === '/ecommerces/copy-multimedia-ref-copys') {
      return { status: 200, body: { msg: 'Imágenes y textos copiados a 1 productos', updated: [{ _id: poloCl._id, country: 'CL' }], runs: [run({ _id: '00000000-0000-4000-8000-000000000702', storeName: 'Santiago', country: 'CL', total: 1 })] } };
    }
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('/ecommerce/productos: chosen products to their stores', () => {
  it('sends the chosen products with «Sincronizar seleccionados» and follows the run to its end', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    renderApp(<ResourceListPage config={productsScreen} />, { route: '/ecommerce/productos' });
    await user.click(await screen.findByRole('checkbox', { name: 'Elegir Chompa de alpaca' }, { timeout: 10_000 }));
    await user.click(screen.getAllByRole('checkbox', { name: 'Elegir Polo piqué algodón pima' })[0]);
    expect(screen.queryByTestId('sync-panel')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sincronizar seleccionados' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/ecommerces/sync-selected')?.body).toEqual({ ids: [chompa._id, polo._id] }));
    const panel = await screen.findByTestId('sync-panel');
    expect(within(panel).getByRole('heading', { name: 'Envíos a las tiendas' })).toBeTruthy();
    expect(within(panel).getByText(/Envío de productos elegidos/)).toBeTruthy();
    // the choice is done with
    expect(screen.queryByTestId('selected-count')).toBeNull();

    await emit({ type: 'sync.progress', run: run({ status: 'done', done: 2, storeWrites: 1, unchanged: 1, finishedAt: '2026-05-02T10:00:03.000Z' }) });
    expect(within(panel).getByTestId('sync-status').textContent).toBe('Terminada');
    expect(within(panel).getByTestId('sync-counts').textContent).toContain('2 de 2');
    expect(within(panel).getByTestId('sync-counts').textContent).toContain('1 enviados a la tienda');
    await user.click(within(panel).getByRole('button', { name: 'Ocultar la sincronización de Lima principal' }));
    expect(screen.queryByTestId('sync-panel')).toBeNull();
  });

  it('copies one product\'s pictures and texts to the same SKU in the stores ticked', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    renderApp(<ResourceListPage config={productsScreen} />, { route: '/ecommerce/productos' });
    await user.click(await screen.findByRole('checkbox', { name: 'Elegir Chompa de alpaca' }, { timeout: 10_000 }));
    await user.click(screen.getAllByRole('checkbox', { name: 'Elegir Polo piqué algodón pima' })[0]);
    // for one product only
    expect(screen.getByRole('button', { name: 'Copiar multimedia y textos' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('checkbox', { name: 'Elegir Chompa de alpaca' }));
    await user.click(screen.getByRole('button', { name: 'Copiar multimedia y textos' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copiar multimedia y textos' });
    expect(await within(dialog).findByRole('checkbox', { name: 'Chile: Polo piqué algodón pima' })).toHaveProperty('checked', true);
    await user.click(within(dialog).getByRole('button', { name: 'Copiar y enviar' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/ecommerces/copy-multimedia-ref-copys')?.body).toEqual({ referenceId: polo._id, countries: ['CL'] }));
    expect(await screen.findByText('Imágenes y textos copiados a 1 productos')).toBeTruthy();
    expect(within(await screen.findByTestId('sync-panel')).getByText(/Santiago · Chile/)).toBeTruthy();
  });
});
