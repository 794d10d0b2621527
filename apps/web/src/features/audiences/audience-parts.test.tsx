import { type AudienceOverview, type AudienceSendOut, audienceMessages } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCount } from '../../i18n';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';
import { AudienceAccountPanel, AudienceFacebookCell, AudienceLastSendCell, AudienceMembersCell } from './audience-parts';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));

const admin = {
  marketing: ['list', 'read', 'create', 'update', 'delete'],
  leads: ['list', 'read', 'update'],
};
const row = { _id: 'aud-1', name: 'Clientes 2025' };

const sendOf = (over: Partial<AudienceSendOut> = {}): AudienceSendOut => ({
  _id: 'send-1',
  kind: 'clean-leads',
  audienceId: 'aud-1',
  facebookAudienceId: null,
  labels: ['label-1'],
  showMissingLeads: false,
  status: 'queued',
  count: 25_000,
  total: 0,
  sent: 0,
  received: 0,
  invalid: 0,
  skipped: 0,
  batchesDone: 0,
  batchesTotal: 0,
  reason: null,
  createdAt: '2026-11-20T15:00:00.000Z',
  finishedAt: null,
  ...over,
});

function serve(overview: AudienceOverview) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
    if (call.method === 'GET' && call.path === '/facebook-audiences/overview') return { status: 200, body: overview };
    if (call.method === 'POST' && call.path === '/audience-sends/send-1/retry')
      return {
        status: 200,
        body: {
          ...sendOf({ status: 'queued' }),
          msg: audienceMessages.retried,
        },
      };
    return undefined;
  });
}

function Row() {
  return (
    <>
      <AudienceAccountPanel />
      <AudienceFacebookCell row={row} />
      <AudienceMembersCell row={row} />
      <AudienceLastSendCell row={row} />
    </>
  );
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/facebook-audiencias: each audience’s state and its last send, live', () => {
  it('follows an upload batch by batch until it ends with its counts, and the audience shows its Facebook id', async () => {
    const overview: AudienceOverview = {
      account: {
        configured: true,
        adAccountId: 'act_4455667788',
        name: 'Bodega Lucho Ads',
        sandbox: false,
      },
      payload: [
        {
          _id: 'aud-1',
          name: 'Clientes 2025',
          facebookAudienceId: null,
          members: 0,
          lastSend: sendOf(),
        },
      ],
    };
    serve(overview);
    renderApp(<Row />);
    expect(await screen.findByText(/cuenta publicitaria «Bodega Lucho Ads» \(act_4455667788\)/)).toBeTruthy();
    expect(await screen.findByText('Sin crear en Facebook')).toBeTruthy();
    expect(screen.getByTestId('audience-send-status').textContent).toBe('En cola');

    await emit({
      type: 'audience.progress',
      send: sendOf({
        status: 'uploading',
        facebookAudienceId: '23851999999999001',
        total: 25_000,
        sent: 10_000,
        received: 10_000,
        batchesDone: 1,
        batchesTotal: 3,
      }),
    });
    expect(screen.getByTestId('audience-send-status').textContent).toBe('Subiendo');
    expect(screen.getByTestId('audience-send-done').textContent).toBe(`${formatCount(10_000)} de ${formatCount(25_000)}`);
    expect(screen.getByRole('progressbar', { name: 'Avance de la subida' }).getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('23851999999999001')).toBeTruthy();

    // what the overview answers once it ends (the screen reads it again then)
    overview.payload[0] = { ...overview.payload[0], facebookAudienceId: '23851999999999001', members: 25_000, lastSend: sendOf({ status: 'finished', facebookAudienceId: '23851999999999001', total: 25_000, sent: 25_000, received: 25_000, invalid: 12, skipped: 3, batchesDone: 3, batchesTotal: 3 }) };
    await emit({
      type: 'audience.progress',
      send: sendOf({
        status: 'finished',
        facebookAudienceId: '23851999999999001',
        total: 25_000,
        sent: 25_000,
        received: 25_000,
        invalid: 12,
        skipped: 3,
        batchesDone: 3,
        batchesTotal: 3,
      }),
    });
    expect(screen.getByTestId('audience-send-status').textContent).toBe('Terminado');
    const counts = screen.getByLabelText('Cuentas de la subida');
    expect(within(counts).getByTestId('audience-count-sent').textContent).toBe(formatCount(25_000));
    expect(within(counts).getByTestId('audience-count-invalid').textContent).toBe('12');
    expect(within(counts).getByTestId('audience-count-skipped').textContent).toBe('3');
  });

  it('says why a send failed and «Reintentar» asks for it again; without an ad account it says where to connect one', async () => {
    const { calls } = serve({
      account: { configured: false },
      payload: [
        {
          _id: 'aud-1',
          name: 'Clientes 2025',
          facebookAudienceId: null,
          members: 1_200,
          lastSend: sendOf({
            status: 'failed',
            reason: audienceMessages.tokenInvalid,
            total: 2_000,
            sent: 1_200,
          }),
        },
      ],
    });
    renderApp(<Row />);
    expect(await screen.findByText(audienceMessages.tokenInvalid)).toBeTruthy();
    expect(screen.getByText(/conecta la cuenta publicitaria de Meta en Métricas › Ventas/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir a Métricas' })).toBeTruthy();
    // no account: no «Crear en Facebook»
    expect(screen.queryByRole('button', { name: 'Crear en Facebook' })).toBeNull();
    expect(screen.getByTestId('audience-members').textContent).toBe(`${formatCount(1_200)} personas`);
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/audience-sends/send-1/retry')).toBe(true));
  });
});
