import { companyInput, companyOut, companyPatch, companySortFields, listQuery, pageOf, successMessages, zId } from '@mostrador/contract';
import { and, asc, count, desc, eq, ilike } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { companies, memberships } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { containsPattern, listRules, pageResult } from '../../lib/list.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { storageOf } from '../drive/storage-of.js';

const idParams = z.object({ id: zId() });
const rules = listRules(companySortFields, Object.keys(companyOut.shape));

function toWire(row: typeof companies.$inferSelect) {
  return {
    _id: row.id,
    name: row.name,
    country: row.country,
    settings: (row.settings ?? {}) as z.infer<typeof companyOut>['settings'],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The companies of the caller's corporation that the caller belongs to: nobody sees more. */
const mine = (tenant: Tenant) => and(eq(companies.corporationId, tenant.corporationId), eq(memberships.userId, tenant.userId));

async function ownCompany(db: Db, tenant: Tenant, id: string) {
  const [row] = await db
    .select({ company: companies })
    .from(companies)
    .innerJoin(memberships, eq(memberships.companyId, companies.id))
    .where(and(mine(tenant), eq(companies.id, id)));
  if (!row) throw new AppError('NOT_FOUND', 'La compañía no existe');
  return row.company;
}

function nameTaken(error: unknown): never {
  const e = error as { code?: string; cause?: { code?: string } };
  if ((e.code ?? e.cause?.code) === '23505') {
    throw new AppError('CONFLICT', 'Ya existe una compañía con ese nombre', [{ path: 'name', msg: 'Este valor ya está en uso' }]);
  }
  throw error;
}

/**
 * Companies (SPEC §7 standard set: list, create, update, delete). They belong to the
 * corporation, so the scope here is the caller's corporation and memberships — still
 * resolved by the one auth hook's tenant.
 */
export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ['companies'];

  app.get(
    '/companies',
    { config: { permission: { module: 'companies', action: 'list' } }, schema: { tags, querystring: listQuery, response: { 200: pageOf(companyOut.partial()) } } },
    async (request) => {
      const tenant = tenantOf(request);
      const q = request.query;
      const sort = rules.sortOf(q, 'name');
      rules.assertFields(q);
      const direction = (q.order ?? 'asc') === 'asc' ? asc : desc;
      const where = and(mine(tenant), q.filter ? ilike(companies.name, containsPattern(q.filter)) : undefined);
      const [rows, [{ n }]] = await Promise.all([
        db
          .select({ company: companies })
          .from(companies)
          .innerJoin(memberships, eq(memberships.companyId, companies.id))
          .where(where)
          .orderBy(direction(companies[sort as (typeof companySortFields)[number]]), direction(companies.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db.select({ n: count() }).from(companies).innerJoin(memberships, eq(memberships.companyId, companies.id)).where(where),
      ]);
      return pageResult(rows.map((r) => toWire(r.company)), Number(n), q);
    },
  );

  app.get(
    '/companies/:id',
    { config: { permission: { module: 'companies', action: 'read' } }, schema: { tags, params: idParams, response: { 200: companyOut } } },
    async (request) => toWire(await ownCompany(db, tenantOf(request), request.params.id)),
  );

  /** A new company of the corporation; its creator joins it with their current role. */
  app.post(
    '/companies',
    { config: { permission: { module: 'companies', action: 'create' } }, schema: { tags, body: companyInput, response: { 201: companyOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const b = request.body;
      const company = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(companies)
            .values({ corporationId: tenant.corporationId, name: b.name, country: b.country, settings: b.settings ?? {} })
            .returning();
          await tx.insert(memberships).values({ companyId: row.id, userId: tenant.userId, role: tenant.role, isDefault: false });
          return row;
        })
        .catch(nameTaken);
      return reply.status(201).send(toWire(company));
    },
  );

  app.put(
    '/companies/:id',
    { config: { permission: { module: 'companies', action: 'update' } }, schema: { tags, params: idParams, body: companyPatch, response: { 200: companyOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const current = await ownCompany(db, tenant, request.params.id);
      const { name, country, settings } = request.body;
      const [row] = await db
        .update(companies)
        .set({
          name,
          country,
          settings: settings ? { ...(current.settings as object), ...settings } : undefined,
          updatedAt: new Date(),
        })
        .where(eq(companies.id, current.id))
        .returning()
        .catch(nameTaken);
      return toWire(row);
    },
  );

  /**
   * Deleting a company deletes all its data. Never the one being worked in — so a
   * corporation always keeps at least one company.
   */
  app.delete(
    '/companies/:id',
    { config: { permission: { module: 'companies', action: 'delete' } }, schema: { tags, params: idParams } },
    async (request) => {
      const tenant = tenantOf(request);
      const { id } = request.params;
      if (id === tenant.companyId) throw new AppError('BAD_REQUEST', 'No puedes eliminar la compañía en la que estás trabajando');
      await db.transaction(async (tx) => {
        await ownCompany(tx, tenant, id);
        await tx.delete(companies).where(eq(companies.id, id));
      });
      // its Drive files' bytes go with its rows (decision 0056)
      await storageOf(app.settings, app.log)
        .removeCompany(id)
        .catch((error: unknown) => app.log.warn({ err: error, companyId: id }, 'Drive: no se pudieron borrar los archivos de la compañía'));
      return { status: 200, _id: id, msg: successMessages.deleted };
    },
  );
};
