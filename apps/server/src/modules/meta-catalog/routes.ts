import { metaCatalogInput, metaCatalogOut } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit, changesOf } from '../../db/audit.js';
import { type CatalogClient, createGraphCatalogClient, createSandboxCatalogClient } from '../../integrations/meta/catalog.js';
import { tenantOf } from '../../plugins/auth.js';
import { metaCatalogJobs } from './jobs.js';
import { createMetaCatalogService, META_CATALOG_SYNC_QUEUE } from './service.js';

/**
 * The Meta commerce catalogue of the WhatsApp line (issue 30, decision 0086), under the catalog
 * module's permissions: GET its id, its last sync and the products Meta refused; PUT the id;
 * POST /sync starts «Sincronizar catálogo» as a job (202) whose progress GET shows.
 */
export const metaCatalogRoutes: FastifyPluginAsyncZod<{ client?: CatalogClient; pollMs?: number }> = async (app, options) => {
  const { db } = app.database;
  const client = options.client ?? (app.settings.sendProvider === 'graph' ? createGraphCatalogClient(app.settings.graphApiUrl) : createSandboxCatalogClient());
  const service = createMetaCatalogService({ db, secrets: app.secrets, client, publicUrl: app.settings.publicUrl, pollMs: options.pollMs ?? 1000 });
  const tags = ['meta-catalog'];
  const may = (action: 'read' | 'update') => ({ permission: { module: 'catalog' as const, action } });

  await metaCatalogJobs(app, service);

  app.get('/meta-catalog', { config: may('read'), schema: { tags, response: { 200: metaCatalogOut } } }, (request) => service.get(tenantOf(request).companyId));

  app.put('/meta-catalog', { config: may('update'), schema: { tags, body: metaCatalogInput, response: { 200: metaCatalogOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const before = await service.get(companyId);
    const after = await service.setCatalog(companyId, request.body.catalogId);
    if (before.catalogId !== after.catalogId) {
      await audit(db, { companyId, action: before.catalogId ? 'update' : 'create', entity: 'meta_catalogs', entityId: after.catalogId as string, changes: changesOf({ catalogId: before.catalogId ?? null }, { catalogId: after.catalogId }) });
    }
    return after;
  });

  app.post('/meta-catalog/sync', { config: may('update'), schema: { tags, response: { 202: metaCatalogOut } } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const started = await service.start(tenant.companyId, tenant.userId);
    await app.jobs.send(META_CATALOG_SYNC_QUEUE, { companyId: tenant.companyId });
    return reply.status(202).send(started);
  });
};
