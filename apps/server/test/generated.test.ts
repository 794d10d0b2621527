import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderResourceTables, resourceTablesFile } from '../src/db/generate-resource-tables.js';

describe('generated resource tables', () => {
  it('match the contract declarations (run `npm run db:generate` after adding a resource)', () => {
    expect(readFileSync(resourceTablesFile, 'utf8')).toBe(renderResourceTables());
  });
});
