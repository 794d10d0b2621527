import type { LeadImportResult } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { feedbackStore } from '../../lib/feedback';
import { sessionStore } from '../../lib/session';
import { jsonResponse, renderApp } from '../../test/render';
import { FakeXhr } from '../../test/fake-xhr';
import { LeadCsvActions } from './lead-csv-actions';

const everything = { leads: ['list', 'read', 'create', 'update', 'delete'] };

/** Answers /permissions as JSON and the export as a CSV stream; records each request. */
function serve({ permissions = everything as object, exportStatus = 200 } = {}) {
  const requests: Request[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(new URL(String(input), 'http://localhost'), init);
    requests.push(request);
    const path = new URL(request.url).pathname;
    if (path === '/api/permissions') return jsonResponse(200, { role: 'admin', permissions });
    if (path.endsWith('/export')) {
      if (exportStatus !== 200) return jsonResponse(exportStatus, { errors: { code: 'VALIDATION', msg: 'Estado de lead desconocido' } });
      return new Response('\uFEFFemail,telefono\r\nana@correo.pe,51987111222\r\n', {
        status: 200,
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="leads-2025-03-14.csv"' },
      });
    }
    return jsonResponse(404, { errors: { code: 'NOT_FOUND', msg: 'No existe' } });
  });
  return { requests, spy };
}


beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token-1', companyId: 'company-1' }));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.last = undefined;
  URL.createObjectURL = vi.fn(() => 'blob:csv');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('LeadCsvActions: export', () => {
  it('downloads what the list shows with the session headers and saves the named file', async () => {
    const { requests } = serve();
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp(<LeadCsvActions resource="leads" filters={{ status: 'sin-asignar', filter: 'ana', platform: undefined }} />);
    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(clicks).toHaveBeenCalled());
    const call = requests.find((r) => r.url.includes('/export'));
    expect(call).toBeDefined();
    const url = new URL(call?.url ?? '');
    expect(url.pathname).toBe('/api/leads/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({ status: 'sin-asignar', filter: 'ana' });
    expect(call?.headers.get('authorization')).toBe('Bearer token-1');
    expect(call?.headers.get('x-company-id')).toBe('company-1');
    const link = clicks.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toBe('leads-2025-03-14.csv');
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0][0] as Blob;
    expect(await blob.text()).toContain('ana@correo.pe,51987111222');
    expect(feedbackStore.get().success?.message).toBe('Exportación lista');
    expect((screen.getByRole('button', { name: 'Exportar CSV' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('exports clean leads from their own path and shows a refusal in the error snackbar', async () => {
    const { requests } = serve({ exportStatus: 400 });
    const user = userEvent.setup();
    renderApp(<LeadCsvActions resource="clean-leads" filters={{}} canImport />);
    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(feedbackStore.get().errors?.messages).toEqual(['Estado de lead desconocido']));
    expect(requests.some((r) => new URL(r.url).pathname === '/api/clean-leads/export')).toBe(true);
    // clean leads are never imported
    expect(screen.queryByRole('button', { name: 'Importar CSV' })).toBeNull();
  });
});

describe('LeadCsvActions: import', () => {
  const result: LeadImportResult = {
    msg: 'Importación terminada: 2 leads nuevos, 1 combinado, 2 filas rechazadas, 1 aviso',
    created: 2,
    merged: 1,
    rejected: [
      { row: 3, reason: 'Teléfono inválido' },
      { row: 7, reason: 'Email inválido' },
    ],
    warnings: [{ row: 5, reason: 'Etiqueta desconocida, no se asignó: VIP' }],
  };

  it('uploads the chosen file as text/csv, shows its progress, then the counts and rejected rows, and refreshes the lists', async () => {
    serve();
    FakeXhr.answer = { status: 200, body: result };
    const user = userEvent.setup();
    const { queryClient } = renderApp(<LeadCsvActions resource="leads" filters={{}} canImport />);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await user.click(await screen.findByRole('button', { name: 'Importar CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar leads desde CSV' });
    expect((within(dialog).getByRole('button', { name: 'Importar' }) as HTMLButtonElement).disabled).toBe(true);

    const file = new File(['nombre,telefono\nAna,987111222\n'], 'clientes.csv', { type: 'text/csv' });
    await user.upload(within(dialog).getByLabelText('Archivo CSV'), file);
    expect(within(dialog).getByText(/clientes\.csv/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Importar' }));

    expect(await within(dialog).findByText('Subiendo archivo… 50 %')).toBeTruthy();
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/leads/import');
    expect(xhr.headers['content-type']).toBe('text/csv');
    expect(xhr.headers.authorization).toBe('Bearer token-1');
    expect(xhr.headers['x-company-id']).toBe('company-1');
    expect(xhr.body).toBe(file);

    xhr.respond();
    expect(await within(dialog).findByText(result.msg)).toBeTruthy();
    expect(within(dialog).getByText('Nuevos: 2')).toBeTruthy();
    expect(within(dialog).getByText('Combinados: 1')).toBeTruthy();
    expect(within(dialog).getByText('Rechazados: 2')).toBeTruthy();
    const rows = within(within(dialog).getByRole('table', { name: 'Filas rechazadas y avisos' })).getAllByRole('row');
    expect(within(dialog).getByText('Avisos: 1')).toBeTruthy();
    // rejected rows and rows imported with a warning, in file order
    expect(rows.map((r) => r.textContent)).toEqual([
      'FilaMotivo',
      '3Teléfono inválido',
      '5ImportadaEtiqueta desconocida, no se asignó: VIP',
      '7Email inválido',
    ]);
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['leads'] }));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['clean-leads'] });

    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's refusal of the file in the dialog and lets the user pick another", async () => {
    serve();
    FakeXhr.answer = { status: 400, body: { errors: { code: 'VALIDATION', msg: 'El archivo tiene más de 20.000 filas: divídelo en archivos más pequeños' } } };
    const user = userEvent.setup();
    renderApp(<LeadCsvActions resource="leads" filters={{}} canImport />);
    await user.click(await screen.findByRole('button', { name: 'Importar CSV' }));
    const dialog = await screen.findByRole('dialog');
    await user.upload(within(dialog).getByLabelText('Archivo CSV'), new File(['x'], 'grande.csv', { type: 'text/csv' }));
    await user.click(within(dialog).getByRole('button', { name: 'Importar' }));
    (FakeXhr.last as FakeXhr).respond();
    expect((await within(dialog).findByTestId('import-error')).textContent).toMatch(/más de 20\.000 filas/);
    expect((within(dialog).getByRole('button', { name: 'Importar' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers no import without canImport or without permission to create leads', async () => {
    serve({ permissions: { leads: ['list', 'read'] } });
    const { unmount } = renderApp(<LeadCsvActions resource="leads" filters={{}} canImport />);
    await screen.findByRole('button', { name: 'Exportar CSV' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: 'Importar CSV' })).toBeNull();
    unmount();
    serve();
    renderApp(<LeadCsvActions resource="leads" filters={{}} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: 'Importar CSV' })).toBeNull();
  });
});
