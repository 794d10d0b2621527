import { fieldKind, isNestedRef, pageOf, type Resource, resourceList, zId } from '@mostrador/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/database.js';
import { resourceTables } from '../db/resource-tables.js';
import { admit, settleAuth, tenantOf } from '../plugins/auth.js';
import { trustedPage } from '../lib/list.js';
import type { SecretBox } from '../lib/secret-box.js';
import { type Referrer, repositoryFor } from './repository.js';

const idParams = z.object({ id: zId() });

function tableOf(key: string) {
  const table = resourceTables[key];
  if (!table) throw new Error(`Falta la tabla de ${key}: ejecuta npm run db:generate`);
  return table;
}

/** Fields of every resource that hold ids of `key`'s records: cleaned when one is deleted. */
function referrersOf(key: string): Referrer[] {
  return resourceList.flatMap((r) =>
    Object.entries(r.refs)
      // a reference inside a document (an order's line) keeps what was sold: checked on write, not cleared (decision 0021)
      .filter(([field, keys]) => keys.includes(key) && !isNestedRef(field))
      .map(([field]) => ({
        resource: r,
        table: tableOf(r.key),
        field,
        many: fieldKind((r.fields as Record<string, z.ZodType>)[field]) === 'json',
      })),
  );
}

/** The repository of a declared resource (also for modules that extend one, like groups). */
export function repositoryOf(resource: Resource, secrets: Pick<SecretBox, 'seal'>) {
  return repositoryFor(resource, tableOf(resource.key), tableOf, secrets, () => referrersOf(resource.key));
}

/**
 * What a module does when one of its resource's records is deleted through the standard call:
 * `within` in the deletion's transaction (with the stored row: what goes with the record), `after`
 * once it committed (with the wire record and what `within` answered: events, jobs). Declared once
 * per resource at module load (`onRemoval`); the hooks receive the app they run in.
 */
export interface RemovalHook {
  within?: (tx: Db, companyId: string, row: Record<string, unknown>) => Promise<unknown>;
  after?: (app: FastifyInstance, companyId: string, removed: Record<string, unknown>, extra: unknown) => Promise<void>;
}
const removalHooks = new Map<string, RemovalHook>();
export function onRemoval(resourceKey: string, hook: RemovalHook) {
  removalHooks.set(resourceKey, hook);
}

/**
 * What a module checks of a record before the standard create or update writes it, beyond its
 * schema, by throwing an AppError: an address the server will call (integrations/outbound.ts).
 * Declared once per resource at module load, like `onRemoval`.
 */
const writeChecks = new Map<string, (input: Record<string, unknown>) => void>();
export function onWrite(resourceKey: string, check: (input: Record<string, unknown>) => void) {
  writeChecks.set(resourceKey, check);
}

/**
 * What a module adds to the record the standard GET of one record answers (issue 31: a lead's
 * analysis, decision 0092): `shape`, the added fields (optional ones: the response's schema), and
 * `add`, their values for the record read (in the caller's company). Declared once per resource at
 * module load, like `onRemoval`, before the routes are registered (the schema is read then).
 */
export interface ReadExtra {
  shape: z.ZodRawShape;
  add: (db: Db, companyId: string, record: Record<string, unknown>) => Promise<Record<string, unknown>>;
}
const readExtras = new Map<string, ReadExtra>();
export function onRead(resourceKey: string, extra: ReadExtra) {
  readExtras.set(resourceKey, extra);
}

