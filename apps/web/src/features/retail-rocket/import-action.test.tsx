import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as retailRocketScreen } from '../../resources/retail-rocket-tags';
import { fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';

const TAG = '00000000-0000-4000-8000-000000000001';

/** XMLHttpRequest as the upload sees it: the whole file sent, then the server's answer. */
class FakeXhr {
  static sent: Array<{ method: string; url: string; headers: Record<string, string>; body: unknown }> = [];
  headers: Record<string, string> = {};
  method = '';
  url = '';
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(key: string, value: string) {
    this.headers[key.toLowerCase()] = value;
  }
  abort() {}
  send(body: unknown) {
    FakeXhr.sent.push({ method: this.method, url: this.url, headers: this.headers, body });
    this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
    setTimeout(() => {
      this.status = 200;
      this.responseText = JSON.stringify({
        msg: '2 leads importados (1 nuevo, 1 combinado). Todos llevan la etiqueta «Carrito abandonado».',
        created: 1,
        merged: 1,
        rejected: [],
        warnings: [],
      });
      this.onload?.();
    }, 0);
  }
}

function serve(permissions: object) {
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions } };
    if (call.method === 'GET' && call.path === '/retail-rocket-tags') {
      return { status: 200, body: pageOf([{ _id: TAG, name: 'Carrito abandonado', segmentId: '7782', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' }]) };
    }
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('/retail-rocket/etiquetas «Importar segmento»', () => {
  it('uploads the segment’s export to its tag and shows what became of its people', async () => {
    serve({ marketing: ['list', 'read', 'create', 'update', 'delete'], leads: ['list', 'read', 'create', 'update', 'import'] });
    renderApp(<ResourceListPage config={retailRocketScreen} />, { route: '/retail-rocket/etiquetas' });
    await userEvent.click(await screen.findByRole('button', { name: 'Importar segmento: Carrito abandonado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar segmento · Carrito abandonado' });
    expect(within(dialog).getByText(/recibe la etiqueta Mostrador «Carrito abandonado»/)).toBeTruthy();
    await userEvent.upload(within(dialog).getByLabelText('Archivo CSV'), new File(['nombre,telefono\nRosa,56911112222\n'], 'segmento.csv', { type: 'text/csv' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Importar' }));
    expect(await within(dialog).findByText(/Todos llevan la etiqueta «Carrito abandonado»/)).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(1);
    expect(FakeXhr.sent[0]).toMatchObject({ method: 'POST', headers: { 'content-type': 'text/csv' } });
    expect(FakeXhr.sent[0].url).toContain(`/api/retail-rocket-tags/${TAG}/import`);
  });

  it('is not offered to a role that may not create leads', async () => {
    serve({ marketing: ['list', 'read'], leads: ['list', 'read'] });
    renderApp(<ResourceListPage config={retailRocketScreen} />, { route: '/retail-rocket/etiquetas' });
    expect(await screen.findByText('Carrito abandonado')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: /Importar segmento/ })).toBeNull());
  });
});
