import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp } from '../test/render';
import { api } from './api-client';
import { resetFeedback } from './feedback';
import { useSubmit } from './use-submit';

const fetchMock = vi.fn<typeof fetch>();

beforeAll(async () => {
  await import('../components/ui/feedback-view');
});

beforeEach(() => {
  resetFeedback();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

const conflict = () => jsonResponse(409, { errors: { code: 'CONFLICT', msg: 'El SKU ya está en uso' } });

describe('error snackbar goes away when the failed action is retried and succeeds', () => {
  it('closes the error of POST /products once the same POST succeeds', async () => {
    fetchMock.mockResolvedValueOnce(conflict()).mockResolvedValueOnce(jsonResponse(201, { _id: 'p1' }));
    renderApp(<p>Productos</p>);

    await act(() => api.post('/products', { sku: 'IK' }).catch(() => undefined));
    expect((await screen.findByTestId('error-snackbar')).textContent).toContain('El SKU ya está en uso');

    await act(() => api.post('/products', { sku: 'IK-2' }));
    await waitFor(() => expect(screen.queryByTestId('error-snackbar')).toBeNull());
  });

  it('keeps the error when a different action succeeds meanwhile', async () => {
    fetchMock.mockResolvedValueOnce(conflict()).mockResolvedValueOnce(jsonResponse(200, { payload: [] }));
    renderApp(<p>Productos</p>);

    await act(() => api.post('/products', { sku: 'IK' }).catch(() => undefined));
    await screen.findByTestId('error-snackbar');
    await act(() => api.get('/brands', { query: { page: 1 } }));
    expect(screen.getByTestId('error-snackbar').textContent).toContain('El SKU ya está en uso');
  });

  it('closes the connection error of a form once its retry gets through', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(jsonResponse(200, { msg: 'ok' }));
    function Form() {
      const { submit } = useSubmit((email: string) => api.post('/forgot', { email }, { public: true }));
      return (
        <button type="button" onClick={() => void submit('ana@tienda.pe')}>
          Enviar
        </button>
      );
    }
    renderApp(<Form />);

    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect((await screen.findByTestId('error-snackbar')).textContent).toMatch(/conex|servidor/i);

    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(screen.queryByTestId('error-snackbar')).toBeNull());
  });
});
