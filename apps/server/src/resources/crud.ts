import { listQuery, pageOf, type Resource, resources, zId } from '@mostrador/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceTables } from '../db/resource-tables.js';
import { tenantOf } from '../plugins/auth.js';
import { repositoryFor } from './repository.js';

const idParams = z.object({ id: zId() });

function tableOf(resource: Resource) {
  const table = resourceTables[resource.key];
  if (!table) throw new Error(`Falta la tabla de ${resource.key}: ejecuta npm run db:generate`);
  return table;
}

/** Routes of one declared resource: list, get, create, update, delete, as declared. */
function registerResource(app: FastifyInstance, resource: Resource) {
  const repo = repositoryFor(resource, tableOf(resource));
  const { db } = app.database;
  const base = `/${resource.key}`;
  const permission = (action: 'list' | 'read' | 'create' | 'update' | 'delete') => ({ permission: { module: resource.module, action } });
  const tags = [resource.key];
  const ops = new Set(resource.operations);
  const r = app.withTypeProvider<ZodTypeProvider>();

  if (ops.has('list')) {
    r.get(base, { config: permission('list'), schema: { tags, querystring: listQuery, response: { 200: pageOf(resource.entity.partial()) } } }, (req) =>
      repo.list(db, tenantOf(req), req.query),
    );
  }
  if (ops.has('get')) {
    r.get(`${base}/:id`, { config: permission('read'), schema: { tags, params: idParams, response: { 200: resource.entity } } }, (req) =>
      repo.get(db, tenantOf(req), req.params.id),
    );
  }
  if (ops.has('create')) {
    r.post(base, { config: permission('create'), schema: { tags, body: resource.input, response: { 201: resource.entity } } }, async (req, reply) =>
      reply.status(201).send(await repo.create(db, tenantOf(req), req.body as Record<string, unknown>)),
    );
  }
  if (ops.has('update')) {
    r.put(`${base}/:id`, { config: permission('update'), schema: { tags, params: idParams, body: resource.patch, response: { 200: resource.entity } } }, (req) =>
      repo.update(db, tenantOf(req), req.params.id, req.body as Record<string, unknown>),
    );
  }
  if (ops.has('delete')) {
    r.delete(`${base}/:id`, { config: permission('delete'), schema: { tags, params: idParams } }, async (req) => {
      await repo.remove(db, tenantOf(req), req.params.id);
      return { status: 200, _id: req.params.id };
    });
  }
}

/** Every standard resource of the contract, served by the one generic layer. */
export const resourceRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const resource of Object.values(resources) as Resource[]) registerResource(app, resource);
};
