import type { ChunkDetail, ProgrammedChunks, RecipientOut, SendOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeMessage } from '../../lib/realtime';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';
import { CampaignPage } from './campaign-page';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));
vi.setConfig({ testTimeout: 20_000 });

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const CAMPAIGN = id(1);
const SEGMENT = id(2);
const campaign = {
  _id: CAMPAIGN,
  name: 'Gaseosas 2x1',
  segmentId: SEGMENT,
  channel: 'whatsapp',
  templateName: 'promo_campana',
  chunkSize: 100,
  status: 'processing',
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
};
const counts = (over: Partial<SendOut['counts']> = {}): SendOut['counts'] => ({ total: 0, queued: 0, sending: 0, skipped: 0, sent: 0, delivered: 0, read: 0, failed: 0, ...over });
const chunk = (page: number, over: Partial<SendOut>): SendOut => ({
  _id: id(100 + page),
  kind: 'campaign',
  campaignId: CAMPAIGN,
  chunkPage: page,
  chunkSize: 100,
  name: `Gaseosas 2x1 · bloque ${page + 1}`,
  status: 'pending',
  counts: counts(),
  stopRequested: false,
  createdAt: '2026-11-25T10:00:00Z',
  ...over,
});
const person = (n: number, over: Partial<RecipientOut> = {}): RecipientOut => ({
  _id: id(500 + n),
  cleanLeadId: id(600 + n),
  name: `Persona ${n}`,
  telefono: `5197741000${n}`,
  chatId: id(700 + n),
  status: 'queued',
  attempts: 0,
  updatedAt: '2026-11-25T10:00:00Z',
  ...over,
});

/** A campaign of 250 people in chunks of 100: the first sent, the second programmed, the third not yet. */
function serve(options: { campaign?: Record<string, unknown>; permissions?: object } = {}) {
  const plan: ProgrammedChunks = {
    campaignId: CAMPAIGN,
    status: 'sent_with_some_errors',
    audience: 250,
    chunkSize: 100,
    chunks: 3,
    payload: [
      chunk(1, { status: 'scheduled', scheduledAt: '2026-12-01T15:00:00Z' }),
      chunk(0, { status: 'sent_with_some_errors', counts: counts({ total: 100, sent: 10, delivered: 60, read: 20, failed: 4, skipped: 6 }) }),
    ],
  };
  const api = fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: options.permissions ?? { marketing: ['list', 'read', 'create', 'update', 'delete'] } } };
    if (call.method === 'GET' && call.path === `/marketing-campaigns/${CAMPAIGN}`) return { status: 200, body: options.campaign ?? campaign };
    if (call.method === 'GET' && call.path === '/marketing-segments') return { status: 200, body: pageOf([{ _id: SEGMENT, name: 'Clientes de Lima', filters: {} }]) };
    if (call.method === 'GET' && call.path === `/marketing-campaigns/${CAMPAIGN}/programmed-chunks`) return { status: 200, body: plan };
    if (call.method === 'POST' && call.path === '/marketing-campaigns/send_chunk') {
      const body = call.body as { chunkPage: number; scheduledAt?: string };
      if (body.scheduledAt) {
        const programmed = chunk(body.chunkPage, { status: 'scheduled', scheduledAt: body.scheduledAt });
        plan.payload.push(programmed);
        return { status: 202, body: { msg: 'Bloque programado para 1/12/26, 10:00', chunk: programmed } };
      }
      const sent = chunk(body.chunkPage, { status: 'pending', counts: counts({ total: 50, queued: 50 }) });
      plan.payload.push(sent);
      return { status: 202, body: { msg: 'Bloque en cola de envío', chunk: sent } };
    }
    if (call.method === 'POST' && call.path === '/marketing-campaigns/stop_scheduled_chunk') {
      const stopped = chunk(1, { status: 'stopped' });
      plan.payload = plan.payload.map((c) => (c.chunkPage === 1 ? stopped : c));
      return { status: 200, body: { msg: 'Bloque detenido', chunk: stopped } };
    }
    if (call.method === 'POST' && call.path === '/marketing-campaigns/stop_all_scheduled_chunks_for_campaign') {
      plan.payload = plan.payload.map((c) => (c.status === 'scheduled' ? { ...c, status: 'stopped' } : c));
      return { status: 200, body: { msg: 'Se detuvo 1 bloque programado', stopped: 1 } };
    }
    if (call.method === 'POST' && call.path === '/marketing-campaigns/chunk_detail') {
      const detail: ChunkDetail = {
        chunkPage: 2,
        chunkSize: 100,
        total: 2,
        payload: [person(1), person(2, { status: 'skipped', reason: 'La persona pidió no recibir mensajes (/dias-frecuencia)', chatId: undefined })],
      };
      return { status: 200, body: detail };
    }
    if (call.method === 'GET' && call.path === `/sends/${id(100)}/recipients`) {
      const all = [person(1, { status: 'read' }), person(2, { status: 'failed', reason: 'El número no tiene WhatsApp' })];
      const status = call.query.get('status');
      const payload = status ? all.filter((r) => r.status === status) : all;
      return { status: 200, body: { payload, total: payload.length, page: 1, limit: 50 } };
    }
    return undefined;
  });
  return { ...api, plan };
}

