import { z } from 'zod';

/**
 * The list query every list call takes (SPEC §7, §9): sort, order, page, limit, filter
 * (search text) and fields (comma-separated). Defaults: page 1, limit 20.
 * `order` accepts 'asc' | 'desc' and the numeric forms some screens send (1, -1, and 0,
 * which the marketplace orders list sends for newest first).
 */
export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 200;
/** Chat lists default to 10 (SPEC §9). */
export const CHAT_LIST_LIMIT = 10;
/** Page buttons shown at most (SPEC §9). */
export const MAX_PAGINATION_BUTTONS = 16;

const orderSchema = z
  .union([z.enum(['asc', 'desc', 'ASC', 'DESC']), z.enum(['1', '-1', '0']), z.literal(1), z.literal(-1), z.literal(0)], {
    error: "El orden debe ser 'asc' o 'desc'",
  })
  .transform((v) => (v === 'asc' || v === 'ASC' || v === '1' || v === 1 ? 'asc' : 'desc') as 'asc' | 'desc');

/**
 * Keyset paging (decision 0023), beside the spec's `page`: the `nextCursor` of a page, sent
 * back as `cursor`, answers the rows after that page's last one in the same sort, however deep,
 * without an OFFSET. Opaque (base64url); with a cursor `page` only names the page in the answer.
 */
export const cursorParam = z.string().trim().min(1, 'El cursor no es válido').max(2000, 'El cursor no es válido').optional();

export const listQuery = z.object({
  sort: z.string().trim().max(64).optional(),
  order: orderSchema.optional(),
  page: z.coerce.number({ error: 'La página debe ser un número' }).int('La página debe ser un entero').min(1, 'La página empieza en 1').default(1),
  limit: z.coerce
    .number({ error: 'El límite debe ser un número' })
    .int('El límite debe ser un entero')
    .min(1, 'El límite mínimo es 1')
    .max(LIST_MAX_LIMIT, `El límite máximo es ${LIST_MAX_LIMIT}`)
    .default(LIST_DEFAULT_LIMIT),
  filter: z.string().trim().max(200, 'La búsqueda es demasiado larga').optional(),
  fields: z
    .string()
    .max(1000)
    .optional()
    .transform((v) => (v ? v.split(',').map((f) => f.trim()).filter(Boolean) : undefined)),
  cursor: cursorParam,
});
export type ListQuery = z.infer<typeof listQuery>;

/** A page of a list: the spec's payload, totalDocs, totalPages, plus page and limit. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    payload: z.array(item),
    totalDocs: z.number().int(),
    totalPages: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    /** Present when more rows follow: pass it as `cursor` for the next page. */
    nextCursor: z.string().optional(),
  });
}
export interface Page<T> {
  payload: T[];
  totalDocs: number;
  totalPages: number;
  page: number;
  limit: number;
  nextCursor?: string;
}

export function totalPagesOf(totalDocs: number, limit: number): number {
  return Math.max(1, Math.ceil(totalDocs / limit));
}
