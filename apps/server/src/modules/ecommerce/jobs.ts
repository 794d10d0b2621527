import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ecommerceSyncRuns, woocommerceWebhookEvents } from '../../db/ecommerce-tables.js';
import { defineTrashJob } from './removal.js';
import { createSyncEngine } from './sync.js';
import { processWooEvent, WOO_WEBHOOK_QUEUE } from './webhooks.js';

/** The store sync runs (decision 0034). */
export const SYNC_QUEUE = 'ecommerce.sync';
export { WOO_TRASH_QUEUE } from './removal.js';
export { WOO_WEBHOOK_QUEUE } from './webhooks.js';

/**
 * The WooCommerce module's jobs: the store syncs, the trash of products deleted here and the
 * store's webhook deliveries. What a crash left queued or running is queued again once the queue
 * has started: a sync resumes at its cursor.
 */
export async function ecommerceJobs(app: FastifyInstance) {
  const { db } = app.database;
  const engine = createSyncEngine({ db, secrets: app.secrets, realtime: app.realtime, log: app.log });

  app.jobs.define<{ runId: string }>(SYNC_QUEUE, async ({ runId }) => engine.run(runId));
  defineTrashJob(app, db);
  app.jobs.define<{ id: string }>(WOO_WEBHOOK_QUEUE, async ({ id }) => processWooEvent(db, app.secrets, id));

  app.addHook('onReady', async () => {
    try {
      const open = await db.select({ id: ecommerceSyncRuns.id }).from(ecommerceSyncRuns).where(inArray(ecommerceSyncRuns.status, ['queued', 'running']));
      for (const { id } of open) await app.jobs.send(SYNC_QUEUE, { runId: id }, { singletonKey: id });
    } catch (error) {
      app.log.warn({ err: error }, 'no se pudieron reencolar las sincronizaciones pendientes');
    }
  });
  app.addHook('onReady', async () => {
    try {
      const pending = await db.select({ id: woocommerceWebhookEvents.id }).from(woocommerceWebhookEvents).where(eq(woocommerceWebhookEvents.status, 'pending')).limit(1000);
      for (const { id } of pending) await app.jobs.send(WOO_WEBHOOK_QUEUE, { id }, { singletonKey: id });
    } catch (error) {
      app.log.warn({ err: error }, 'no se pudieron reencolar los webhooks de WooCommerce pendientes');
    }
  });
}
