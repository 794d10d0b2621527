import { timezones } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceFormDialog } from '../../components/crud/resource-form-dialog';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { screen as companiesScreen } from './companies-screen';

const id = '00000000-0000-4000-8000-0000000000c1';
const company = {
  _id: id,
  name: 'Demo Perú',
  country: 'PE',
  settings: { timezone: 'America/Lima', currency: 'PEN' },
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: id })));
afterEach(() => vi.restoreAllMocks());

describe('company time zone: every IANA zone can be chosen', () => {
  it('offers the whole list, searchable, with Spanish names, and saves the chosen zone', async () => {
    const user = userEvent.setup();
    const { calls } = fakeApi((call) => (call.method === 'PUT' ? { status: 200, body: { ...company, ...(call.body as object) } } : undefined));
    renderApp(<ResourceFormDialog config={companiesScreen} record={company} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Editar compañía' });
    const zone = within(dialog).getByRole('combobox', { name: 'Zona horaria' });
    expect((zone as HTMLInputElement).value).toBe('Lima (GMT-5)');

    // opening it lists every zone this browser knows, the countries we sell in first
    await user.click(zone);
    await user.clear(zone);
    const listbox = await screen.findByRole('listbox');
    const all = within(listbox).getAllByRole('option');
    expect(all.length).toBe(timezones.length);
    expect(all.length).toBeGreaterThan(300);
    expect(all.slice(0, 4).map((o) => o.textContent)).toEqual(['Lima (GMT-5)', 'Santiago de Chile', 'Bogotá (GMT-5)', 'Madrid']);

    // typing narrows it
    await user.type(zone, 'tokyo');
    const found = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(found.map((o) => o.textContent)).toEqual(['Tokyo (Asia)']);
    await user.click(found[0]);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toBeTruthy());
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ settings: { timezone: 'Asia/Tokyo' } });
  });
});
