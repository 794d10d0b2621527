import { and, eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { woocommerceLinks } from '../../db/ecommerce-tables.js';
import { ecommercesVariationsTable } from '../../db/resource-tables.js';
import { WooError } from '../../integrations/woocommerce/client.js';
import { onRemoval } from '../../resources/crud.js';
import { clientFor, loadStore } from './store.js';

/** The queue that moves a product deleted here to its store's trash. */
export const WOO_TRASH_QUEUE = 'woocommerce.trash';
type TrashJob = { companyId: string; storeId: string; remoteId: number; name: string };

const v = ecommercesVariationsTable as unknown as Record<string, AnyPgColumn>;

/**
 * A product deleted here (decision 0034): its variations go with it, in the same transaction, and
 * so do its links to the store; once committed, a job moves the store's product to WooCommerce's
 * trash (`DELETE /products/{id}` without `force`: recoverable there for 30 days). A product the store
 * no longer has is fine; a store that refuses keeps it, and the next sync brings it back here as a
 * new product — the store is never left silently different.
 */
onRemoval('ecommerces', {
  within: async (tx, companyId, row) => {
    const variationIds = (await tx.select({ id: v.id }).from(ecommercesVariationsTable).where(and(eq(v.companyId, companyId), eq(v.ecommerceId, row.id)))).map(
      (r) => r.id as string,
    );
    if (variationIds.length) {
      await tx
        .delete(woocommerceLinks)
        .where(and(eq(woocommerceLinks.companyId, companyId), eq(woocommerceLinks.kind, 'variation'), inArray(woocommerceLinks.recordId, variationIds)));
      await tx.delete(ecommercesVariationsTable).where(and(eq(v.companyId, companyId), inArray(v.id, variationIds)));
    }
    return tx
      .delete(woocommerceLinks)
      .where(and(eq(woocommerceLinks.companyId, companyId), eq(woocommerceLinks.kind, 'product'), eq(woocommerceLinks.recordId, row.id as string)))
      .returning({ storeId: woocommerceLinks.storeId, remoteId: woocommerceLinks.remoteId });
  },
  after: async (app, companyId, removed, extra) => {
    for (const link of (extra as Array<{ storeId: string; remoteId: number }> | undefined) ?? []) {
      await app.jobs.send(WOO_TRASH_QUEUE, { companyId, storeId: link.storeId, remoteId: link.remoteId, name: String(removed.name ?? '') } satisfies TrashJob);
    }
  },
});

/** The trash job: retried by the queue while the store is unreachable or busy; what it refuses is logged. */
export function defineTrashJob(app: FastifyInstance, db: Db) {
  app.jobs.define<TrashJob>(WOO_TRASH_QUEUE, async ({ companyId, storeId, remoteId, name }) => {
    const store = await loadStore(db, app.secrets, companyId, storeId).catch(() => undefined);
    if (!store) return;
    try {
      await clientFor(store).delete(`/products/${remoteId}`);
    } catch (error) {
      if (error instanceof WooError && error.kind === 'not-found') return;
      if (error instanceof WooError && (error.kind === 'rate-limited' || error.kind === 'network' || error.kind === 'server')) throw error;
      app.log.warn({ err: error, storeId, remoteId }, `la tienda ${store.name} no envió a la papelera el producto ${name}`);
    }
  });
}
