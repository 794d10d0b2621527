import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { renderApp } from '../../test/render';
import { AllLeadsPage } from './all-leads-page';
import { audiences, labels, lead, segments, serveLeads, uid } from './test-server';

const csvProps = vi.hoisted(() => [] as Array<{ resource: string; filters: Record<string, unknown>; canImport?: boolean }>);
vi.mock('./lead-csv-actions', () => ({
  LeadCsvActions: (props: (typeof csvProps)[number]) => {
    csvProps.push(props);
    return null;
  },
}));

/** The address as the page left it, and the browser's back button. */
function Probe() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="search">{location.search}</output>
      <button type="button" onClick={() => navigate(-1)}>
        Atrás
      </button>
    </>
  );
}

const page = (route: string) =>
  renderApp(
    <>
      <AllLeadsPage />
      <Probe />
    </>,
    { route },
  );

const searchOf = () => new URLSearchParams(screen.getByTestId('search').textContent ?? '');

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
}

const person = {
  _id: uid(501),
  name: 'María Fernández',
  telefono: '51987001122',
  email: 'maria@gmail.com',
  status: 'compra-realizada',
  agenteId: uid(901),
  mostradorLabels: [uid(801)],
  details: [
    { message: 'Primer mensaje', source: 'whatsapp', updatedAt: '2025-03-10T10:00:00Z' },
    { message: 'Último mensaje', source: 'woocommerce', updatedAt: '2025-03-20T10:00:00Z' },
  ],
  createdAt: '2025-03-01T00:00:00Z',
  updatedAt: '2025-03-20T10:00:00Z',
};