const render = () =>
  renderApp(
    <Routes>
      <Route path="/marketing/campaigns/:id" element={<CampaignPage />} />
    </Routes>,
    { route: `/marketing/campaigns/${CAMPAIGN}` },
  );
const block = async (n: number) => screen.findByRole('listitem', { name: `Bloque ${n}` });
const count = (row: HTMLElement, key: string) => within(row).getByTestId(`count-${key}`).textContent;

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/marketing/campaigns/{id}', () => {
  it('shows the campaign and its plan: one row per chunk with its state and counts', async () => {
    serve();
    render();
    expect(await screen.findByRole('heading', { name: 'Gaseosas 2x1', level: 1 })).toBeTruthy();
    // the campaign's status is the plan's (computed from its chunks), not the record's
    await waitFor(() => expect(screen.getByTestId('campaign-status').textContent).toBe('Enviado con errores'));
    expect(await screen.findByText('Clientes de Lima')).toBeTruthy();
    expect(screen.getByText('promo_campana')).toBeTruthy();
    expect(screen.getByText('250 personas')).toBeTruthy();

    const first = await block(1);
    expect(within(first).getByTestId('chunk-status').textContent).toBe('Enviado con errores');
    expect(within(first).getByText('personas 1–100')).toBeTruthy();
    // a funnel: read messages were also delivered and sent
    expect(count(first, 'sent')).toBe('90');
    expect(count(first, 'delivered')).toBe('80');
    expect(count(first, 'read')).toBe('20');
    expect(count(first, 'failed')).toBe('4');
    expect(count(first, 'skipped')).toBe('6');
    expect(within(first).getByRole('button', { name: 'Reintentar fallidos' })).toBeTruthy();
    expect(within(first).queryByRole('button', { name: 'Enviar ahora' })).toBeNull();

    const second = await block(2);
    expect(within(second).getByTestId('chunk-status').textContent).toMatch(/^Programado para /);
    expect(within(second).getByRole('button', { name: 'Detener' })).toBeTruthy();

    const third = await block(3);
    expect(within(third).getByTestId('chunk-status').textContent).toBe('Sin enviar');
    expect(within(third).getByText('personas 201–250')).toBeTruthy();
    expect(within(third).getByRole('button', { name: 'Enviar ahora' })).toBeTruthy();
    expect(within(third).getByRole('button', { name: 'Programar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Detener todos los programados' })).toBeTruthy();
  });

  it('«Enviar ahora» asks, posts the chunk payload, says the server’s message, and progress events move the row', async () => {
    const { calls, plan } = serve();
    // the server publishes the chunk as it is now (and answers the plan with it from then on)
    const progress = (send: SendOut) => {
      plan.payload = [...plan.payload.filter((c) => c._id !== send._id), send];
      return emit({ type: 'send.progress', send });
    };
    render();
    const third = await block(3);
    await userEvent.click(within(third).getByRole('button', { name: 'Enviar ahora' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar ahora' }));

    await waitFor(() => expect(calls.filter((c) => c.path === '/marketing-campaigns/send_chunk')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/marketing-campaigns/send_chunk')?.body).toEqual({ chunkPage: 2, chunkSize: 100, segment: SEGMENT, campaign: CAMPAIGN });
    expect(await screen.findByText('Bloque en cola de envío')).toBeTruthy();
    await waitFor(() => expect(within(third).getByTestId('chunk-status').textContent).toBe('Pendiente'));
    expect(within(third).queryByRole('button', { name: 'Enviar ahora' })).toBeNull();

    await progress(chunk(2, { status: 'processing', counts: counts({ total: 50, queued: 30, sending: 5, sent: 15 }) }));
    expect(within(third).getByTestId('chunk-status').textContent).toBe('Enviando');
    expect(count(third, 'sent')).toBe('15');
    expect(count(third, 'queued')).toBe('35');
    expect(within(third).getByText('15 de 50')).toBeTruthy();
    expect(within(third).getByRole('progressbar', { name: 'Progreso del bloque 3' }).getAttribute('aria-valuenow')).toBe('30');
    expect(within(third).getByRole('button', { name: 'Detener' })).toBeTruthy();

    await progress(chunk(2, { status: 'sent', counts: counts({ total: 50, sent: 48, skipped: 2 }) }));
    expect(within(third).getByTestId('chunk-status').textContent).toBe('Enviado');
    expect(count(third, 'sent')).toBe('48');
    expect(within(third).queryByRole('progressbar')).toBeNull();
  });

  it('a chunk’s messages delivered or read (chat message statuses) read the plan again, once for a burst', async () => {
    const { calls } = serve();
    render();
    await block(1);
    const reads = () => calls.filter((c) => c.path === `/marketing-campaigns/${CAMPAIGN}/programmed-chunks`).length;
    const before = reads();
    const updated = { type: 'message.updated', chatId: id(701), message: { _id: id(501), status: 'read' } } as unknown as RealtimeMessage;
    await emit(updated);
    await emit(updated);
    await waitFor(() => expect(reads()).toBe(before + 1), { timeout: 5000 });
  });

  it('«Programar» asks for a future date and time and posts it with the chunk; «Detener todos los programados» stops them', async () => {
    const { calls } = serve();
    render();
    const third = await block(3);
    await userEvent.click(within(third).getByRole('button', { name: 'Programar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Programar el bloque 3' });
    const input = within(dialog).getByLabelText('Fecha y hora');
    await userEvent.type(input, '2020-01-01T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    expect(within(dialog).getByText('Elige una fecha y hora futura')).toBeTruthy();
    expect(calls.some((c) => c.path === '/marketing-campaigns/send_chunk')).toBe(false);

    await userEvent.clear(input);
    await userEvent.type(input, '2099-12-01T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Programar' }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/marketing-campaigns/send_chunk')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/marketing-campaigns/send_chunk')?.body).toEqual({
      chunkPage: 2,
      chunkSize: 100,
      segment: SEGMENT,
      campaign: CAMPAIGN,
      scheduledAt: new Date('2099-12-01T10:00').toISOString(),
    });
    expect(await screen.findByText('Bloque programado para 1/12/26, 10:00')).toBeTruthy();
    await waitFor(() => expect(within(third).getByTestId('chunk-status').textContent).toMatch(/^Programado para /));

    await userEvent.click(screen.getByRole('button', { name: 'Detener todos los programados' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/marketing-campaigns/stop_all_scheduled_chunks_for_campaign')?.body).toEqual({ campaignId: CAMPAIGN }));
    expect(await screen.findByText('Se detuvo 1 bloque programado')).toBeTruthy();
    await waitFor(() => expect(within(third).getByTestId('chunk-status').textContent).toBe('Detenido'));
    expect(within(await block(2)).getByTestId('chunk-status').textContent).toBe('Detenido');
    expect(screen.queryByRole('button', { name: 'Detener todos los programados' })).toBeNull();
  });

  it('«Detener» calls off a programmed chunk', async () => {
    const { calls } = serve();
    render();
    const second = await block(2);
    await userEvent.click(within(second).getByRole('button', { name: 'Detener' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/marketing-campaigns/stop_scheduled_chunk')?.body).toEqual({ campaignId: CAMPAIGN, chunkPage: 1 }));
    expect(await screen.findByText('Bloque detenido')).toBeTruthy();
    await waitFor(() => expect(within(second).getByTestId('chunk-status').textContent).toBe('Detenido'));
    expect(within(second).getByRole('button', { name: 'Reanudar' })).toBeTruthy();
  });

  it('«Ver destinatarios» shows who would receive a chunk not sent yet and who is left out, and each recipient of a sent one by status', async () => {
    const { calls } = serve();
    render();
    await userEvent.click(within(await block(3)).getByRole('button', { name: 'Ver destinatarios' }));
    let dialog = await screen.findByRole('dialog', { name: 'Destinatarios del bloque 3' });
    expect(await within(dialog).findByText(/1 recibirían el mensaje y 1 quedan fuera/)).toBeTruthy();
    expect(within(dialog).getByText('La persona pidió no recibir mensajes (/dias-frecuencia)')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Abrir chat de Persona 1' }).getAttribute('href')).toBe(`/chat?chatId=${id(701)}`);
    expect(calls.find((c) => c.path === '/marketing-campaigns/chunk_detail')?.body).toEqual({ campaignId: CAMPAIGN, chunkPage: 2 });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' }));

    await userEvent.click(within(await block(1)).getByRole('button', { name: 'Ver destinatarios' }));
    dialog = await screen.findByRole('dialog', { name: 'Destinatarios del bloque 1' });
    expect(await within(dialog).findByText('Leído')).toBeTruthy();
    expect(within(dialog).getByText('El número no tiene WhatsApp')).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Estado' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Falló' }));
    await waitFor(() => expect(calls.some((c) => c.path === `/sends/${id(100)}/recipients` && c.query.get('status') === 'failed')).toBe(true));
    await waitFor(() => expect(within(dialog).queryByText('Persona 1')).toBeNull());
    expect(within(dialog).getByText('Persona 2')).toBeTruthy();
  });

  it('says what is missing: a campaign without a segment, or not on WhatsApp', async () => {
    serve({ campaign: { ...campaign, segmentId: undefined } });
    const first = render();
    expect(await screen.findByText(/Esta campaña no tiene segmento: edítala y elige uno/)).toBeTruthy();
    first.unmount();

    serve({ campaign: { ...campaign, channel: 'mailchimp' } });
    render();
    expect(await screen.findByText(/Por ahora las campañas se envían por WhatsApp/)).toBeTruthy();
    const third = await block(3);
    expect(within(third).queryByRole('button', { name: 'Enviar ahora' })).toBeNull();
    expect(within(third).getByRole('button', { name: 'Ver destinatarios' })).toBeTruthy();
  });
});
