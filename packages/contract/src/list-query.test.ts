import { describe, expect, it } from 'vitest';
import { listQuery, totalPagesOf } from './list-query.js';

describe('list query (SPEC §7, §9)', () => {
  it('defaults to page 1 and 20 items', () => {
    expect(listQuery.parse({})).toEqual({ page: 1, limit: 20 });
  });

  it('reads query-string values and the numeric orders screens send', () => {
    const q = listQuery.parse({ sort: 'name', order: '-1', page: '3', limit: '30', filter: ' ana ', fields: 'name, email,' });
    expect(q).toEqual({ sort: 'name', order: 'desc', page: 3, limit: 30, filter: 'ana', fields: ['name', 'email'] });
    expect(listQuery.parse({ order: 'asc' }).order).toBe('asc');
    expect(listQuery.parse({ order: '0' }).order).toBe('desc');
  });

  it('refuses bad paging with Spanish messages', () => {
    const r = listQuery.safeParse({ page: '0', limit: '5000', order: 'sideways' });
    const messages = r.error?.issues.map((i) => i.message);
    expect(messages).toEqual(expect.arrayContaining(['La página empieza en 1', 'El límite máximo es 200', "El orden debe ser 'asc' o 'desc'"]));
  });

  it('takes an optional keyset cursor beside the page (decision 0023)', () => {
    expect(listQuery.parse({ cursor: ' WyJhIl0 ', page: '3' })).toEqual({ cursor: 'WyJhIl0', page: 3, limit: 20 });
    expect(listQuery.safeParse({ cursor: '' }).error?.issues[0]?.message).toBe('El cursor no es válido');
  });

  it('counts pages, never fewer than one', () => {
    expect(totalPagesOf(0, 20)).toBe(1);
    expect(totalPagesOf(41, 20)).toBe(3);
  });
});
