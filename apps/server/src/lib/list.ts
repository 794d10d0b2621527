import { type ListQuery, type Page, totalPagesOf } from '@mostrador/contract';
import { AppError } from './errors.js';

/**
 * The list conventions every list call shares (SPEC §7): which sorts and fields it knows,
 * how a search term is matched, and the page it answers. Standard resources, users and
 * companies all go through here, so their 400s read the same.
 */
export function listRules(sortable: readonly string[], wireFields: readonly string[]) {
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
      const unknown = q.fields?.filter((f) => !wireFields.includes(f)) ?? [];
      if (unknown.length) {
        throw new AppError('VALIDATION', `Campo desconocido: ${unknown.join(', ')}`, [{ path: 'fields', msg: `Campos posibles: ${wireFields.join(', ')}` }]);
      }
    },
  };
}

/** An ILIKE pattern that finds `text` anywhere, with LIKE's wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of records, trimmed to `fields` when the query names them. */
export function pageResult<T extends Record<string, unknown>>(records: T[], totalDocs: number, q: Pick<ListQuery, 'page' | 'limit'> & Partial<Pick<ListQuery, 'fields'>>): Page<T> {
  const payload = q.fields
    ? records.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k === '_id' || q.fields?.includes(k))) as T)
    : records;
  return { payload, totalDocs, totalPages: totalPagesOf(totalDocs, q.limit), page: q.page, limit: q.limit };
}
