import type { ConnectionTestOut, SyncRunOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as woocommerceScreen } from './woocommerces-screen';
import { type FakeAnswer, type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));

vi.setConfig({ testTimeout: 15_000 });

const storeId = '00000000-0000-4000-8000-000000000101';
const store = {
  _id: storeId,
  name: 'Lima principal',
  url: 'https://pe.tienda.sandbox.test',
  country: 'PE',
  consumerKeySet: true,
  consumerSecretSet: true,
  webhookSecretSet: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const all = ['list', 'read', 'create', 'update', 'delete'];

const run = (over: Partial<SyncRunOut> = {}): SyncRunOut => ({
  _id: '00000000-0000-4000-8000-000000000201',
  storeId,
  storeName: 'Lima principal',
  country: 'PE',
  kind: 'all',
  status: 'queued',
  total: 0,
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

function serve({ runs = [] as SyncRunOut[], tests = [] as ConnectionTestOut[], extra }: { runs?: SyncRunOut[]; tests?: ConnectionTestOut[]; extra?: (call: FakeCall) => FakeAnswer } = {}) {
  const answers = [...tests];
  return fakeApi((call) => {
    const own = extra?.(call);
    if (own) return own;
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { integrations: all, ecommerce: all } } };
    if (call.method === 'GET' && call.path === '/woocommerces') return { status: 200, body: pageOf([store]) };
    if (call.method === 'GET' && call.path === '/ecommerces/sync-runs') return { status: 200, body: { payload: runs } };
    if (call.method === 'POST' && call.path === `/woocommerces/${storeId}/test`) return { status: 200, body: answers.shift() };
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('/woocommerce: stores, connection test and sync', () => {
  it('shows whether the keys are saved, never the keys, and says when no store was synced yet', async () => {
    serve();
    renderApp(<ResourceListPage config={woocommerceScreen} />, { route: '/woocommerce' });
    const row = (await screen.findByText('Lima principal')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Claves guardadas')).toBeTruthy();
    expect(within(row).getByText('Webhooks firmados')).toBeTruthy();
    expect(within(row).getByText('Conexión sin probar')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/ck_|cs_sandbox/);
    expect(await screen.findByTestId('sync-empty')).toHaveProperty('textContent', expect.stringContaining('Aún no se ha sincronizado ninguna tienda'));
    expect(within(row).getByText('Nunca')).toBeTruthy();
  });

  it('tests the connection and points at what is wrong, then at nothing once it works', async () => {
    const user = userEvent.setup();
    const { calls } = serve({
      tests: [
        { ok: false, problem: 'keys', msg: 'La clave (ck_…) o el secreto (cs_…) del consumidor no son válidos para esta tienda' },
        { ok: true, msg: 'Conexión correcta con Lima principal (tienda de prueba): 12 productos, claves con permiso de lectura y escritura', products: 12, canWrite: true },
      ],
    });
    renderApp(<ResourceListPage config={woocommerceScreen} />, { route: '/woocommerce' });
    await user.click(await screen.findByRole('button', { name: 'Probar conexión: Lima principal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Probar conexión · Lima principal' });
    expect((await within(dialog).findByTestId('connection-result')).textContent).toContain('no son válidos para esta tienda');
    const checks = within(dialog).getByRole('list', { name: 'Comprobaciones' });
    const item = (label: string) => within(checks).getByText(label).closest('li') as HTMLElement;
    expect(item('Dirección (URL)').dataset.state).toBe('ok');
    expect(item('Claves de la API (ck_… y cs_…)').dataset.state).toBe('bad');
    expect(within(item('Claves de la API (ck_… y cs_…)')).getByText('No son válidas para esta tienda')).toBeTruthy();
    expect(item('Permisos de las claves').dataset.state).toBe('unknown');
    expect(within(dialog).getByText(/Corrígelo con «Editar»/)).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Probar de nuevo' }));
    await waitFor(() => expect(within(dialog).getByTestId('connection-result').textContent).toContain('Conexión correcta con Lima principal'));
    expect(item('Permisos de las claves').dataset.state).toBe('ok');
    expect(within(dialog).getByText('La tienda tiene 12 productos.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.path === `/woocommerces/${storeId}/test`)).toHaveLength(2);

    await user.click(within(dialog).getAllByRole('button', { name: 'Cerrar' }).at(-1) as HTMLElement);
    const row = screen.getByText('Lima principal', { selector: 'td *, td' }).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('connection-chip').textContent).toBe('Conectada');
  });

  it('starts a sync and follows it live to the end, with its counts and per-item error report', async () => {
    const user = userEvent.setup();
    const finished = run({
      status: 'done',
      total: 40,
      done: 40,
      created: 2,
      updated: 1,
      unchanged: 36,
      storeWrites: 3,
      requests: 9,
      failedItems: 1,
      errors: [{ item: 'Producto POLO-X (#2290)', msg: 'Datos de la tienda no válidos: price: Debe ser un número' }],
      startedAt: '2026-05-02T10:00:01.000Z',
      finishedAt: '2026-05-02T10:00:09.000Z',
    });
    const { calls } = serve({
      extra: (call) => {
        if (call.method === 'POST' && call.path === '/ecommerces/sync-all') return { status: 202, body: { msg: 'Sincronización iniciada', runs: [run()] } };
        if (call.method === 'GET' && call.path === `/ecommerces/sync-runs/${finished._id}`) return { status: 200, body: finished };
        return undefined;
      },
    });
    renderApp(<ResourceListPage config={woocommerceScreen} />, { route: '/woocommerce' });
    await user.click(await screen.findByRole('button', { name: 'Sincronizar: Lima principal' }));
    expect(calls.find((c) => c.path === '/ecommerces/sync-all')?.body).toEqual({ storeId });
    expect(await screen.findByText('Sincronización iniciada')).toBeTruthy();
    const card = await screen.findByTestId('sync-run');
    expect(within(card).getByTestId('sync-status').textContent).toBe('En cola');
    expect(screen.getByRole('button', { name: 'Sincronizando…: Lima principal' })).toHaveProperty('disabled', true);

    await emit({ type: 'sync.progress', run: run({ status: 'running', total: 40, done: 10, unchanged: 10, requests: 3 }) });
    const bar = within(screen.getByTestId('sync-run')).getByRole('progressbar', { name: 'Progreso de Lima principal' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(within(screen.getByTestId('sync-run')).getByTestId('sync-done').textContent).toBe('10 de 40 revisados');
    expect(within(screen.getByTestId('sync-run')).getByTestId('sync-status').textContent).toBe('Sincronizando');

    await emit({ type: 'sync.progress', run: finished });
    const done = screen.getByTestId('sync-run');
    expect(within(done).getByTestId('sync-status').textContent).toBe('Terminada');
    expect(within(done).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(within(done).getByTestId('sync-counts').textContent).toContain('40 de 40 revisados');
    expect(within(done).getByTestId('sync-counts').textContent).toContain('2 creados · 1 actualizados · 36 sin cambios · 3 enviados a la tienda · 1 con error');
    expect(screen.getByRole('button', { name: 'Sincronizar: Lima principal' })).toHaveProperty('disabled', false);

    await user.click(within(done).getByRole('button', { name: 'Ver el informe de Lima principal' }));
    const report = await screen.findByRole('dialog', { name: /Informe de la sincronización/ });
    const errors = await within(report).findByRole('table', { name: 'Errores por elemento' });
    expect(within(errors).getByText('Producto POLO-X (#2290)')).toBeTruthy();
    expect(within(errors).getByText('Datos de la tienda no válidos: price: Debe ser un número')).toBeTruthy();
    const counts = within(report).getByRole('table', { name: 'Resultado' });
    expect(within(counts).getByText('Enviados a la tienda').closest('tr')?.textContent).toContain('3');
  });

  it('shows why a failed run stopped, and the last runs newest first', async () => {
    serve({
      runs: [
        run({ _id: '00000000-0000-4000-8000-000000000203', status: 'failed', message: 'Las claves solo tienen permiso de lectura: crea en WooCommerce unas claves con permiso de lectura/escritura', createdAt: '2026-05-03T10:00:00.000Z' }),
        run({ _id: '00000000-0000-4000-8000-000000000202', status: 'done', total: 5, done: 5, unchanged: 5, finishedAt: '2026-05-02T10:00:05.000Z' }),
      ],
    });
    renderApp(<ResourceListPage config={woocommerceScreen} />, { route: '/woocommerce' });
    const cards = await screen.findAllByTestId('sync-run');
    expect(cards.map((c) => c.dataset.status)).toEqual(['failed', 'done']);
    expect(within(cards[0]).getByText(/solo tienen permiso de lectura/)).toBeTruthy();
    expect(within(cards[1]).getByTestId('sync-counts').textContent).toContain('5 de 5');
    const row = screen.getByText('Lima principal', { selector: 'td *, td' }).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('sync-status').textContent).toBe('Fallida');
  });
});
