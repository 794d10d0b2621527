import type { FastifyInstance } from 'fastify';
import { foldMetrics, rebuildIfStale } from './rollups.js';

/** A company whose time zone changed since its rollups were written: they are rebuilt in the new one (decision 0045). */
export const METRICS_REBUILD_QUEUE = 'metrics.rebuild';
/**
 * Writers stage their rollup rows (migration 0042); the metric calls fold their company before
 * they read, and this queue folds every company each minute, so the staging stays small between calls.
 */
export const METRICS_FOLD_QUEUE = 'metrics.fold';

/** The metrics module's jobs (decision 0045): the rebuild of a company's rollups, and the minute's fold. */
export async function metricsJobs(app: FastifyInstance) {
  const { db } = app.database;
  // a company whose zone changed: its rollups rebuilt in the new one, once
  app.jobs.define<{ companyId: string }>(METRICS_REBUILD_QUEUE, ({ companyId }) => rebuildIfStale(db, companyId));
  // what writers staged is folded into the rollups each minute (the calls fold their company first anyway)
  app.jobs.define(METRICS_FOLD_QUEUE, async () => void (await foldMetrics(db, { vacuum: app.database.kind === 'postgres' })));
  app.jobs.every(METRICS_FOLD_QUEUE);
}
