import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { marketplaceBulkRuns, marketplaceSyncRuns } from '../../db/marketplace-tables.js';
import { createBulkEngine } from './bulk.js';
import { createMarketplaceSync } from './sync.js';

/** An account's sync runs (decision 0035). */
export const MARKETPLACE_SYNC_QUEUE = 'marketplace.sync';
/** The bulk updates of prices and stock being applied. */
export const MARKETPLACE_BULK_QUEUE = 'marketplace.bulk';

/**
 * The marketplace module's jobs: the accounts' syncs and the bulk updates. Jobs a crash left
 * queued or running are queued again once the queue has started: they resume where they were.
 */
export async function marketplaceJobs(app: FastifyInstance) {
  const { db } = app.database;
  const sync = createMarketplaceSync({ db, secrets: app.secrets, realtime: app.realtime });
  const bulk = createBulkEngine({ db, secrets: app.secrets, realtime: app.realtime });

  app.jobs.define<{ runId: string; companyId: string }>(MARKETPLACE_SYNC_QUEUE, async ({ runId, companyId }) => sync.run(runId, companyId));
  app.jobs.define<{ runId: string; companyId: string }>(MARKETPLACE_BULK_QUEUE, async ({ runId, companyId }) => bulk.run(runId, companyId));
  app.addHook('onReady', async () => {
    try {
      const open = await db
        .select({ id: marketplaceSyncRuns.id, companyId: marketplaceSyncRuns.companyId })
        .from(marketplaceSyncRuns)
        .where(inArray(marketplaceSyncRuns.status, ['queued', 'running']));
      for (const r of open) await app.jobs.send(MARKETPLACE_SYNC_QUEUE, { runId: r.id, companyId: r.companyId }, { singletonKey: r.id });
      const bulks = await db
        .select({ id: marketplaceBulkRuns.id, companyId: marketplaceBulkRuns.companyId })
        .from(marketplaceBulkRuns)
        .where(inArray(marketplaceBulkRuns.status, ['queued', 'running']));
      for (const r of bulks) await app.jobs.send(MARKETPLACE_BULK_QUEUE, { runId: r.id, companyId: r.companyId }, { singletonKey: r.id });
    } catch (error) {
      app.log.warn({ err: error }, 'no se pudieron reencolar los trabajos de marketplaces pendientes');
    }
  });
}
