import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { renderApp } from '../../test/render';
import { leadBuckets } from './buckets';
import { bucketScreen } from './lead-screens';
import { agents, lead, serveLeads } from './test-server';

const csvProps = vi.hoisted(() => [] as unknown[]);
vi.mock('./lead-csv-actions', () => ({
  LeadCsvActions: (props: unknown) => {
    csvProps.push(props);
    return null;
  },
}));

beforeEach(() => {
  csvProps.length = 0;
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('lead buckets', { timeout: 15_000 }, () => {
  it('are declared in SPEC §2 order at /lead/…', () => {
    expect(leadBuckets.map((b) => b.path)).toEqual([
      '/lead/sin-asignar',
      '/lead/re-conectar',
      '/lead/informado-al-agente',
      '/lead/compra-realizada',
      '/lead/compra-fallida',
      '/lead/whatsapp',
      '/lead/todos',
    ]);
  });

  it('a status bucket asks for its status, newest first, 30 per page, and exports with that filter', async () => {
    const { calls } = serveLeads([lead(1), lead(2, { status: 'compra-realizada' })]);
    renderApp(<ResourceListPage config={bucketScreen('sin-asignar')} />, { route: '/lead/sin-asignar' });
    expect(await screen.findByText('Lead 1')).toBeTruthy();
    expect(screen.queryByText('Lead 2')).toBeNull();
    const list = calls.find((c) => c.path === '/leads');
    expect(Object.fromEntries(list?.query ?? [])).toEqual({ status: 'sin-asignar', sort: 'createdAt', order: 'desc', page: '1', limit: '30' });
    expect(csvProps.at(-1)).toEqual({ resource: 'leads', filters: { status: 'sin-asignar' }, canImport: false });
    expect(screen.getByRole('heading', { name: 'Leads sin asignar', level: 1 })).toBeTruthy();
    for (const name of ['Nombre', 'Teléfono', 'Canal', 'Estado', 'Agente', 'Etiquetas', 'Creado']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(name) })).toBeTruthy();
    }
  });

  it('the WhatsApp bucket asks for the platform', async () => {
    const { calls } = serveLeads([lead(1)]);
    renderApp(<ResourceListPage config={bucketScreen('whatsapp')} />, { route: '/lead/whatsapp' });
    expect(await screen.findByText('Lead 1')).toBeTruthy();
    expect(calls.find((c) => c.path === '/leads')?.query.get('platform')).toBe('whatsapp');
    expect(calls.find((c) => c.path === '/leads')?.query.has('status')).toBe(false);
  });

  it('shows the stage empty state', async () => {
    serveLeads([]);
    renderApp(<ResourceListPage config={bucketScreen('compra-fallida')} />, { route: '/lead/compra-fallida' });
    expect(await screen.findByTestId('empty-state')).toHaveProperty('textContent', 'No hay leads en esta etapa');
  });

  it('moving a lead with the status select PUTs {status}, says so, and the row leaves the bucket', async () => {
    const user = userEvent.setup();
    const { calls } = serveLeads([lead(1), lead(2)]);
    renderApp(<ResourceListPage config={bucketScreen('sin-asignar')} />, { route: '/lead/sin-asignar' });
    await user.click(await screen.findByRole('combobox', { name: 'Estado: Lead 1' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Compra realizada' }));
    expect(await screen.findByText('Registro actualizado con éxito')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([[`/leads/${lead(1)._id}`, { status: 'compra-realizada' }]]);
    await waitFor(() => expect(screen.queryByText('Lead 1')).toBeNull());
    expect(screen.getByText('Lead 2')).toBeTruthy();
  });

  it('assigning an agent PUTs {agenteId} and the lead stays', async () => {
    const user = userEvent.setup();
    const { calls } = serveLeads([lead(1)]);
    renderApp(<ResourceListPage config={bucketScreen('sin-asignar')} />, { route: '/lead/sin-asignar' });
    await user.click(await screen.findByRole('combobox', { name: 'Agente: Lead 1' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Bruno Díaz' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ agenteId: agents[1]?._id }));
    expect(await screen.findByRole('combobox', { name: 'Agente: Lead 1' })).toHaveProperty('textContent', 'Bruno Díaz');
    expect(screen.getByText('Lead 1')).toBeTruthy();
  });

  it('"Abrir chat" goes to the lead\'s chat; a web lead has none', async () => {
    serveLeads([lead(1, { platform: 'instagram' }), lead(2, { platform: 'web' })]);
    renderApp(<ResourceListPage config={bucketScreen('sin-asignar')} />, { route: '/lead/sin-asignar' });
    const link = await screen.findByRole('link', { name: 'Abrir chat: Lead 1' });
    expect(link.getAttribute('href')).toBe(`/chat?leadId=${lead(1)._id}&platform=instagram`);
    expect(screen.queryByRole('link', { name: 'Abrir chat: Lead 2' })).toBeNull();
  });
});
