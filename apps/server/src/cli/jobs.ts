import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../config.js';
import { catalogueTable } from '../jobs/catalogue.js';

/** Where the table is kept, between its two markers. */
export const operationsFile = path.join(repoRoot, 'docs/OPERATIONS.md');
const begin = '<!-- jobs:begin -->';
const end = '<!-- jobs:end -->';

/** docs/OPERATIONS.md with its queue table replaced by the catalogue's. */
export function withCatalogue(operations: string): string {
  const from = operations.indexOf(begin);
  const to = operations.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/OPERATIONS.md no tiene los marcadores ${begin} … ${end}`);
  return `${operations.slice(0, from)}${begin}\n${catalogueTable()}\n${operations.slice(to)}`;
}

/**
 * `npm run jobs`: the product's job queues (jobs/catalogue.ts) as a table — name, module, what a
 * job does, schedule, expiry, lanes. `npm run jobs -- --write` puts the table in docs/OPERATIONS.md.
 */
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const args = process.argv.slice(2);
  if (args.some((a) => a !== '--write')) {
    console.error('Uso: npm run jobs [-- --write]');
    process.exit(2);
  }
  if (args.includes('--write')) {
    writeFileSync(operationsFile, withCatalogue(readFileSync(operationsFile, 'utf8')));
    console.log(`Escrito ${path.relative(process.cwd(), operationsFile) || operationsFile}`);
  } else {
    console.log(catalogueTable());
  }
}
