import { describe, expect, it } from 'vitest';
import { apiFilters, countOf, emptyLeadFilters, filtersFromParams, hasFilters, rangeError, withFilters } from './lead-filters';

describe('lead filters', () => {
  it('read the address, ignoring unknown values', () => {
    const values = filtersFromParams(new URLSearchParams('estado=re-conectar&canal=fax&agente=a1&etiquetas=x,,y&desde=2025-02-30x&hasta=2025-03-31'));
    expect(values).toEqual({ status: 're-conectar', platform: '', agenteId: 'a1', labels: ['x', 'y'], from: '', to: '2025-03-31' });
  });

  it('count the filters set; labels count once', () => {
    expect(countOf(emptyLeadFilters)).toBe(0);
    expect(hasFilters(emptyLeadFilters)).toBe(false);
    const values = { ...emptyLeadFilters, platform: 'whatsapp' as const, labels: ['a', 'b'], to: '2025-03-31' };
    expect(countOf(values)).toBe(3);
    expect(hasFilters(values)).toBe(true);
  });

  it('write changes, keep the rest, and go back to page 1', () => {
    const next = withFilters(new URLSearchParams('q=ana&page=3&estado=re-conectar'), { status: '', labels: ['a', 'b'], from: '2025-01-01' });
    expect(Object.fromEntries(next)).toEqual({ q: 'ana', etiquetas: 'a,b', desde: '2025-01-01' });
    expect(withFilters(new URLSearchParams('estado=x&vista=personas'), emptyLeadFilters).toString()).toBe('vista=personas');
  });

  it('become the API query: ids comma-separated, days as instants with `to` exclusive', () => {
    expect(apiFilters({ ...emptyLeadFilters, status: 'compra-fallida', labels: ['a', 'b'], from: '2025-03-01', to: '2025-03-31' })).toEqual({
      status: 'compra-fallida',
      platform: undefined,
      agenteId: undefined,
      mostradorLabels: 'a,b',
      from: new Date(2025, 2, 1).toISOString(),
      to: new Date(2025, 3, 1).toISOString(),
    });
  });

  it('leave out an inverted range, and say why', () => {
    const values = { ...emptyLeadFilters, from: '2025-03-10', to: '2025-03-01' };
    expect(rangeError(values)).toBe('La fecha final debe ser posterior a la inicial');
    expect(apiFilters(values).from).toBeUndefined();
  });
});