/** Routes of one declared resource: list, get, create, update, delete, as declared. */
function registerResource(app: FastifyInstance, resource: Resource) {
  const repo = repositoryOf(resource, app.secrets);
  const { db } = app.database;
  const base = `/${resource.path}`;
  const permission = (action: 'list' | 'read' | 'create' | 'update' | 'delete') => ({ permission: { module: resource.module, action } });
  const tags = [resource.key];
  const ops = new Set(resource.operations);
  const r = app.withTypeProvider<ZodTypeProvider>();

  if (ops.has('list')) {
    // the list query: paging, sort, search and the declared field filters (strict: unknown parameters are 400s)
    const json = 'application/json; charset=utf-8';
    const listPermission = { module: resource.module, action: 'list' as const };
    r.get(
      base,
      {
        // the session, membership and permission are read in the page's own statement (decision 0036);
        // a bad query is answered after them, as when the hook read them first
        config: { permission: listPermission, deferredAuth: true },
        attachValidation: true,
        schema: { tags, querystring: resource.listQuery, response: { 200: pageOf(resource.entity.partial()) } },
        ...trustedPage,
      },
      async (req, reply) => {
        if (req.validationError) {
          await settleAuth(req);
          throw req.validationError;
        }
        const pending = req.pendingAuth;
        if (pending && repo.plainQuery(req.query)) {
          const caller = { sid: pending.claims.sid, sub: pending.claims.sub, companyId: pending.companyId };
          // an error before the verdict (a bad sort or cursor) is answered after the auth statement alone
          const read = await repo.listJsonAuthed(db, caller, req.query, listPermission).catch(async (error: unknown) => {
            await settleAuth(req);
            throw error;
          });
          admit(req, pending.claims, pending.companyId, read.auth);
          // the page's JSON as PostgreSQL wrote it: a string answered as it is
          if (read.json !== undefined) return reply.type(json).send(read.json as never);
        }
        // a search or filter, or a caller with row scope: the auth statement (if not read yet), then the page
        await settleAuth(req);
        return reply.type(json).send((await repo.listJson(db, tenantOf(req), req.query)) as never);
      },
    );
  }
  if (ops.has('get')) {
    const extra = readExtras.get(resource.key);
    const entity = extra ? resource.entity.extend(extra.shape) : resource.entity;
    r.get(`${base}/:id`, { config: permission('read'), schema: { tags, params: idParams, response: { 200: entity } } }, async (req) => {
      const tenant = tenantOf(req);
      const record = await repo.get(db, tenant, req.params.id);
      return extra ? { ...record, ...(await extra.add(db, tenant.companyId, record)) } : record;
    });
  }
  if (ops.has('create')) {
    r.post(base, { config: permission('create'), schema: { tags, body: resource.input, response: { 201: resource.entity } } }, async (req, reply) => {
      writeChecks.get(resource.key)?.(req.body as Record<string, unknown>);
      return reply.status(201).send(await repo.create(db, tenantOf(req), req.body as Record<string, unknown>));
    });
  }
  if (ops.has('update')) {
    r.put(`${base}/:id`, { config: permission('update'), schema: { tags, params: idParams, body: resource.patch, response: { 200: resource.entity } } }, (req) => {
      writeChecks.get(resource.key)?.(req.body as Record<string, unknown>);
      return repo.update(db, tenantOf(req), req.params.id, req.body as Record<string, unknown>);
    });
  }
  if (ops.has('delete')) {
    // the spec's delete with a body: the body must name the record as it is stored
    const body = resource.deleteBody;
    r.delete(`${base}/:id`, { config: permission('delete'), schema: { tags, params: idParams, ...(body ? { body } : {}) } }, async (req) => {
      const tenant = tenantOf(req);
      const hook = removalHooks.get(resource.key);
      const within = hook?.within;
      const { extra, ...removed } = await repo.remove(
        db,
        tenant,
        req.params.id,
        body ? (req.body as Record<string, unknown>) : undefined,
        within ? (tx, row) => within(tx, tenant.companyId, row) : undefined,
      );
      if (hook?.after) await hook.after(app, tenant.companyId, removed, extra);
      return { status: 200, _id: req.params.id };
    });
  }
}

/** Every standard resource of the contract, served by the one generic layer. */
export const resourceRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const resource of resourceList) registerResource(app, resource);
};
