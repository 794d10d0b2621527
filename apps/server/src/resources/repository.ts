import { columnNameOf, type ListQuery, type Page, type Resource, totalPagesOf } from '@mostrador/contract';
import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';
import { AppError } from '../lib/errors.js';
import type { Tenant } from '../plugins/auth.js';
import type { ResourceTable } from './table-for.js';

type Row = Record<string, unknown> & { id: string; createdAt: Date; updatedAt: Date };
export type WireRecord = Record<string, unknown> & { _id: string; createdAt: string; updatedAt: string };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Data access of one standard resource. Every statement is scoped by the tenant's company
 * here, and only here: a handler cannot reach a row of another company, and ids of another
 * company simply do not exist (404).
 */
export function repositoryFor(resource: Resource, table: ResourceTable) {
  const columns = table as unknown as Record<string, AnyPgColumn>;
  const fieldNames = Object.keys(resource.fields);
  const wireFields = new Set(['_id', ...fieldNames, 'createdAt', 'updatedAt']);
  const scope = (tenant: Tenant, extra?: SQL) => and(eq(columns.companyId, tenant.companyId), extra);

  function toWire(row: Row, fields?: string[]): WireRecord {
    const out: Record<string, unknown> = { _id: row.id };
    for (const f of fieldNames) if (row[f] !== null && row[f] !== undefined) out[f] = row[f];
    out.createdAt = row.createdAt.toISOString();
    out.updatedAt = row.updatedAt.toISOString();
    if (!fields) return out as WireRecord;
    return Object.fromEntries(Object.entries(out).filter(([k]) => k === '_id' || fields.includes(k))) as WireRecord;
  }

  function uniqueViolation(error: unknown): never {
    const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
    const pgError = e.code ? e : e.cause;
    if (pgError?.code === '23505') {
      const field = resource.unique.find((f) => pgError.constraint?.endsWith(`_${columnNameOf(f)}_uq`));
      throw new AppError(
        'CONFLICT',
        field ? `Ya existe un registro con ese valor en ${field}` : 'El registro ya existe',
        field ? [{ path: field, msg: 'Este valor ya está en uso' }] : undefined,
      );
    }
    throw error;
  }

  return {
    resource,
    async list(db: Db, tenant: Tenant, q: ListQuery): Promise<Page<WireRecord>> {
      const sortField = q.sort ?? resource.defaultSort.field;
      if (!resource.sortable.includes(sortField)) {
        throw new AppError('VALIDATION', `No se puede ordenar por «${sortField}»`, [
          { path: 'sort', msg: `Valores posibles: ${resource.sortable.join(', ')}` },
        ]);
      }
      const unknown = q.fields?.filter((f) => !wireFields.has(f)) ?? [];
      if (unknown.length) {
        throw new AppError('VALIDATION', `Campo desconocido: ${unknown.join(', ')}`, [{ path: 'fields', msg: `Campos posibles: ${[...wireFields].join(', ')}` }]);
      }
      const order = q.order ?? (q.sort ? 'asc' : resource.defaultSort.order);
      const term = q.filter ? `%${escapeLike(q.filter)}%` : undefined;
      const search = term && resource.searchable.length ? or(...resource.searchable.map((f) => ilike(columns[f], term))) : undefined;
      const where = scope(tenant, search ?? (term ? sql`false` : undefined));
      const direction = order === 'asc' ? asc : desc;
      const [rows, [{ n }]] = await Promise.all([
        db
          .select()
          .from(table)
          .where(where)
          .orderBy(direction(columns[sortField]), direction(columns.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db.select({ n: count() }).from(table).where(where),
      ]);
      const totalDocs = Number(n);
      return {
        payload: (rows as Row[]).map((r) => toWire(r, q.fields)),
        totalDocs,
        totalPages: totalPagesOf(totalDocs, q.limit),
        page: q.page,
        limit: q.limit,
      };
    },
    async get(db: Db, tenant: Tenant, id: string): Promise<WireRecord> {
      const [row] = await db.select().from(table).where(scope(tenant, eq(columns.id, id)));
      if (!row) throw new AppError('NOT_FOUND');
      return toWire(row as Row);
    },
    async create(db: Db, tenant: Tenant, input: Record<string, unknown>): Promise<WireRecord> {
      const [row] = await db
        .insert(table)
        .values({ ...input, companyId: tenant.companyId } as never)
        .returning()
        .catch(uniqueViolation);
      return toWire(row as Row);
    },
    async update(db: Db, tenant: Tenant, id: string, patch: Record<string, unknown>): Promise<WireRecord> {
      const [row] = await db
        .update(table)
        .set({ ...patch, updatedAt: new Date() } as never)
        .where(scope(tenant, eq(columns.id, id)))
        .returning()
        .catch(uniqueViolation);
      if (!row) throw new AppError('NOT_FOUND');
      return toWire(row as Row);
    },
    async remove(db: Db, tenant: Tenant, id: string): Promise<void> {
      const deleted = await db.delete(table).where(scope(tenant, eq(columns.id, id))).returning({ id: columns.id });
      if (deleted.length === 0) throw new AppError('NOT_FOUND');
    },
  };
}
