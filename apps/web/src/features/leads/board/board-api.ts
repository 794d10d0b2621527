import type { Board, BoardColumnPage, BoardMoveResult, Funnel } from '@mostrador/contract';
import { api } from '../../../lib/api-client';

/** The board's filters as the API takes them (contract lead-board.ts). */
export interface BoardFilterQuery {
  agenteId?: string;
  platform?: string;
  mostradorLabels?: string;
}

/** The pipeline board's calls (decision 0099). Reads stay quiet (the page shows their errors); a move says what it did. */
export const boardApi = {
  board: (query: BoardFilterQuery, signal?: AbortSignal) => api.get<Board>('/lead-board', { query: { ...query }, overlay: false, notify: false, signal }),
  more: (stage: string, cursor: string, query: BoardFilterQuery) =>
    api.get<BoardColumnPage>(`/lead-board/columns/${encodeURIComponent(stage)}`, { query: { ...query, cursor }, overlay: false }),
  move: (body: { leadId: string; toStage: string; fromStage: string }) => api.post<BoardMoveResult>('/lead-board/move', body, { success: true, overlay: false }),
  funnel: (range: { from: string; to: string }, signal?: AbortSignal) =>
    api.get<Funnel>('/lead-board/funnel', { query: range, overlay: false, notify: false, signal }),
};
