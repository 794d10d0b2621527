import type { Board, BoardCard, BoardColumn } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../../lib/session';
import { fakeApi, pageOf } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { agents, labels, uid } from '../test-server';
import { BoardPage } from './board-page';
import { formatDuration, withMove } from './board-model';

const stageId = uid(501);
const card = (n: number, extra: Partial<BoardCard> = {}): BoardCard => ({
  _id: uid(n),
  name: `Lead ${n}`,
  platform: 'whatsapp',
  status: 'sin-asignar',
  mostradorLabels: [],
  openOrderValue: 0,
  createdAt: '2025-03-14T15:30:00Z',
  ...extra,
});
const col = (stage: string, name: string, status: BoardColumn['status'], cards: BoardCard[], extra: Partial<BoardColumn> = {}): BoardColumn => ({
  stage,
  name,
  status,
  custom: stage === stageId,
  count: cards.length,
  openOrderValue: cards.reduce((n, c) => n + c.openOrderValue, 0),
  cards,
  ...extra,
});
const boardOf = (): Board => ({
  currency: 'PEN',
  columns: [
    col('sin-asignar', 'Sin asignar', 'sin-asignar', [card(1, { lastMessageAt: '2025-03-15T10:00:00Z' }), card(2)], { count: 41, nextCursor: 'c1' }),
    col('re-conectar', 'Re-conectar', 're-conectar', []),
    col('informado-al-agente', 'Informado al agente', 'informado-al-agente', [
      card(3, { status: 'informado-al-agente', agenteId: agents[0]._id, mostradorLabels: [labels[0]._id], openOrderValue: 150.5, platform: 'instagram' }),
    ]),
    col(stageId, 'Cotización enviada', 'informado-al-agente', []),
    col('compra-realizada', 'Compra realizada', 'compra-realizada', []),
    col('compra-fallida', 'Compra fallida', 'compra-fallida', []),
  ],
});

const everything = { leads: ['list', 'read', 'create', 'update', 'delete'] };

