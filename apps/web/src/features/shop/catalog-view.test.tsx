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
