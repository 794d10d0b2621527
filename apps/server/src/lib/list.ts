import { type ListQuery, type Page, totalPagesOf } from '@mostrador/contract';
import { AppError } from './errors.js';

/**
 * The list conventions every list call shares (SPEC §7): which sorts and fields it knows,
 * how a search term is matched, and the page it answers. Standard resources, users and
 * companies all go through here, so their 400s read the same.
 */
export function listRules(sortable: readonly string[], wireFields: readonly string[], { cursor = false }: { cursor?: boolean } = {}) {
  return {
    /** The sort field of a query, or a Spanish 400 naming the ones allowed. */
    sortOf(q: ListQuery, fallback: string): string {
      const sort = q.sort ?? fallback;
      if (!sortable.includes(sort)) {
        throw new AppError('VALIDATION', `No se puede ordenar por «${sort}»`, [{ path: 'sort', msg: `Valores posibles: ${sortable.join(', ')}` }]);
      }
      return sort;
    },
    /** `fields` may name only fields the records have. */
    assertFields(q: ListQuery): void {
      // a list without keyset paging says so instead of answering page 1 again
      if (q.cursor && !cursor) throw new AppError('VALIDATION', 'Esta lista no admite cursor: usa page', [{ path: 'cursor', msg: 'No admitido en esta lista' }]);
      const unknown = q.fields?.filter((f) => !wireFields.includes(f)) ?? [];
      if (unknown.length) {
        throw new AppError('VALIDATION', `Campo desconocido: ${unknown.join(', ')}`, [{ path: 'fields', msg: `Campos posibles: ${wireFields.join(', ')}` }]);
      }
    },
  };
}

/** An ILIKE pattern that finds `text` anywhere, with LIKE's wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of records, trimmed to `fields` when the query names them; `nextCursor` when more rows follow. */
export function pageResult<T extends Record<string, unknown>>(
  records: T[],
  totalDocs: number,
  q: Pick<ListQuery, 'page' | 'limit'> & Partial<Pick<ListQuery, 'fields'>>,
  nextCursor?: string,
): Page<T> {
  const payload = q.fields
    ? records.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k === '_id' || q.fields?.includes(k))) as T)
    : records;
  const page: Page<T> = { payload, totalDocs, totalPages: totalPagesOf(totalDocs, q.limit), page: q.page, limit: q.limit };
  if (nextCursor) page.nextCursor = nextCursor;
  return page;
}

/**
 * Route option of the list calls: their 200 is a page the server built itself (pageResult
 * of rows mapped field by field), so it is written with JSON.stringify instead of running the
 * contract's zod schema over every row (≈4× the cost of the JSON: decision 0023). The schema
 * stays the route's response schema for the OpenAPI description, and
 * test/request-path.test.ts checks every resource's page against it byte for byte.
 */
export const trustedPage = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

/**
 * Where a keyset page starts (decision 0023): the sort and direction it was made for, the
 * last row's sort value as PostgreSQL prints it (`::text`, full precision: a timestamp keeps
 * its microseconds; null for an empty value) and its id.
 */
export interface CursorKey {
  sort: string;
  order: 'asc' | 'desc';
  value: string | null;
  id: string;
}

export const badCursor = () => new AppError('VALIDATION', 'El cursor no es válido', [{ path: 'cursor', msg: 'Pide la primera página otra vez' }]);

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque cursor of a row: base64url of `[sort, order, value, id]`. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.sort, key.order, key.value, key.id])).toString('base64url');
}

/**
 * A cursor sent back, for the sort and direction the request asks: anything else (edited,
 * cut, from another sort or order) is the Spanish 400 'El cursor no es válido'. `valid`
 * checks the value against the sort column's type, so a bad value never reaches the database.
 */
export function decodeCursor(cursor: string, sort: string, order: 'asc' | 'desc', valid: (value: string) => boolean): CursorKey {
  let parts: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  // only the server's own spelling of it: no extra characters, no other JSON of the same values
  if (!Array.isArray(parts) || parts.length !== 4 || Buffer.from(JSON.stringify(parts)).toString('base64url') !== cursor) throw badCursor();
  const [s, o, value, id] = parts as unknown[];
  if (s !== sort || o !== order || typeof id !== 'string' || !uuidPattern.test(id)) throw badCursor();
  if (value !== null && (typeof value !== 'string' || !valid(value))) throw badCursor();
  return { sort, order, value, id };
}

/** Whether a cursor value can be read back as a value of a column of this SQL type. */
export function cursorValueCheck(sqlType: string): (value: string) => boolean {
  const type = sqlType.toLowerCase();
  if (type.startsWith('timestamp') || type === 'date') return (v) => v.length <= 40 && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')));
  if (type === 'integer' || type === 'bigint' || type === 'smallint') return (v) => /^-?\d{1,18}$/.test(v);
  if (type.startsWith('numeric') || type === 'real' || type.startsWith('double')) return (v) => /^-?\d{1,30}(\.\d{1,30})?(e[+-]?\d{1,3})?$/i.test(v) || v === 'NaN' || v === 'Infinity' || v === '-Infinity';
  if (type === 'boolean') return (v) => v === 'true' || v === 'false';
  if (type === 'uuid') return (v) => uuidPattern.test(v);
  if (type === 'text' || type.startsWith('varchar') || type.startsWith('character')) return (v) => v.length <= 1000;
  return () => false;
}