function serveBoard() {
  let current = boardOf();
  return fakeApi((call) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: everything } };
    if (call.path === '/agentes') return { status: 200, body: pageOf(agents) };
    if (call.path === '/mostrador-labels') return { status: 200, body: pageOf(labels) };
    if (call.method === 'GET' && call.path === '/lead-board') return { status: 200, body: current };
    if (call.method === 'GET' && call.path === '/lead-board/columns/sin-asignar') {
      return { status: 200, body: { stage: 'sin-asignar', cards: [card(4), card(5)] } };
    }
    if (call.method === 'POST' && call.path === '/lead-board/move') {
      const body = call.body as { leadId: string; toStage: string };
      current = withMove(current, body.leadId, body.toStage);
      const lead = current.columns.flatMap((c) => c.cards).find((c) => c._id === body.leadId);
      return { status: 200, body: { msg: 'Lead movido a «Cotización enviada»', moved: true, from: 'sin-asignar', to: body.toStage, lead } };
    }
    if (call.path === '/lead-board/funnel') {
      return {
        status: 200,
        body: {
          from: '2025-01-01T00:00:00Z',
          to: '2025-04-01T00:00:00Z',
          stages: [
            { stage: 'sin-asignar', name: 'Sin asignar', status: 'sin-asignar', custom: false, entered: 40, stillIn: 10, advanced: 30, conversion: 0.75, medianSeconds: 4 * 3600, exits: [{ stage: 'informado-al-agente', count: 30, rate: 0.75 }] },
            { stage: 'informado-al-agente', name: 'Informado al agente', status: 'informado-al-agente', custom: false, entered: 30, stillIn: 30, advanced: 0, conversion: 0, medianSeconds: null, exits: [] },
          ],
        },
      };
    }
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/lead/tablero', () => {
  it('shows every column with its count and open orders, and each card with its channel, agent, labels and value', async () => {
    serveBoard();
    renderApp(<BoardPage />, { route: '/lead/tablero' });
    const first = await screen.findByTestId('board-column-sin-asignar');
    expect(within(first).getByRole('heading', { name: 'Sin asignar' })).toBeTruthy();
    expect(within(first).getByTestId('column-totals').textContent).toMatch(/^41 leads · S\/\s?0\.00 en órdenes abiertas$/);
    const names = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(names).toEqual(expect.arrayContaining(['Sin asignar', 'Re-conectar', 'Informado al agente', 'Cotización enviada', 'Compra realizada', 'Compra fallida']));
    const worked = await screen.findByRole('article', { name: 'Lead 3' });
    await waitFor(() => expect(within(worked).getByText('Instagram · Ana Torres')).toBeTruthy());
    expect(within(worked).getByText('Mayorista')).toBeTruthy();
    expect(within(worked).getByLabelText(/Órdenes abiertas: S\/\s?150\.50/)).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Lead 2' })).getByText('Sin mensajes')).toBeTruthy();
  });

  it('moves a card with «Mover a…»: the move call, the card in its new column, the server says what it did', async () => {
    const { calls } = serveBoard();
    renderApp(<BoardPage />, { route: '/lead/tablero' });
    const lead = await screen.findByRole('article', { name: 'Lead 1' });
    await userEvent.click(within(lead).getByRole('button', { name: 'Mover a…: Lead 1' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Sin asignar' }).getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Cotización enviada' }));
    expect(await screen.findByText('Lead movido a «Cotización enviada»')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ leadId: uid(1), toStage: stageId, fromStage: 'sin-asignar' });
    const quote = screen.getByTestId(`board-column-${stageId}`);
    await waitFor(() => expect(within(quote).getByRole('article', { name: 'Lead 1' })).toBeTruthy());
    expect(within(screen.getByTestId('board-column-sin-asignar')).queryByRole('article', { name: 'Lead 1' })).toBeNull();
  });

  it('«Ver más» adds the next cards of the column', async () => {
    const { calls } = serveBoard();
    renderApp(<BoardPage />, { route: '/lead/tablero' });
    const first = await screen.findByTestId('board-column-sin-asignar');
    await userEvent.click(within(first).getByRole('button', { name: 'Ver más' }));
    expect(await within(first).findByRole('article', { name: 'Lead 5' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/lead-board/columns/sin-asignar')?.query.get('cursor')).toBe('c1');
    expect(within(first).queryByRole('button', { name: 'Ver más' })).toBeNull();
  });

  it('filters by channel through the address and the call', async () => {
    const { calls } = serveBoard();
    renderApp(<BoardPage />, { route: '/lead/tablero?canal=instagram' });
    await screen.findByTestId('board-column-sin-asignar');
    expect(calls.find((c) => c.path === '/lead-board')?.query.get('platform')).toBe('instagram');
  });

  it('opens «Embudo de etapas» with conversion and median time per stage', async () => {
    serveBoard();
    renderApp(<BoardPage />, { route: '/lead/tablero' });
    await userEvent.click(await screen.findByRole('button', { name: 'Embudo de etapas' }));
    const row = await screen.findByTestId('funnel-sin-asignar');
    expect(within(row).getByText('75 %')).toBeTruthy();
    expect(within(row).getByText('4 h')).toBeTruthy();
    expect(within(row).getByText('Informado al agente 75 %')).toBeTruthy();
    expect(within(screen.getByTestId('funnel-informado-al-agente')).getAllByText('—').length).toBeGreaterThan(0);
  });
});

describe('board model', () => {
  it('writes durations as a person says them', () => {
    expect([30, 45 * 60, 3 * 3600 + 20 * 60, 2 * 86_400 + 5 * 3600, 3 * 86_400].map(formatDuration)).toEqual(['< 1 min', '45 min', '3 h 20 min', '2 d 5 h', '3 d']);
  });
});
