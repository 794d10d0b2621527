import { apiKeyCreated, apiKeyIn, apiKeyList, zId } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import { createKey, listKeys, revokeKey } from './service.js';

const tags = ['api-keys'];
const permission = (action: 'list' | 'create' | 'delete') => ({ permission: { module: 'api' as const, action } });

/** API keys of the company (issue 28, decision 0071): owner only (module `api`). */
export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  app.get('/api-keys', { config: permission('list'), schema: { tags, response: { 200: apiKeyList } } }, async (request) => ({
    payload: await listKeys(db, tenantOf(request)),
  }));

  app.post('/api-keys', { config: permission('create'), schema: { tags, body: apiKeyIn, response: { 201: apiKeyCreated } } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const matrix = await app.permissions.matrix(tenant);
    const held = new Set(Object.entries(matrix).flatMap(([module, actions]) => actions.map((a) => `${module}.${a}`)));
    return reply.status(201).send(await createKey(db, tenant, held, request.body));
  });

  app.delete('/api-keys/:id', { config: permission('delete'), schema: { tags, params: z.object({ id: zId() }) } }, async (request, reply) => {
    await revokeKey(db, tenantOf(request), request.params.id);
    return reply.status(204).send();
  });
};
