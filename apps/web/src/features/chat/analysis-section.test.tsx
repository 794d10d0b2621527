import type { ChatAnalysisView, ChatSummary, LatestAnalysis } from '@mostrador/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { pageOf } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render';
import { CleanLeadDrawer } from '../leads/clean-lead-drawer';
import { serveLeads, uid } from '../leads/test-server';
import { LeadPanel } from './components/lead-panel';
import { summary } from './test-fixtures';

vi.setConfig({ testTimeout: 20_000 });

/**
 * «Análisis» (issue 31, decision 0092): the chat's panel and a person's view show what the
 * analysis says of the conversation — sentiment, quality, motive, category, cross-selling and
 * when — and «Aún sin análisis» when it was never analysed.
 */

const twoHoursAgo = () => new Date(Date.now() - 2 * 3_600_000 - 60_000).toISOString();
const negative = (): ChatAnalysisView => ({
  sentiment: 'negative',
  sentimentLabel: 'Negativo',
  motive: 'reclamo',
  motiveLabel: 'Reclamo o devolución',
  dissatisfactionOrigin: 'demora',
  dissatisfactionOriginLabel: 'Demora en responder',
  category: 'postventa',
  categoryLabel: 'Postventa',
  quality: 2,
  crossSell: { offered: true, taken: false },
  personalisedPromotion: false,
  engine: 'embedded',
  messages: 6,
  analyzedAt: twoHoursAgo(),
});

const chat: ChatSummary = summary({ lead: undefined });

/** The panel's calls: GET /chats/:id answers `analysis` (or none); the rest empty. */
function servePanel(analysis: ChatAnalysisView | undefined) {
  const asked: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api/, '');
    asked.push(path);
    if (path === '/permissions') return jsonResponse(200, { role: 'admin', permissions: { leads: ['list', 'read', 'update'], chats: ['list', 'read'] } });
    if (path === `/chats/${chat._id}`) return jsonResponse(200, analysis ? { ...chat, analysis } : chat);
    if (path === '/agentes' || path === '/mostrador-labels') return jsonResponse(200, pageOf([]));
    return jsonResponse(404, { errors: { code: 'NOT_FOUND', msg: 'No existe' } });
  });
  return asked;
}

beforeEach(() => {
  sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' }));
});
afterEach(() => vi.restoreAllMocks());

describe('«Análisis» in the chat’s panel', () => {
  it('shows the sentiment as a chip, the quality, motive, origin, category, cross-selling and when it was analysed', async () => {
    const asked = servePanel(negative());
    renderApp(<LeadPanel chat={chat} />);
    const section = await screen.findByRole('region', { name: 'Análisis' });
    const sentiment = await within(section).findByTestId('analysis-sentiment');
    expect(sentiment.textContent).toBe('Negativo');
    expect(sentiment.className).toContain('colorError');
    expect(within(section).getByText('Calidad 2/5')).toBeTruthy();
    expect(within(section).getByText('Reclamo o devolución')).toBeTruthy();
    expect(within(section).getByText('Demora en responder')).toBeTruthy();
    expect(within(section).getByText('Postventa')).toBeTruthy();
    expect(within(section).getByText('Ofrecida, no aceptada')).toBeTruthy();
    expect(within(section).getByText('Analizado hace 2 h')).toBeTruthy();
    expect(section.textContent).toContain('motor integrado');
    expect(within(section).queryByText('Aún sin análisis')).toBeNull();
    expect(asked).toContain(`/chats/${chat._id}`);
  });

  it('a positive chat with the cross-sell taken reads green and «Ofrecida y aceptada»', async () => {
    servePanel({ ...negative(), sentiment: 'positive', sentimentLabel: 'Positivo', dissatisfactionOrigin: undefined, dissatisfactionOriginLabel: undefined, crossSell: { offered: true, taken: true }, quality: 5 });
    renderApp(<LeadPanel chat={chat} />);
    const section = await screen.findByRole('region', { name: 'Análisis' });
    const sentiment = await within(section).findByTestId('analysis-sentiment');
    expect(sentiment.textContent).toBe('Positivo');
    expect(sentiment.className).toContain('colorSuccess');
    expect(within(section).getByText('Ofrecida y aceptada')).toBeTruthy();
    expect(within(section).queryByText('Origen del malestar')).toBeNull();
  });

  it('says «Aún sin análisis» for a chat never analysed', async () => {
    servePanel(undefined);
    renderApp(<LeadPanel chat={chat} />);
    const section = await screen.findByRole('region', { name: 'Análisis' });
    expect(await within(section).findByText('Aún sin análisis')).toBeTruthy();
    expect(within(section).queryByTestId('analysis-sentiment')).toBeNull();
  });
});

describe('«Análisis» in a person’s view', () => {
  const person = { _id: uid(501), name: 'María Fernández', telefono: '51987001122', details: [], createdAt: '', updatedAt: '' };
  const serve = (analysis: LatestAnalysis | undefined) =>
    serveLeads([], (call) => {
      if (call.path === `/clean-leads/${person._id}`) return { status: 200, body: analysis ? { ...person, analysis } : person };
      if (call.path === '/chats/get_all_by_cleanlead_id') return { status: 200, body: { payload: [] } };
      return undefined;
    });

  it('shows the latest analysed chat’s, and which channel it was', async () => {
    serve({ ...negative(), chatId: uid(401), platform: 'instagram' });
    renderApp(<CleanLeadDrawer id={person._id} onClose={() => {}} />);
    const drawer = await screen.findByRole('dialog', { name: 'María Fernández' });
    const section = await within(drawer).findByRole('region', { name: 'Análisis' });
    expect(within(section).getByTestId('analysis-sentiment').textContent).toBe('Negativo');
    expect(within(section).getByText('Calidad 2/5')).toBeTruthy();
    expect(section.textContent).toContain('Del último chat analizado (Instagram)');
  });

  it('says «Aún sin análisis» when none of their chats was analysed', async () => {
    serve(undefined);
    renderApp(<CleanLeadDrawer id={person._id} onClose={() => {}} />);
    const drawer = await screen.findByRole('dialog', { name: 'María Fernández' });
    const section = await within(drawer).findByRole('region', { name: 'Análisis' });
    expect(within(section).getByText('Aún sin análisis')).toBeTruthy();
  });
});
