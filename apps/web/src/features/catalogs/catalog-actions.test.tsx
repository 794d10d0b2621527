import type { Page } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import type { ResourceRecord } from '../../components/crud/types';
import { sessionStore } from '../../lib/session';
import { screen as catalogsScreen } from './catalogs-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const catalogue = (i: number, name: string, isDefault: boolean): ResourceRecord => ({
  _id: id(i),
  name,
  description: '',
  isDefault,
  productIds: [],
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

/** A company's catalogues behind the API, with POST /catalogs/{id}/default moving the one mark. */
function serve(permissions: object = { catalog: ['list', 'read', 'create', 'update', 'delete'] }) {
  const rows = [catalogue(1, 'Verano', true), catalogue(2, 'Escolar', false)];
  const api = fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/catalogs') {
      const body: Page<ResourceRecord> = pageOf(rows.map((r) => ({ ...r })));
      return { status: 200, body };
    }
    const moved = call.method === 'POST' && /^\/catalogs\/([^/]+)\/default$/.exec(call.path);
    if (moved) {
      for (const r of rows) r.isDefault = r._id === decodeURIComponent(moved[1]);
      return { status: 200, body: { msg: 'Catálogo predeterminado actualizado' } };
    }
    return undefined;
  });
  return { ...api, rows };
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/catalogs row actions', () => {
  it('open the customers’ page, copy its link, and make another catalogue the default', async () => {
    const { calls, rows } = serve();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp(<ResourceListPage config={catalogsScreen} />, { route: '/catalogs' });

    const open = await screen.findByRole('link', { name: 'Ver como cliente: Escolar' });
    expect(open.getAttribute('href')).toBe(`${window.location.origin}/catalogo-digital/${id(2)}`);
    expect(open.getAttribute('target')).toBe('_blank');

    await userEvent.click(screen.getByRole('button', { name: 'Copiar enlace: Escolar' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/catalogo-digital/${id(2)}`);
    expect(await screen.findByText('Enlace copiado')).toBeTruthy();

    // the default one offers no «Hacer predeterminado»; the other does, and then the mark moves
    expect(screen.queryByRole('button', { name: 'Hacer predeterminado: Verano' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Hacer predeterminado: Escolar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === `/catalogs/${id(2)}/default`)).toBe(true));
    expect(rows.find((r) => r._id === id(2))?.isDefault).toBe(true);
    expect(await screen.findByRole('button', { name: 'Hacer predeterminado: Verano' })).toBeTruthy();
    const escolar = screen.getAllByRole('row').find((r) => within(r).queryByText('Escolar'));
    expect(escolar && within(escolar).queryByRole('button', { name: /Hacer predeterminado/ })).toBeNull();
  });

  it('an agent without update sees the link actions but not «Hacer predeterminado»', async () => {
    serve({ catalog: ['list', 'read'] });
    renderApp(<ResourceListPage config={catalogsScreen} />, { route: '/catalogs' });
    expect(await screen.findByRole('button', { name: 'Copiar enlace: Escolar' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Hacer predeterminado/ })).toBeNull();
  });
});
