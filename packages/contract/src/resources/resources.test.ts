import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldKind, idPathsOf, isNestedRef, isOptionalField } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { resourceList, resources } from './index.js';

/** Ref fields named by the spec rather than by our `Id`/`Ids` rule (SPEC §3: a lead's {product}Labels). */
const specNamedRefs = ['mostradorLabels'];

/** The element schema of an array field (through optional), or undefined. */
function arrayElement(schema: z.ZodType): z.ZodType | undefined {
  let s = schema as z.ZodType & { _zod: { def: { type: string; innerType?: z.ZodType; element?: z.ZodType } } };
  while (s._zod.def.type === 'optional') s = s._zod.def.innerType as typeof s;
  return s._zod.def.type === 'array' ? s._zod.def.element : undefined;
}

describe('the resource registry', () => {
  it('keys every resource by its API key, declared in resources/<kebab-case key>.ts', () => {
    for (const [key, r] of Object.entries(resources)) {
      expect(r.key).toBe(key);
      expect(existsSync(path.join(import.meta.dirname, `${key.replace(/_/g, '-')}.ts`))).toBe(true);
    }
  });
});

describe.each(resourceList.map((r) => [r.key, r] as const))('declaration of %s', (_key, r) => {
  const fields = r.fields as Record<string, z.ZodType>;

  it('has at least three valid examples with distinct unique values', () => {
    expect(r.examples.length).toBeGreaterThanOrEqual(3);
    const parsed = r.examples.map((e) => r.stored.parse(e) as Record<string, unknown>);
    // a unique field the examples carry is distinct in each (agentes.userId is left out: users are not seeded by examples)
    for (const field of r.unique) {
      const given = parsed.map((p) => p[field]).filter((v) => v !== undefined);
      expect(new Set(given).size).toBe(given.length);
    }
  });

  it('describes records the server can serialise (no one-way transforms)', () => {
    for (const example of r.examples) {
      const record = { _id: 'x', ...(r.stored.parse(example) as object), createdAt: 'a', updatedAt: 'b' };
      expect(() => z.encode(r.entity, record as never)).not.toThrow();
    }
  });

  it('sorts by default on a field the list can sort by, and searches text fields', () => {
    expect(r.sortable).toContain(r.defaultSort.field);
    expect(r.searchable.length).toBeGreaterThan(0);
    for (const f of r.searchable) expect(fieldKind(fields[f]), f).toBe('text');
    for (const f of r.sortable.filter((s) => s !== 'createdAt' && s !== 'updatedAt')) {
      expect(['text', 'integer', 'number', 'boolean', 'timestamp'], f).toContain(fieldKind(fields[f]));
    }
    for (const f of r.unique) expect(['text', 'integer', 'uuid'], f).toContain(fieldKind(fields[f]));
  });

  it('answers an empty create body with the required message', () => {
    const issues = r.input.safeParse({}).error?.issues ?? [];
    expect(issues.map((i) => i.message)).toContain(formMessages.required);
  });

  it('gives the generic suite usable examples: a required first searchable field, a distinctive needle, a collation-proof order', () => {
    const [searchField] = r.searchable;
    expect(isOptionalField(fields[searchField])).toBe(false);
    const parsed = r.examples.map((e) => r.stored.parse(e) as Record<string, unknown>);
    const needle = parsed[2][searchField];
    expect(typeof needle).toBe('string');
    const head = (needle as string).slice(0, 6);
    expect(head).toMatch(/^[\x20-\x7e]{6}$/);
    // the search narrows the list: the needle does not match every example
    const matching = parsed.filter((p) => r.searchable.some((f) => String(p[f] ?? '').toLowerCase().includes(head.toLowerCase())));
    expect(matching.length).toBeLessThan(parsed.length);
    const sortField = r.defaultSort.field;
    if (sortField !== 'createdAt' && sortField !== 'updatedAt') {
      const values = parsed.map((p) => String(p[sortField]));
      const byCodePoint = [...values].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
      const byCollation = [...values].sort((a, b) => a.localeCompare(b, 'es', { sensitivity: 'base' }));
      const byCase = [...values].sort((a, b) => (a < b ? -1 : 1));
      expect(byCollation).toEqual(byCodePoint);
      expect(byCase).toEqual(byCodePoint);
    }
  });

  it('declares every id it holds, at any depth, as a reference', () => {
    expect(Object.keys(r.refs).sort()).toEqual(idPathsOf(fields).sort());
    for (const [path, keys] of Object.entries(r.refs).filter(([p]) => isNestedRef(p))) {
      expect(Object.keys(fields), path).toContain(path.split(/[.[]/)[0]);
      for (const key of keys) expect(Object.keys(resources), `${path} → ${key}`).toContain(key);
    }
  });

  it('references declared resources through optional uuid fields named …Id or …Ids, left out of the examples', () => {
    for (const [field, keys] of Object.entries(r.refs).filter(([p]) => !isNestedRef(p))) {
      expect(Object.keys(fields), field).toContain(field);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(Object.keys(resources), `${field} → ${key}`).toContain(key);
      expect(isOptionalField(fields[field]), field).toBe(true);
      const element = arrayElement(fields[field]);
      expect(fieldKind(element ?? fields[field]), field).toBe('uuid');
      if (!specNamedRefs.includes(field)) expect(field).toMatch(element ? /Ids$/ : /Id$/);
      for (const example of r.examples) expect(example, field).not.toHaveProperty(field);
    }
  });

  it('keeps secrets write-only: declared fields, never searched, sorted or unique', () => {
    for (const field of r.writeOnly) {
      expect(Object.keys(fields)).toContain(field);
      expect(r.searchable).not.toContain(field);
      expect(r.sortable).not.toContain(field);
      expect(r.unique).not.toContain(field);
      expect(Object.keys(r.entity.shape)).toContain(`${field}Set`);
      expect(Object.keys(r.entity.shape)).not.toContain(field);
    }
  });

  it('names in a delete body only fields of the record, of the same kind', () => {
    if (!r.deleteBody) return;
    expect(r.operations).toContain('delete');
    for (const [field, schema] of Object.entries(r.deleteBody.shape as Record<string, z.ZodType>)) {
      expect(Object.keys(fields)).toContain(field);
      expect(fieldKind(schema), field).toBe(fieldKind(fields[field]));
    }
  });

  it('lives at its key unless the spec gives another path', () => {
    expect(r.path).not.toMatch(/^\/|\/$/);
    if (r.path !== r.key) expect(r.path.endsWith(r.key)).toBe(true);
  });
});
