import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { type FakeCall, fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { SegmentPreview } from './segment-preview';

vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

const lead = (n: number) => ({ _id: `lead-${n}`, name: `Cliente ${n}`, telefono: `5198700000${n}`, status: 'compra-realizada', updatedAt: '2026-11-25T12:00:00Z' });

describe('a segment’s live count', () => {
  it('counts the filters as they are, shows who is in it, and says why when the filters are refused', async () => {
    const { calls } = fakeApi((call: FakeCall) => {
      if (call.method !== 'POST' || call.path !== '/marketing-segments/preview') return undefined;
      const filters = (call.body as { filters: Record<string, unknown> }).filters;
      if (filters.createdFrom === '2026-11-20') return { status: 400, body: { errors: { code: 'VALIDATION', msg: 'La fecha «desde» va antes de «hasta»' } } };
      return { status: 200, body: { count: 1234, sample: [lead(1), lead(2)] } };
    });
    const { rerender } = renderApp(<SegmentPreview filters={{ statuses: ['compra-realizada'] }} />);
    expect((await screen.findByRole('status', undefined, { timeout: 5000 })).textContent).toBe('1234 leads en este segmento'.replace('1234', new Intl.NumberFormat('es-PE').format(1234)));
    expect(screen.getByText('Cliente 1')).toBeTruthy();
    expect(screen.getByText('+51987000001 · Compra realizada')).toBeTruthy();
    expect(screen.getByText(`y ${new Intl.NumberFormat('es-PE').format(1232)} más`)).toBeTruthy();
    expect(calls.filter((c) => c.path === '/marketing-segments/preview')[0].body).toEqual({ filters: { statuses: ['compra-realizada'] } });

    rerender(<SegmentPreview filters={{ createdFrom: '2026-11-20', createdTo: '2026-11-01' }} />);
    await waitFor(() => expect(screen.getByText('La fecha «desde» va antes de «hasta»')).toBeTruthy(), { timeout: 5000 });
  });
});
