import { z } from 'zod';
import { zIdsText, zQueryDate } from './define-resource.js';
import { zId } from './fields.js';
import type { OrderStatus } from './order-labels.js';
import { leadPlatforms, leadStatuses } from './resources/leads.js';

/**
 * The pipeline board (issue 31, decision 0099): /lead/tablero shows the leads as cards in
 * columns — the spec's five statuses, each followed by the company's own stages that map onto
 * it (resource lead-stages) — and moves them through the same rules as any status change.
 *
 *   GET  /lead-board                    boardQuery → Board (every column: count, open orders' value, first cards)
 *   GET  /lead-board/columns/:stage     columnQuery → BoardColumnPage («Ver más»: the cards after `cursor`)
 *   POST /lead-board/move               boardMoveInput → BoardMoveResult (the standard lead update underneath)
 *   GET  /lead-board/funnel             funnelQuery → Funnel (conversion and median time per stage, from the history)
 *   GET  /lead-stages …                 the company's stages: a standard resource
 *
 * A column is named by its stage key: a status (`sin-asignar` …) for the status's own column, a
 * stage's id for a company stage.
 */

/** The orders a board counts as open (their value is what a column and a card show): not done, not cancelled. */
export const openOrderStatuses = ['created', 'paid', 'shipped'] as const satisfies readonly OrderStatus[];

/** Cards a column shows at first and per «Ver más». */
export const BOARD_PAGE_DEFAULT = 20;
export const BOARD_PAGE_MAX = 100;

/** A column's key: one of the five statuses, or the id of a company stage. */
export const zStageKey = () =>
  z.union([z.enum(leadStatuses), z.uuid()], { error: 'Etapa desconocida: un estado (sin-asignar, re-conectar…) o el id de una etapa' });
export const isStatusKey = (key: string): key is (typeof leadStatuses)[number] => (leadStatuses as readonly string[]).includes(key);

/** The filters of the board (the same as the lead lists'): agent, labels (any of them), channel. */
export const boardFilters = z.object({
  agenteId: zId().optional(),
  mostradorLabels: zIdsText('Las etiquetas deben ser ids válidos').optional(),
  platform: z.enum(leadPlatforms, { error: 'Canal desconocido' }).optional(),
});
const zLimit = () => z.coerce.number({ error: 'Debe ser un número' }).int('Debe ser un número entero').min(1, 'Al menos 1').max(BOARD_PAGE_MAX, `Como máximo ${BOARD_PAGE_MAX}`);
export const boardQuery = boardFilters.extend({ limit: zLimit().default(BOARD_PAGE_DEFAULT) }).strict();
export const columnQuery = boardFilters.extend({ limit: zLimit().default(BOARD_PAGE_DEFAULT), cursor: z.string().max(400).optional() }).strict();
export const columnParams = z.object({ stage: zStageKey() });

/** One lead on the board. */
export const boardCard = z.object({
  _id: z.string(),
  name: z.string(),
  platform: z.enum(leadPlatforms),
  status: z.enum(leadStatuses),
  stageId: z.string().optional(),
  agenteId: z.string().optional(),
  mostradorLabels: z.array(z.string()),
  /** The newest message of any of its chats (absent: no chat, or no message yet). */
  lastMessageAt: z.string().optional(),
  /** What its open orders (created, paid, shipped) add up to, in the company's currency. */
  openOrderValue: z.number(),
  createdAt: z.string(),
});
export type BoardCard = z.infer<typeof boardCard>;

export const boardColumn = z.object({
  /** Its key: the status, or the stage's id. */
  stage: z.string(),
  name: z.string(),
  /** The status its leads have (a stage's `mapsTo`). */
  status: z.enum(leadStatuses),
  /** A company stage (else the status's own column). */
  custom: z.boolean(),
  /** Leads in the column (with the filters). */
  count: z.number().int(),
  /** Their open orders' total, in the company's currency. */
  openOrderValue: z.number(),
  cards: z.array(boardCard),
  /** Where «Ver más» continues; absent: every card is shown. */
  nextCursor: z.string().optional(),
});
export type BoardColumn = z.infer<typeof boardColumn>;

export const boardOut = z.object({ currency: z.string(), columns: z.array(boardColumn) });
export type Board = z.infer<typeof boardOut>;

export const boardColumnPage = z.object({ stage: z.string(), cards: z.array(boardCard), nextCursor: z.string().optional() });
export type BoardColumnPage = z.infer<typeof boardColumnPage>;

/**
 * POST /lead-board/move: the lead to the column `toStage`. `fromStage`: the column the card was
 * in on the caller's screen — when someone else moved it meanwhile the move is refused (409),
 * nothing written. The same rules as PUT /leads/{id} apply (decision 0025: an agent leaves a lead
 * moved to «Sin asignar»…); another company's lead, or one held by another agent, is a 404.
 */
export const boardMoveInput = z.object({ leadId: zId(), toStage: zStageKey(), fromStage: zStageKey().optional() }).strict();
export const boardMoveResult = z.object({
  msg: z.string(),
  /** False when the lead already was in that column (nothing written). */
  moved: z.boolean(),
  from: z.string(),
  to: z.string(),
  lead: boardCard,
});
export type BoardMoveResult = z.infer<typeof boardMoveResult>;

/** GET /lead-board/funnel: moves in [from, to) — default the last 90 days; at most a year and a day. */
export const funnelQuery = z.object({ from: zQueryDate().optional(), to: zQueryDate().optional() }).strict();
export const FUNNEL_DEFAULT_DAYS = 90;
export const FUNNEL_MAX_DAYS = 366;

export const funnelStage = z.object({
  stage: z.string(),
  name: z.string(),
  status: z.enum(leadStatuses),
  custom: z.boolean(),
  /** Leads that entered the stage in the range (a new lead enters its first stage). */
  entered: z.number().int(),
  /** Of those, how many are still there. */
  stillIn: z.number().int(),
  /** Of those, how many went on to a stage further right on the board: the conversion. */
  advanced: z.number().int(),
  /** advanced / entered (0–1); null when none entered. */
  conversion: z.number().nullable(),
  /** Median time in the stage of those that left it, in seconds; null when none left. */
  medianSeconds: z.number().nullable(),
  /** Where those that left it went: each next stage with its count and share of `entered`. */
  exits: z.array(z.object({ stage: z.string(), count: z.number().int(), rate: z.number() })),
});
export type FunnelStage = z.infer<typeof funnelStage>;
export const funnelOut = z.object({ from: z.string(), to: z.string(), stages: z.array(funnelStage) });
export type Funnel = z.infer<typeof funnelOut>;
