import type { ChatCsat, CsatReport } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AnalysisSection } from '../chat/components/analysis-section';
import { CsatSection } from './csat-section';

vi.setConfig({ testTimeout: 20_000 });

const company = { _id: 'company-1', name: 'Demo Perú', country: 'PE' as const, timezone: 'America/Lima' };
const report: CsatReport = {
  from: '2026-03-01',
  to: '2026-03-31',
  timezone: 'America/Lima',
  agents: [
    { agentId: 'a1', agentName: 'Lucía Ramos', sent: 10, answered: 8, responseRate: 0.8, average: 4.25, satisfiedShare: 0.75, notSent: 1 },
    { agentId: null, agentName: 'Sin agente', sent: 2, answered: 0, responseRate: 0, average: null, satisfiedShare: null, notSent: 0 },
  ],
  total: { sent: 12, answered: 8, responseRate: 8 / 12, average: 4.25, satisfiedShare: 0.75, notSent: 1 },
};
const query = { from: '2026-03-01', to: '2026-03-31' };

beforeEach(() =>
  sessionStore.set((s) => ({
    ...s,
    token: 'token',
    companyId: 'company-1',
    user: { _id: 'u1', first_name: 'Ana', last_name: 'Díaz', corporation: { companies: [{ company, default: true, role: 'admin' as const }] } } as never,
  })),
);
afterEach(() => vi.restoreAllMocks());

describe('CSAT per agent (the metrics’ section)', () => {
  it('asks for the window and shows the company’s figures and each agent’s', async () => {
    const { calls } = fakeApi((call) => (call.path === '/metrics/csat' ? { status: 200, body: report } : undefined));
    renderApp(<CsatSection query={query} />);
    expect((await screen.findByTestId('csat-sent-value')).textContent).toBe('12');
    expect(screen.getByTestId('csat-rate-value').textContent).toBe('66.7%');
    expect(screen.getByTestId('csat-average-value').textContent).toBe('4.3');
    expect(screen.getByTestId('csat-satisfied-value').textContent).toBe('75%');
    const rows = screen.getAllByTestId('csat-agent');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('Lucía Ramos')).toBeTruthy();
    expect(rows[0].textContent).toContain('80%');
    expect(within(rows[1]).getByText('Sin agente')).toBeTruthy();
    expect(rows[1].textContent).toContain('—');
    const asked = calls.find((c) => c.path === '/metrics/csat');
    expect([asked?.query.get('from'), asked?.query.get('to')]).toEqual(['2026-03-01', '2026-03-31']);
  });

  it('says where to turn it on when the window has no surveys', async () => {
    fakeApi((call) =>
      call.path === '/metrics/csat' ? { status: 200, body: { ...report, agents: [], total: { sent: 0, answered: 0, responseRate: null, average: null, satisfiedShare: null, notSent: 0 } } } : undefined,
    );
    renderApp(<CsatSection query={query} />);
    expect((await screen.findByTestId('csat-empty')).textContent).toContain('Actívalas en Configuración');
  });

  it('says the load failed, with «Reintentar»', async () => {
    fakeApi((call) => (call.path === '/metrics/csat' ? { status: 500, body: { errors: { code: 'INTERNAL', msg: 'x' } } } : undefined));
    renderApp(<CsatSection query={query} />);
    expect(await screen.findByTestId('metric-error')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });
});

describe('the customer’s score beside the analysis’ quality', () => {
  const answered: ChatCsat = { status: 'answered', statusLabel: 'Encuesta respondida', style: 'buttons', score: 5, scoreLabel: '😀 Bien', answeredAt: '2026-03-02T10:00:00.000Z', sentAt: '2026-03-02T09:00:00.000Z', resolvedAt: '2026-03-02T09:00:00.000Z', agentName: 'Lucía Ramos' };
  it('shows «Cliente: 😀 Bien» in green, and a survey not sent with its state', () => {
    const { rerender } = renderApp(<AnalysisSection analysis={undefined} csat={answered} />);
    const chip = screen.getByTestId('analysis-csat');
    expect(chip.textContent).toBe('Cliente: 😀 Bien');
    expect(chip.className).toContain('colorSuccess');
    rerender(<AnalysisSection analysis={undefined} csat={{ status: 'not_sent', statusLabel: 'Encuesta no enviada', style: 'buttons', reason: 'Pasaron más de 24 horas', resolvedAt: '2026-03-02T09:00:00.000Z' }} />);
    expect(screen.getByTestId('analysis-csat').textContent).toBe('Encuesta no enviada');
  });
});
