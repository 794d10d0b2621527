import type { MetaCatalogOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { MetaCatalogCard } from './meta-catalog-card';

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

const base: MetaCatalogOut = { catalogId: '880000000000031', hasLine: true, accepted: 30, errors: [], sync: { status: 'done', total: 0, processed: 0, sent: 0, failed: 0 } };

describe('the line’s Meta catalogue card', () => {
  it('syncs with its progress, then says how it went and lists the products Meta refused with the reason', async () => {
    let state: MetaCatalogOut = { ...base, sync: { status: 'done', total: 32, processed: 32, sent: 32, failed: 0, message: 'Se enviaron 32 cambios al catálogo de Meta' } };
    let polls = 0;
    const { calls } = fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { catalog: ['list', 'read', 'update'] } } };
      if (call.method === 'GET' && call.path === '/meta-catalog') {
        if (state.sync?.status === 'running' && ++polls >= 2) {
          state = {
            ...base,
            accepted: 31,
            errors: [{ sku: 'PRU-BAD', name: 'Producto prohibido', error: 'Meta rechazó el producto: The item does not comply with our Commerce Policies' }],
            sync: { status: 'done', total: 2, processed: 2, sent: 2, failed: 1, message: 'Se enviaron 2 cambios al catálogo de Meta; 1 con errores (revísalos abajo)' },
          };
        }
        return { status: 200, body: state };
      }
      if (call.method === 'POST' && call.path === '/meta-catalog/sync') {
        state = { ...base, sync: { status: 'running', total: 2, processed: 1, sent: 1, failed: 0 } };
        return { status: 202, body: state };
      }
      return undefined;
    });
    renderApp(<MetaCatalogCard />);
    const card = await screen.findByTestId('meta-catalog-card');
    expect((await within(card).findByRole('textbox', { name: 'Id del catálogo de Meta' }) as HTMLInputElement).value).toBe('880000000000031');
    expect(within(card).getByTestId('meta-catalog-message').textContent).toContain('Se enviaron 32 cambios');
    await userEvent.click(await within(card).findByRole('button', { name: 'Sincronizar catálogo' }));
    expect((await within(card).findByTestId('meta-catalog-progress')).textContent).toContain('1 de 2 cambios enviados');
    await waitFor(() => expect(within(card).getByTestId('meta-catalog-message').textContent).toContain('1 con errores'), { timeout: 8000 });
    expect(within(card).getByTestId('meta-catalog-errors').textContent).toContain('Producto prohibido (PRU-BAD): Meta rechazó el producto: The item does not comply with our Commerce Policies');
    expect(within(card).getByText('31 aceptados por Meta')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});
