import type { FastifyInstance } from 'fastify';
import { metaAdAccounts } from '../../db/meta-ads-tables.js';
import type { AdsClient } from '../../integrations/meta/ads.js';
import { AppError } from '../../lib/errors.js';
import { syncAdSpend } from './sync.js';

/** One company's spend synced (on save, on demand), or every company's each morning (decision 0047). */
export const META_ADS_SYNC_QUEUE = 'meta-ads.sync';

/** The meta-ads module's job, on the routes plugin's ads client (a test's fake Meta). */
export async function metaAdsJobs(app: FastifyInstance, { client }: { client: AdsClient }) {
  const { db } = app.database;
  app.jobs.define<{ companyId?: string }>(META_ADS_SYNC_QUEUE, async ({ companyId }) => {
    const companies = companyId ? [companyId] : (await db.select({ companyId: metaAdAccounts.companyId }).from(metaAdAccounts)).map((r) => r.companyId);
    for (const c of companies) {
      try {
        await syncAdSpend(db, app.secrets, client, c);
      } catch (error) {
        // the reason is stored on the account and shown; a rate limit is tried again by the next run
        if (!(error instanceof AppError)) throw error;
        app.log.warn({ companyId: c, reason: error.msg }, 'no se pudo sincronizar el gasto de Meta');
      }
    }
  });
  app.jobs.every(META_ADS_SYNC_QUEUE);
}
