import type { PublicCatalog, PublicProduct } from '@mostrador/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { CatalogView } from './catalog-view';

const catalog: PublicCatalog = {
  _id: 'catalogo-verano',
  name: 'Verano',
  company: { name: 'Zapatería Lima', country: 'PE', currency: 'PEN' },
  categories: [],
  brands: [],
  productCount: 1,
};
const product: PublicProduct = { _id: 'zapatilla-blanca', name: 'Zapatilla blanca', sku: 'ZB-40', price: 120, available: 3 };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the shop’s product sheet', () => {
  it('names its quantity stepper for a screen reader, and closes on a click beside the sheet but not inside it', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => Promise.resolve(jsonResponse(200, { payload: [product], totalDocs: 1, totalPages: 1, page: 1, limit: 24 })));
    const user = userEvent.setup();
    render(<CatalogView catalog={catalog} />);
    await user.click(await screen.findByRole('button', { name: 'Zapatilla blanca' }));

    const sheet = screen.getByRole('dialog', { name: 'Zapatilla blanca' });
    const stepper = within(sheet).getByRole('group', { name: 'Cantidad' });
    await user.click(within(stepper).getByRole('button', { name: 'Agregar uno' }));
    expect(within(stepper).getByText('2')).toBeTruthy();

    await user.click(within(sheet).getByRole('heading', { name: 'Zapatilla blanca' }));
    expect(screen.getByRole('dialog', { name: 'Zapatilla blanca' })).toBe(sheet);
    await user.click(sheet.parentElement as HTMLElement);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a cart link (?carrito=SKU:2,…)', () => {
  it('fills the cart with those products once, at most what is in stock, and leaves the address clean', async () => {
    const polo: PublicProduct = {
      _id: 'polo',
      name: 'Polo pima',
      sku: 'PP-01',
      price: 45,
      available: 0,
      variants: [{ sku: 'PP-01-M', size: 'M', price: 49, available: 5 }],
    };
    localStorage.clear();
    window.history.replaceState(null, '', '/catalogo-digital/catalogo-verano?carrito=pp-01-m:2,ZB-40:9,NO-EXISTE:1');
    const asked: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const url = new URL(String(input), 'http://shop.test');
      asked.push(url.searchParams.get('filter') ?? '');
      const filter = url.searchParams.get('filter');
      const payload = filter === 'PP-01-M' ? [polo] : filter === 'ZB-40' ? [product] : filter ? [] : [product, polo];
      return Promise.resolve(jsonResponse(200, { payload, totalDocs: payload.length, totalPages: 1, page: 1, limit: 24 }));
    });
    render(<CatalogView catalog={catalog} />);
    expect((await screen.findByRole('status')).textContent).toBe('Te dejamos tus 2 productos en el carrito');
    expect(window.location.search).toBe('');
    expect(asked).toEqual(expect.arrayContaining(['PP-01-M', 'ZB-40', 'NO-EXISTE']));
    // the cart: 2 of the M polo, and the shoes capped at the 3 left
    expect(screen.getByRole('button', { name: 'Carrito: 5 productos' })).toBeTruthy();
    expect(screen.getByText(/Ver carrito \(5\)/).textContent).toMatch(/458\.00/);
  });
});
