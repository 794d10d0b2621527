import type { MailchimpReportOut, MailchimpSyncOut, MailchimpTestOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as mailchimpScreen } from './mailchimps-screen';
import { type FakeAnswer, type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));

vi.setConfig({ testTimeout: 30_000 });

const accountId = '00000000-0000-4000-8000-000000000301';
const account = { _id: accountId, name: 'Boletín clientes', serverPrefix: 'us21', listId: 'a1b2c3d4e5', apiKeySet: true, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
const all = ['list', 'read', 'create', 'update', 'delete'];

const sync = (over: Partial<MailchimpSyncOut> = {}): MailchimpSyncOut => ({
  _id: '00000000-0000-4000-8000-000000000401',
  kind: 'labels',
  status: 'running',
  audienceNames: ['Boletín clientes'],
  labelNames: ['VIP'],
  segmentName: 'Para reconectar',
  total: 40,
  done: 10,
  ok: 9,
  failed: 1,
  skipped: 0,
  requests: 19,
  createdAt: '2026-05-02T10:00:00.000Z',
  startedAt: '2026-05-02T10:00:01.000Z',
  ...over,
});

function serve({ syncs = [] as MailchimpSyncOut[], tests = [] as MailchimpTestOut[], extra }: { syncs?: MailchimpSyncOut[]; tests?: MailchimpTestOut[]; extra?: (call: FakeCall) => FakeAnswer } = {}) {
  const answers = [...tests];
  return fakeApi((call) => {
    const own = extra?.(call);
    if (own) return own;
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { marketing: all } } };
    if (call.method === 'GET' && call.path === '/mailchimps') return { status: 200, body: pageOf([account]) };
    if (call.method === 'GET' && call.path === '/mailchimp/accounts')
      return { status: 200, body: { payload: [{ _id: accountId, name: account.name, serverPrefix: 'us21', listId: account.listId, keyHint: 'sandbox…us21', sandbox: true }] } };
    if (call.method === 'GET' && call.path === '/mailchimp/syncs') return { status: 200, body: { payload: syncs } };
    if (call.method === 'POST' && call.path === `/mailchimps/${accountId}/test`) return { status: 200, body: answers.shift() };
    return undefined;
  });
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('/mailchimp: audiences, connection test, syncs', () => {
  it('shows the key saved with its last characters only, and says when nothing was sent yet', async () => {
    serve();
    renderApp(<ResourceListPage config={mailchimpScreen} />, { route: '/mailchimp' });
    const row = (await screen.findByText('Boletín clientes')).closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).getByTestId('mailchimp-key').textContent).toBe('API key guardada · sandbox…us21'));
    expect(within(row).getByText('Conexión sin probar')).toBeTruthy();
    expect((await screen.findByTestId('mailchimp-syncs-empty')).textContent).toContain('Aún no se ha enviado nada a Mailchimp');
  });

  it('tests the connection and marks the part to fix', async () => {
    const user = userEvent.setup();
    serve({
      tests: [
        { ok: false, problem: 'listId', msg: 'La audiencia no existe en esta cuenta: revisa el id de la audiencia (Audiencia › Configuración › Nombre y valores por defecto)' },
        { ok: true, msg: 'Conexión correcta: la audiencia «Clientes» (audiencia de prueba) tiene 24 contactos', audience: { name: 'Clientes', members: 24 } },
      ],
    });
    renderApp(<ResourceListPage config={mailchimpScreen} />, { route: '/mailchimp' });
    await user.click(await screen.findByRole('button', { name: 'Probar conexión: Boletín clientes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Probar conexión · Boletín clientes' });
    expect((await within(dialog).findByTestId('mailchimp-test-result')).textContent).toContain('La audiencia no existe');
    // the list is drawn again for each answer: asked for each time
    const item = (label: string) => within(dialog).getByText(label, { selector: 'li *' }).closest('li') as HTMLElement;
    expect(item('Prefijo del servidor').dataset.state).toBe('ok');
    expect(item('API key').dataset.state).toBe('ok');
    expect(item('Id de la audiencia').dataset.state).toBe('bad');
    await user.click(within(dialog).getByRole('button', { name: 'Probar de nuevo' }));
    await waitFor(() => expect(within(dialog).getByTestId('mailchimp-test-result').textContent).toContain('Conexión correcta'), { timeout: 10_000 });
    expect(item('Id de la audiencia').dataset.state).toBe('ok');
    await user.click(within(dialog).getAllByRole('button', { name: 'Cerrar' }).at(-1) as HTMLElement);
    const row = screen.getByText('Boletín clientes', { selector: 'td *, td' }).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('mailchimp-connection').textContent).toBe('Conectada');
    // clicks in the dialog stayed there: the edit form never opened
    expect(screen.queryByRole('dialog', { name: 'Editar credencial' })).toBeNull();
  });

  it('follows a sync live to its end and shows its per-contact report', async () => {
    const user = userEvent.setup();
    const report: MailchimpReportOut = {
      payload: [
        { name: 'Miguel Baja', email: 'miguel@gmail.com', audienceName: 'Boletín clientes', outcome: 'error', reason: 'Está en estado de cumplimiento en Mailchimp', tags: ['VIP'], at: '2026-05-02T10:00:05.000Z' },
        { name: 'Pedro', audienceName: 'Boletín clientes', outcome: 'skipped', reason: 'Sin correo electrónico: Mailchimp identifica a cada contacto por su correo', tags: [], at: '2026-05-02T10:00:05.000Z' },
        { name: 'Rosa Quispe', email: 'rosa@gmail.com', audienceName: 'Boletín clientes', outcome: 'ok', tags: ['VIP', 'Cliente frecuente'], at: '2026-05-02T10:00:05.000Z' },
      ],
      totalDocs: 3,
      page: 1,
      limit: 50,
    };
    const { calls } = serve({
      syncs: [sync()],
      extra: (call) => (call.method === 'GET' && call.path === `/mailchimp/syncs/${sync()._id}/report` ? { status: 200, body: report } : undefined),
    });
    renderApp(<ResourceListPage config={mailchimpScreen} />, { route: '/mailchimp' });
    const card = await screen.findByTestId('mailchimp-sync');
    expect(within(card).getByText('Etiquetas «VIP» a Mailchimp · segmento Para reconectar')).toBeTruthy();
    expect(within(card).getByTestId('mailchimp-sync-status').textContent).toBe('Enviando');
    expect(within(card).getByTestId('mailchimp-sync-counts').textContent).toBe('10 de 40 contactos · 9 enviados · 1 con error (25 %)');
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');

    await emit({ type: 'mailchimp.sync', sync: sync({ status: 'done', done: 40, ok: 37, failed: 1, skipped: 2, requests: 75, finishedAt: '2026-05-02T10:00:30.000Z' }) });
    await waitFor(() => expect(within(card).getByTestId('mailchimp-sync-status').textContent).toBe('Terminada'));
    expect(within(card).getByTestId('mailchimp-sync-counts').textContent).toBe('40 de 40 contactos · 37 enviados · 1 con error · 2 omitidos');

    await user.click(within(card).getByRole('button', { name: /^Ver el informe/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Informe por contacto' });
    const table = await within(dialog).findByTestId('mailchimp-report');
    expect(within(table).getByText('Miguel Baja')).toBeTruthy();
    expect(within(table).getAllByText('Está en estado de cumplimiento en Mailchimp').length).toBeGreaterThan(0);
    expect(within(table).getAllByText(/Sin correo electrónico/).length).toBeGreaterThan(0);
    await user.click(within(dialog).getByRole('button', { name: /^Con error/ }));
    await waitFor(() => expect(calls.some((c) => c.path === `/mailchimp/syncs/${sync()._id}/report` && c.query.get('outcome') === 'error')).toBe(true));
  });
});
