import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resourceList } from './index.js';

describe.each(resourceList.map((r) => [r.key, r] as const))('declaration of %s', (_key, r) => {
  it('has at least three valid examples with distinct unique values', () => {
    expect(r.examples.length).toBeGreaterThanOrEqual(3);
    const parsed = r.examples.map((e) => r.input.parse(e) as Record<string, unknown>);
    for (const field of r.unique) expect(new Set(parsed.map((p) => p[field])).size).toBe(parsed.length);
  });

  it('describes records the server can serialise (no one-way transforms)', () => {
    for (const example of r.examples) {
      const record = { _id: 'x', ...(r.input.parse(example) as object), createdAt: 'a', updatedAt: 'b' };
      expect(() => z.encode(r.entity, record as never)).not.toThrow();
    }
  });

  it('sorts by default on a field the list can sort by, and searches text fields', () => {
    expect(r.sortable).toContain(r.defaultSort.field);
    expect(r.searchable.length).toBeGreaterThan(0);
  });
});