beforeEach(() => {
  csvProps.length = 0;
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

// Many clicks through MUI selects per test: slower than the default 5 s on two shared cores.
describe('/lead/todos', { timeout: 20_000 }, () => {
  it('the filter bar writes the address and sends the filters; back undoes a change', async () => {
    const user = userEvent.setup();
    const { calls } = serveLeads([lead(1), lead(2, { status: 're-conectar', platform: 'instagram' })]);
    page('/lead/todos');
    expect(await screen.findByText('Lead 1')).toBeTruthy();

    await choose(user, 'Estado', 'Re-conectar');
    await waitFor(() => expect(searchOf().get('estado')).toBe('re-conectar'));
    await waitFor(() => expect(screen.queryByText('Lead 1')).toBeNull());
    expect(calls.at(-1)?.query.get('status')).toBe('re-conectar');

    await choose(user, 'Canal', 'Instagram');
    await choose(user, 'Agente', 'Ana Torres');
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2025-03-01' } });
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2025-03-31' } });
    await user.click(screen.getByRole('combobox', { name: 'Etiquetas' }));
    await user.click(await screen.findByRole('option', { name: 'Mayorista' }));

    await waitFor(() =>
      expect(Object.fromEntries(searchOf())).toEqual({
        estado: 're-conectar',
        canal: 'instagram',
        agente: uid(901),
        desde: '2025-03-01',
        hasta: '2025-03-31',
        etiquetas: labels[0]?._id,
      }),
    );
    await waitFor(() => expect(calls.at(-1)?.query.get('mostradorLabels')).toBe(labels[0]?._id));
    const query = Object.fromEntries(calls.filter((c) => c.path === '/leads').at(-1)?.query ?? []);
    expect(query).toMatchObject({
      status: 're-conectar',
      platform: 'instagram',
      agenteId: uid(901),
      from: new Date(2025, 2, 1).toISOString(),
      to: new Date(2025, 3, 1).toISOString(),
    });
    expect(csvProps.at(-1)).toMatchObject({ resource: 'leads', canImport: true, filters: { status: 're-conectar', platform: 'instagram' } });

    await user.click(screen.getByRole('button', { name: 'Atrás' }));
    await waitFor(() => expect(searchOf().has('etiquetas')).toBe(false));
    expect(searchOf().get('hasta')).toBe('2025-03-31');
  });

  it('a shared address brings its filters and search', async () => {
    const { calls } = serveLeads([lead(2, { status: 're-conectar' })]);
    page(`/lead/todos?estado=re-conectar&etiquetas=${uid(801)},${uid(802)}&q=mar&canal=nada`);
    expect(await screen.findByText('Lead 2')).toBeTruthy();
    const query = calls.find((c) => c.path === '/leads')?.query;
    expect(query?.get('status')).toBe('re-conectar');
    expect(query?.get('mostradorLabels')).toBe(`${uid(801)},${uid(802)}`);
    expect(query?.get('filter')).toBe('mar');
    expect(query?.has('platform')).toBe(false);
    expect(screen.getByRole('searchbox', { name: 'Buscar' })).toHaveProperty('value', 'mar');
  });

  it('"Personas (leads limpios)" lists clean leads with the same filters, and a row opens its detail', async () => {
    const user = userEvent.setup();
    const { calls } = serveLeads([lead(1, { status: 'compra-realizada' })], (call) => {
      if (call.path === '/clean-leads/list_with_advance_filter') return { status: 200, body: { payload: [person], totalDocs: 1, totalPages: 1, page: 1, limit: 30 } };
      if (call.path === `/clean-leads/${person._id}`) return { status: 200, body: person };
      if (call.path === '/chats/get_all_by_cleanlead_id') {
        return {
          status: 200,
          body: {
            payload: [
              { _id: uid(401), contactName: 'María', platform: 'whatsapp', status: 'open', unreadCount: 0, lastMessagePreview: 'Hola', createdAt: '', updatedAt: '' },
            ],
          },
        };
      }
      return undefined;
    });
    page('/lead/todos?estado=compra-realizada');
    await screen.findByText('Lead 1');
    await user.click(screen.getByRole('switch', { name: 'Personas (leads limpios)' }));
    expect(await screen.findByText('María Fernández')).toBeTruthy();
    expect(searchOf().get('vista')).toBe('personas');
    const list = calls.find((c) => c.path === '/clean-leads/list_with_advance_filter');
    expect(list?.query.get('status')).toBe('compra-realizada');
    expect(list?.query.get('sort')).toBe('updatedAt');
    expect(csvProps.at(-1)).toMatchObject({ resource: 'clean-leads', filters: { status: 'compra-realizada' } });

    await user.click(screen.getByText('María Fernández'));
    const drawer = await screen.findByRole('dialog', { name: 'María Fernández' });
    const details = await within(drawer).findByTestId('clean-lead-details');
    expect(within(details).getAllByRole('listitem').map((li) => li.textContent?.slice(0, 14))).toEqual(['Último mensaje', 'Primer mensaje']);
    const chat = await within(drawer).findByRole('link', { name: /María/ });
    expect(chat.getAttribute('href')).toBe(`/chat?chatId=${uid(401)}`);
    expect(calls.find((c) => c.path === '/chats/get_all_by_cleanlead_id')?.query.get('cleanLeadId')).toBe(person._id);
    expect(await within(drawer).findByText('Mayorista')).toBeTruthy();
  });

  it('"Etiquetar segmento" checks its fields in Spanish, then posts the segment, labels and Mailchimp choice', async () => {
    const user = userEvent.setup();
    const { calls } = serveLeads([], (call) => {
      if (call.path === '/clean-leads/list_with_advance_filter') return { status: 200, body: { payload: [], totalDocs: 0, totalPages: 1, page: 1, limit: 30 } };
      if (call.path === '/clean-leads/set_mostrador_labels_massive') return { status: 200, body: { msg: 'Etiquetas asignadas', updated: 12, mailchimpSyncId: uid(5) } };
      return undefined;
    });
    page('/lead/todos?vista=personas');
    await user.click(await screen.findByRole('button', { name: 'Etiquetar segmento' }));
    const dialog = await screen.findByRole('dialog', { name: 'Etiquetar segmento' });
    await user.click(within(dialog).getByRole('button', { name: 'Etiquetar' }));
    expect(await within(dialog).findByText('Este campo es requerido')).toBeTruthy();
    expect(within(dialog).getByText('Elige al menos una etiqueta')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('combobox', { name: /Segmento/ }));
    await user.click(await screen.findByRole('option', { name: segments[0]?.name }));
    await user.click(within(dialog).getByRole('combobox', { name: /Etiquetas/ }));
    await user.click(await screen.findByRole('option', { name: 'Cliente frecuente' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Enviar también a Mailchimp' }));
    await user.click(within(dialog).getByRole('button', { name: 'Etiquetar' }));
    expect(await within(dialog).findByTestId('bulk-result')).toHaveProperty('textContent', expect.stringContaining('Se actualizaron 12 personas del segmento.'));
    // the Mailchimp sync goes on as a job: where to follow it
    expect(within(dialog).getByRole('link', { name: 'sigue el envío y su informe' }).getAttribute('href')).toBe('/mailchimp');
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/clean-leads/set_mostrador_labels_massive', { segmentId: segments[0]?._id, mostradorLabelIds: [uid(802)], hasToSendToMailchimp: true }],
    ]);
  });

  it('"Enviar a audiencia" checks its fields in Spanish, then posts the audience, labels and "Solo los que faltan"', async () => {
    const user = userEvent.setup();
    const { calls } = serveLeads([], (call) => {
      if (call.path === '/clean-leads/list_with_advance_filter') return { status: 200, body: { payload: [], totalDocs: 0, totalPages: 1, page: 1, limit: 30 } };
      if (call.path === '/clean-leads/send-to-audience') return { status: 202, body: { msg: 'Envío en cola', sendId: uid(1), count: 37 } };
      return undefined;
    });
    page('/lead/todos?vista=personas');
    await user.click(await screen.findByRole('button', { name: 'Enviar a audiencia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar a audiencia' });
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Este campo es requerido')).toBeTruthy();
    expect(within(dialog).getByText('Elige al menos una etiqueta')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('combobox', { name: /Audiencia de Facebook/ }));
    await user.click(await screen.findByRole('option', { name: audiences[0]?.name }));
    // Errors follow the changes after the first try.
    await waitFor(() => expect(within(dialog).queryByText('Este campo es requerido')).toBeNull());
    await user.click(within(dialog).getByRole('combobox', { name: /Etiquetas/ }));
    await user.click(await screen.findByRole('option', { name: 'Mayorista' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Solo los que faltan' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    const result = await within(dialog).findByTestId('bulk-result');
    expect(result.textContent).toContain('37 personas');
    expect(result.textContent).toContain('en cola');
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      [
        '/clean-leads/send-to-audience',
        { audienceId: audiences[0]?._id, facebookAudienceId: audiences[0]?.facebookAudienceId, mostradorLabels: [uid(801)], showMissingLeads: true },
      ],
    ]);
  });

  it('"Enviar a audiencia" shows the server\'s field message when nobody is left to send', async () => {
    const user = userEvent.setup();
    serveLeads([], (call) => {
      if (call.path === '/clean-leads/list_with_advance_filter') return { status: 200, body: { payload: [], totalDocs: 0, totalPages: 1, page: 1, limit: 30 } };
      if (call.path === '/clean-leads/send-to-audience') {
        const errors = { code: 'VALIDATION', msg: 'No hay registros pendientes', details: [{ path: 'mostradorLabels', msg: 'Sin registros que enviar' }] };
        return { status: 400, body: { errors } };
      }
      return undefined;
    });
    page('/lead/todos?vista=personas');
    await user.click(await screen.findByRole('button', { name: 'Enviar a audiencia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar a audiencia' });
    await user.click(within(dialog).getByRole('combobox', { name: /Audiencia de Facebook/ }));
    await user.click(await screen.findByRole('option', { name: audiences[1]?.name }));
    await user.click(within(dialog).getByRole('combobox', { name: /Etiquetas/ }));
    await user.click(await screen.findByRole('option', { name: 'Mayorista' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Sin registros que enviar')).toBeTruthy();
    expect(within(dialog).queryByTestId('bulk-result')).toBeNull();
  });
});
