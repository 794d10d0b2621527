import type { FastifyInstance } from 'fastify';
import { META_CATALOG_SYNC_QUEUE, type MetaCatalogService } from './service.js';

/** «Sincronizar catálogo» runs (decision 0086): one job per run, the company's line catalogue. */
export async function metaCatalogJobs(app: FastifyInstance, service: MetaCatalogService) {
  app.jobs.define<{ companyId: string }>(
    META_CATALOG_SYNC_QUEUE,
    async ({ companyId }) => {
      await service.run(companyId);
    },
    { expireInSeconds: 900 },
  );
}
