import type { SendCheckOut } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { emit } from '../../test/fake-realtime';
import { renderApp } from '../../test/render';
import { CampaignCheckCard } from './campaign-check-card';

vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'));
vi.setConfig({ testTimeout: 20_000 });

const CAMPAIGN = '00000000-0000-4000-8000-000000000001';
const check = (queued: number): SendCheckOut => ({
  audience: 40,
  queued,
  skipped: [{ reason: 'Ya recibió esta campaña', count: 40 - queued }],
  skippedSample: [],
  insideWindow: 0,
  outsideWindow: queued,
  dailyLimit: { tier: 'TIER_250', limit: 250, known: true, used: 10, over: 0 },
  cost: { currency: 'PEN', total: queued * 0.26, lines: [{ category: 'MARKETING', market: 'PE', count: queued, rate: 0.26, amount: queued * 0.26 }], free: 0, ratesAsOf: '2025-07-01', usdRate: 3.75 },
});

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('a campaign’s «Revisión previa»', () => {
  it('shows the campaign’s check with the composer’s panel and reads it again when a chunk finishes', async () => {
    let queued = 30;
    const { calls } = fakeApi((call: FakeCall) => (call.method === 'GET' && call.path === `/marketing-campaigns/${CAMPAIGN}/check` ? { status: 200, body: check(queued) } : undefined));
    renderApp(<CampaignCheckCard campaignId={CAMPAIGN} />);
    const panel = await screen.findByRole('region', { name: 'Revisión previa' });
    await waitFor(() => expect(within(panel).getByTestId('check-queued').textContent).toBe('30'));
    expect(within(panel).getByText(/Ya recibió esta campaña/)).toBeTruthy();
    expect(within(panel).getByTestId('check-daily-limit').textContent).toBe('Límite diario de la línea: 250 personas fuera de la ventana de 24 h · usadas hoy: 10');

    queued = 10;
    await emit({
      type: 'send.progress',
      send: { _id: 'x', kind: 'campaign', name: 'Bloque 1', campaignId: CAMPAIGN, chunkPage: 0, status: 'sent', counts: { total: 20, queued: 0, sending: 0, skipped: 0, sent: 20, delivered: 0, read: 0, failed: 0 }, stopRequested: false, createdAt: '2026-11-26T08:00:00Z' },
    });
    await waitFor(() => expect(within(panel).getByTestId('check-queued').textContent).toBe('10'));
    expect(calls.filter((c) => c.path.endsWith('/check'))).toHaveLength(2);
  });

  it('says why when the check fails', async () => {
    fakeApi(() => ({ status: 409, body: { errors: { code: 'CONFLICT', msg: 'La campaña no tiene segmento' } } }));
    renderApp(<CampaignCheckCard campaignId={CAMPAIGN} />);
    expect(await screen.findByText('La campaña no tiene segmento')).toBeTruthy();
  });
});
