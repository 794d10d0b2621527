// The way to Citus, checked (issue 32, docs/SCALING.md): with `company_id` as the distribution
// column, every primary key, unique index and foreign key of a tenant table (a table with a
// `company_id` column) must lead with `company_id`, or a distributed table could not enforce it
// on one shard. This lists each one that does not, on a fresh in-memory database migrated as the
// server migrates it, and compares the list with the committed baseline (docs/citus/baseline.txt):
// a new one fails (`npm run lint`); one that is gone must leave the baseline too, so the list stays
// true. `--write` rewrites the baseline (after a decision to accept an exception).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrateDatabase, openDatabase } from '../apps/server/src/db/database.js';

const root = path.resolve(import.meta.dirname, '..');
const baselineFile = path.join(root, 'docs', 'citus', 'baseline.txt');

interface Constraint {
  table: string;
  name: string;
  kind: 'primary key' | 'unique' | 'foreign key';
  columns: string[];
  references?: string;
}

const catalogue = `
with tenant as (
  select c.oid, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relkind in ('r', 'p')
     and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped)
)
select t.relname as "table", con.conname as name,
       case con.contype when 'p' then 'primary key' when 'u' then 'unique' else 'foreign key' end as kind,
       array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
       (select r.relname from pg_class r where r.oid = con.confrelid) as "references",
       (select exists (select 1 from pg_attribute a where a.attrelid = con.confrelid and a.attname = 'company_id')) as "referencesTenant"
  from tenant t join pg_constraint con on con.conrelid = t.oid and con.contype in ('p', 'u', 'f')
union all
select t.relname, i.relname, 'unique',
       array(select coalesce(a.attname::text, '(expresión)') from unnest(ix.indkey) with ordinality k(n, i) left join pg_attribute a on a.attrelid = ix.indrelid and a.attnum = k.n where k.i <= ix.indnkeyatts order by k.i),
       null, false
  from tenant t join pg_index ix on ix.indrelid = t.oid and ix.indisunique
  join pg_class i on i.oid = ix.indexrelid
 where not exists (select 1 from pg_constraint con where con.conindid = ix.indexrelid)
 order by 1, 2`;

async function findings(): Promise<{ lines: string[]; tenantTables: number; referenceTables: string[] }> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateDatabase(database);
    const { rows } = await database.pool.query<Constraint & { referencesTenant: boolean }>(catalogue);
    const lines: string[] = [];
    for (const c of rows) {
      if (c.table === 'companies') continue; // distributed by its own id: every tenant row points at it
      if (c.kind === 'foreign key') {
        // to a reference table (no company_id), or to companies itself: co-located or replicated, fine
        if (!c.referencesTenant || c.references === 'companies') continue;
        if (c.columns[0] === 'company_id') continue;
        lines.push(`${c.table}: foreign key ${c.name} (${c.columns.join(', ')}) → ${c.references}`);
      } else if (c.columns[0] !== 'company_id') {
        lines.push(`${c.table}: ${c.kind} ${c.name} (${c.columns.join(', ')})`);
      }
    }
    const tenant = await database.pool.query<{ n: number }>(
      `select count(distinct attrelid)::int as n from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace s on s.oid = c.relnamespace
        where s.nspname = 'public' and c.relkind in ('r', 'p') and a.attname = 'company_id' and not a.attisdropped`,
    );
    const reference = await database.pool.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace s on s.oid = c.relnamespace
        where s.nspname = 'public' and c.relkind in ('r', 'p')
          and not exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped)
        order by 1`,
    );
    return { lines: [...new Set(lines)].sort(), tenantTables: tenant.rows[0].n, referenceTables: reference.rows.map((r) => r.relname) };
  } finally {
    await database.close();
  }
}

const { lines, tenantTables, referenceTables } = await findings();
const header = [
  '# Primary keys, unique indexes and foreign keys of tenant tables not led by company_id (scripts/citus-check.ts).',
  '# Each is a table to rework before it is distributed (docs/SCALING.md, «El camino a Citus»). New ones fail `npm run lint`.',
];
if (process.argv.includes('--write')) {
  writeFileSync(baselineFile, `${[...header, ...lines].join('\n')}\n`);
  console.log(`citus-check: ${lines.length} exceptions written to docs/citus/baseline.txt`);
  process.exit(0);
}
const baseline = new Set(
  readFileSync(baselineFile, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#')),
);
const added = lines.filter((l) => !baseline.has(l));
const gone = [...baseline].filter((l) => !lines.includes(l));
console.log(
  `citus-check: ${tenantTables} tenant tables, ${referenceTables.length} without company_id (${referenceTables.join(', ')}); ${lines.length} known exceptions`,
);
if (added.length || gone.length) {
  for (const l of added) console.error(`  nueva: ${l} — lead it with company_id, or accept it with a decision and \`npm run citus:check -- --write\``);
  for (const l of gone) console.error(`  ya no existe: ${l} — \`npm run citus:check -- --write\` to drop it from the baseline`);
  process.exit(1);
}
