import type { Board, BoardCard } from '@mostrador/contract';
import { formatCount } from '../../../lib/number-format';

/** A column's key: a status for its own column, a stage's id for a company stage (contract lead-board.ts). */
export const stageOf = (card: Pick<BoardCard, 'status' | 'stageId'>): string => card.stageId ?? card.status;

/**
 * The board after a card moved, before the server answers (the answer, or a refetch, settles
 * it): the card leaves its column and heads the target one, and both counts follow.
 */
export function withMove(board: Board, leadId: string, toStage: string): Board {
  const from = board.columns.find((c) => c.cards.some((card) => card._id === leadId));
  const to = board.columns.find((c) => c.stage === toStage);
  if (!from || !to || from === to) return board;
  const card = from.cards.find((c) => c._id === leadId) as BoardCard;
  const moved: BoardCard = { ...card, status: to.status, ...(to.custom ? { stageId: to.stage } : { stageId: undefined }) };
  return {
    ...board,
    columns: board.columns.map((c) => {
      if (c === from) return { ...c, count: Math.max(0, c.count - 1), openOrderValue: c.openOrderValue - card.openOrderValue, cards: c.cards.filter((x) => x._id !== leadId) };
      if (c === to) return { ...c, count: c.count + 1, openOrderValue: c.openOrderValue + card.openOrderValue, cards: [moved, ...c.cards] };
      return c;
    }),
  };
}

/** A stay's length as a person says it: «45 min», «3 h 20 min», «2 d 5 h»; under a minute «< 1 min». */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return '< 1 min';
  if (minutes < 60) return `${formatCount(minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${formatCount(hours)} h ${minutes % 60} min` : `${formatCount(hours)} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${formatCount(days)} d ${hours % 24} h` : `${formatCount(days)} d`;
}

/** A share (0–1) as a whole percentage in the company's locale; «—» when there is none. */
export function formatShare(share: number | null): string {
  if (share === null) return '—';
  return `${formatCount(Math.round(share * 100))} %`;
}
