import { columnNameOf, fieldKind, isOptionalField, type Resource, tableNameOf } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  type IndexBuilder,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  type PgColumnBuilderBase,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { companies } from './schema.js';

function columnFor(field: string, schema: z.ZodType): PgColumnBuilderBase {
  const name = columnNameOf(field);
  switch (fieldKind(schema)) {
    case 'uuid':
      return uuid(name);
    case 'integer':
      return integer(name);
    case 'number':
      return doublePrecision(name);
    case 'boolean':
      return boolean(name);
    case 'timestamp':
      return timestamp(name, { withTimezone: true });
    case 'json':
      return jsonb(name);
    default:
      return text(name);
  }
}

type Columns = Record<string, AnyPgColumn>;
/**
 * Indexes a resource's own reads need beyond what its declaration gives (written here, the
 * server's, not in the contract): the pipeline board's columns (decision 0099), the inbox by status in its order, last activity first
 * (decision 0076), and the snoozed chats the minute sweep wakes — a partial index, so it holds
 * only the few chats snoozed now and the sweep reads those across companies.
 */
const serverIndexes: Record<string, (t: Columns) => IndexBuilder[]> = {
  // the pipeline board (decision 0099): a column is a status and a stage (none: the status's own), newest first
  leads: (t) => [index('leads_board_idx').on(t.companyId, t.status, t.stageId, t.createdAt, t.id)],
  chats: (t) => [
    index('chats_status_activity_idx').on(t.companyId, t.status, t.lastMessageAt, t.id),
    index('chats_snoozed_until_idx').on(t.snoozedUntil).where(sql`${t.snoozedUntil} is not null`),
  ],
};

/**
 * The table of a standard resource, derived from its declaration: id, company_id (every
 * index leads with it), one column per field, created_at/updated_at; an index per sortable
 * field (with id, for stable keyset order), a unique index per unique field and a trigram
 * index per searchable field; per filterable field a (company, field, default sort, id) index, or
 * a GIN index for a list of ids.
 */
export function tableFor(resource: Resource) {
  const name = tableNameOf(resource.key);
  const fields = resource.fields as Record<string, z.ZodType>;
  const columns: Record<string, PgColumnBuilderBase> = {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  };
  for (const [field, schema] of Object.entries(fields)) {
    const column = columnFor(field, schema) as PgColumnBuilderBase & { notNull(): PgColumnBuilderBase };
    columns[field] = isOptionalField(schema) ? column : column.notNull();
  }
  columns.createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
  columns.updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

  return pgTable(name, columns, (t) => {
    const col = (f: string) => (t as unknown as Record<string, AnyPgColumn>)[f];
    return [
      ...resource.sortable.map((f) => index(`${name}_${columnNameOf(f)}_idx`).on(col('companyId'), col(f), col('id'))),
      // a filtered list (a lead bucket) reads one field's value in the default order: (company, field, sort, id);
      // a list of ids is matched with ?| through a GIN index
      ...resource.filterable
        .filter((f) => f !== 'createdAt' && f !== resource.defaultSort.field)
        .map((f) =>
          fieldKind(fields[f]) === 'json'
            ? index(`${name}_${columnNameOf(f)}_gin`).using('gin', col(f))
            : index(`${name}_${columnNameOf(f)}_filter_idx`).on(col('companyId'), col(f), col(resource.defaultSort.field), col('id')),
        ),
      ...resource.unique.map((f) => uniqueIndex(`${name}_${columnNameOf(f)}_uq`).on(col('companyId'), col(f))),
      // a flag one record at most holds: one row per company where it is true
      ...resource.onlyOne.map((f) => uniqueIndex(`${name}_${columnNameOf(f)}_one_uq`).on(col('companyId')).where(sql.raw(`"${columnNameOf(f)}" = true`))),
      // a search is ILIKE '%text%' on each searchable field: trigram indexes serve it (pg_trgm)
      ...resource.searchable.map((f) => index(`${name}_${columnNameOf(f)}_trgm`).using('gin', sql`${col(f)} gin_trgm_ops`)),
      ...(serverIndexes[resource.key]?.(t as unknown as Columns) ?? []),
    ];
  });
}
export type ResourceTable = ReturnType<typeof tableFor>;
