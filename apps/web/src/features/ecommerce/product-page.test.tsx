import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import type { CrossoverRow, Variation } from './api';
import ProductPage from './product-page';

vi.mock('../../lib/realtime', () => ({ useRealtimeEvents: () => undefined }));
// whole pages that type and click: room for a busy two-core machine
vi.setConfig({ testTimeout: 40_000 });
/** The page's first paint (product, variations, comparison, form) on a loaded machine. */
const FIRST_PAINT = 15_000;

const id = '00000000-0000-4000-8000-000000000301';
const chileId = '00000000-0000-4000-8000-000000000302';
const product = {
  _id: id,
  name: 'Polo piqué algodón pima',
  sku: 'POLO-PIMA',
  price: 59.9,
  regularPrice: 79.9,
  stock: 84,
  status: 'publish',
  country: 'PE',
  woocommerceId: 2201,
  categoryIds: [],
  tagIds: [],
  attributes: [
    { nombre: 'Talla', values: ['M', 'L'] },
    { nombre: 'Color', values: ['Blanco'] },
  ],
  imageUrl: 'https://pe.tienda.sandbox.test/wp-content/uploads/polo-pima.svg',
  description: 'Polo de algodón pima peruano',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const variation = (n: number, over: Partial<Variation> = {}): Variation => ({
  _id: `00000000-0000-4000-8000-00000000040${n}`,
  ecommerceId: id,
  sku: n === 1 ? 'POLO-PIMA-BLANCO-M' : 'POLO-PIMA-BLANCO-L',
  price: 59.9,
  stock: 30,
  attributes: [
    { nombre: 'Talla', value: n === 1 ? 'M' : 'L' },
    { nombre: 'Color', value: 'Blanco' },
  ],
  woocommerceId: 2300 + n,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});
const crossover: CrossoverRow = {
  sku: 'POLO-PIMA',
  product: { _id: id, country: 'PE', name: 'Polo piqué algodón pima', price: 59.9, regularPrice: 79.9, stock: 84, status: 'publish', variations: 2 },
  others: [{ _id: chileId, country: 'CL', name: 'Polo piqué algodón pima', price: 24990, stock: 84, status: 'publish', variations: 2 }],
  missingIn: ['CO'],
  differences: ['price', 'tiendas'],
};

function serve() {
  const variations = [variation(1), variation(2)];
  const record = { ...product };
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { ecommerce: ['list', 'read', 'create', 'update', 'delete'] } } };
    if (call.method === 'GET' && call.path === `/ecommerces/${id}`) return { status: 200, body: record };
    if (call.method === 'GET' && call.path === '/ecommerces-variations') return { status: 200, body: pageOf(variations) };
    if (call.method === 'GET' && call.path === '/ecommerces/crossover/country/PE') return { status: 200, body: { ...pageOf([crossover]) } };
    if (call.method === 'GET' && call.path === '/ecommerces/sync-runs') return { status: 200, body: { payload: [] } };
    if (call.method === 'GET' && ['/ecommerces-categories', '/ecommerces-tags'].includes(call.path)) return { status: 200, body: pageOf([]) };
    const put = /^\/ecommerces\/[^/]+\/variations\/([^/]+)$/.exec(call.path);
    if (put && call.method === 'PUT') {
      const v = variations.find((x) => x._id === put[1]);
      if (!v) return undefined;
      Object.assign(v, call.body);
      return { status: 200, body: v };
    }
    if (put && call.method === 'POST') return { status: 200, body: { status: 'synced', msg: 'Guardado y enviado a Lima principal' } };
    if (call.method === 'PATCH' && call.path === `/ecommerces/v2/${id}`) {
      Object.assign(record, call.body, { updatedAt: '2026-01-02T00:00:00Z' });
      return { status: 200, body: { product: record, sync: { status: 'synced', msg: 'Guardado y enviado a Lima principal' } } };
    }
    return undefined;
  });
}

const render = () =>
  renderApp(
    <Routes>
      <Route path="/ecommerce/productos/:id" element={<ProductPage />} />
    </Routes>,
    { route: `/ecommerce/productos/${id}` },
  );

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/ecommerce/productos/{id}', () => {
  it('edits a variation: a wrong price is said in Spanish and not sent; «Guardar» saves it, «Enviar» sends it to the store', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    render();
    const row = await screen.findByRole('listitem', { name: 'Variación POLO-PIMA-BLANCO-M' }, { timeout: FIRST_PAINT });
    const price = within(row).getByRole('textbox', { name: 'Precio de POLO-PIMA-BLANCO-M' });
    await user.clear(price);
    await user.paste('caro');
    expect(within(row).getByText('Sin guardar')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Guardar POLO-PIMA-BLANCO-M' }));
    expect(await within(row).findByText(/número/i)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.clear(price);
    await user.paste('64,90');
    await user.click(within(row).getByRole('button', { name: 'Guardar POLO-PIMA-BLANCO-M' }));
    expect((await within(row).findByTestId('variation-note')).textContent).toContain('Guardada en Mostrador');
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([[`/ecommerces/${id}/variations/${variation(1)._id}`, { price: 64.9 }]]);
    expect(within(row).getByText('En la tienda #2301')).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: 'Enviar POLO-PIMA-BLANCO-M a la tienda' }));
    await waitFor(() => expect(within(row).getByTestId('variation-note').textContent).toBe('Guardado y enviado a Lima principal'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/ecommerces/${id}/variations/${variation(1)._id}`]);
  });

  it('shows the product beside the other country stores, marking what differs and the store that lacks it', async () => {
    serve();
    render();
    const section = await screen.findByTestId('crossover', {}, { timeout: FIRST_PAINT });
    const table = await within(section).findByRole('table', { name: 'POLO-PIMA en cada tienda' }, { timeout: FIRST_PAINT });
    const priceRow = within(table).getByRole('rowheader', { name: 'Precio' }).closest('tr') as HTMLElement;
    const cells = within(priceRow).getAllByRole('cell');
    expect(cells[0].dataset.differs).toBeUndefined();
    expect(cells[0].textContent).toContain('59.90');
    expect(cells[1].dataset.differs).toBe('true');
    expect(cells[1].textContent).toContain('distinto');
    const stockRow = within(table).getByRole('rowheader', { name: 'Stock' }).closest('tr') as HTMLElement;
    expect(within(stockRow).getAllByRole('cell').some((c) => c.dataset.differs)).toBe(false);
    expect(within(table).getByTestId('missing-CO').textContent).toBe('No tiene este SKU');
    expect(within(section).getByTestId('crossover-summary').textContent).toContain('Resaltado: lo que difiere de Perú (precio)');
    expect(within(table).getByRole('link', { name: 'Chile' }).getAttribute('href')).toBe(`/ecommerce/productos/${chileId}`);
  });

  it('saves the product with PATCH /ecommerces/v2/{id}, sending only what changed, and says what the store did', async () => {
    const user = userEvent.setup();
    const { calls } = serve();
    render();
    const name = await screen.findByRole('textbox', { name: /^Nombre/ }, { timeout: FIRST_PAINT });
    await user.clear(name);
    await user.paste('Polo pima clásico');
    await user.click(screen.getByRole('button', { name: 'Guardar y enviar a la tienda' }));
    expect((await screen.findByTestId('product-sync')).textContent).toBe('Guardado y enviado a Lima principal');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ name: 'Polo pima clásico' }]);
    // the sandbox's picture is drawn by the product itself
    expect(screen.getByRole('img', { name: /^Imagen de/ }).getAttribute('src')).toBe('/api/woocommerce-sandbox/media/polo-pima.svg');
  });
});
