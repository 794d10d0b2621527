import { metaAdAccountInput, metaAdAccountOut, metaAdsMessages } from '@mostrador/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, auditSettings } from '../../db/audit.js';
import { rowsOf } from '../../db/database.js';
import { metaAdAccounts } from '../../db/meta-ads-tables.js';
import { type AdsClient, createAdsClient, isSandboxAdsToken } from '../../integrations/meta/ads.js';
import { ProviderError } from '../../integrations/meta/send.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { META_ADS_SYNC_QUEUE, metaAdsJobs } from './jobs.js';

/** What the audit log leaves out of an ad account: the token's hint and what the sync writes. */
const META_ADS_SKIP = ['tokenHint', 'lastSyncAt'];

/**
 * The company's Meta ad account (issue 14, decision 0047): saved after Meta confirms it, the
 * token sealed; its spend synced by a job (at once on save, on demand, and every morning).
 */
export const metaAdsRoutes: FastifyPluginAsyncZod<{ client?: AdsClient }> = async (app, options) => {
  const { db } = app.database;
  const client = options.client ?? createAdsClient(app.settings.graphApiUrl);
  const tags = ['meta-ads'];
  const may = (action: 'read' | 'update' | 'delete') => ({ permission: { module: 'integrations' as const, action } });

  await app.register(metaAdsJobs, { client });

  async function accountOut(companyId: string) {
    const [a] = await db.select().from(metaAdAccounts).where(eq(metaAdAccounts.companyId, companyId));
    if (!a) return { configured: false };
    const [kept] = await rowsOf<{ days: number; campaigns: number }>(
      db,
      sql`select count(distinct day)::int as days, count(distinct campaign_id)::int as campaigns from ad_spend_daily where company_id = ${companyId}`,
    );
    return {
      configured: true,
      adAccountId: a.adAccountId,
      ...(a.name ? { name: a.name } : {}),
      ...(a.currency ? { currency: a.currency } : {}),
      tokenHint: a.tokenHint,
      sandbox: a.tokenHint.startsWith('sandbox'),
      ...(a.lastSyncAt ? { lastSyncAt: a.lastSyncAt.toISOString() } : {}),
      ...(a.lastSyncError ? { lastSyncError: a.lastSyncError } : {}),
      days: kept?.days ?? 0,
      campaigns: kept?.campaigns ?? 0,
    };
  }

  app.get('/meta-ads/account', { config: may('read'), schema: { tags, response: { 200: metaAdAccountOut } } }, async (request) => accountOut(tenantOf(request).companyId));

  app.put('/meta-ads/account', { config: may('update'), schema: { tags, body: metaAdAccountInput, response: { 200: metaAdAccountOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const { adAccountId, accessToken } = request.body;
    // Meta is asked first: a wrong id or token is said now, and nothing is kept
    let account: Awaited<ReturnType<AdsClient['account']>>;
    try {
      account = await client.account(accessToken, adAccountId);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const field = error.reason === metaAdsMessages.noAccount ? 'adAccountId' : 'accessToken';
      throw new AppError('VALIDATION', error.reason, [{ path: field, msg: error.reason }]);
    }
    const values = {
      adAccountId,
      accessToken: app.secrets.seal(accessToken),
      tokenHint: isSandboxAdsToken(accessToken) ? `sandbox…${accessToken.slice(-4)}` : `…${accessToken.slice(-4)}`,
      name: account.name,
      currency: account.currency,
      lastSyncError: account.status === 2 ? metaAdsMessages.disabled : null,
      updatedAt: new Date(),
    };
    // the account and its audit entry in one transaction, the token masked (decision 0072)
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(metaAdAccounts).where(eq(metaAdAccounts.companyId, companyId)).for('update');
      const [after] = await tx.insert(metaAdAccounts).values({ companyId, ...values }).onConflictDoUpdate({ target: metaAdAccounts.companyId, set: values }).returning();
      await auditSettings(tx, { companyId, entity: 'meta_ad_accounts', entityId: companyId, before, after, secrets: ['accessToken'], skip: META_ADS_SKIP });
    });
    await app.jobs.send(META_ADS_SYNC_QUEUE, { companyId });
    return accountOut(companyId);
  });

  app.delete('/meta-ads/account', { config: may('delete'), schema: { tags, response: { 200: z.object({ msg: z.string() }) } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const gone = await db.transaction(async (tx) => {
      const rows = await tx.delete(metaAdAccounts).where(eq(metaAdAccounts.companyId, companyId)).returning();
      for (const before of rows) await auditSettings(tx, { companyId, entity: 'meta_ad_accounts', entityId: companyId, before, after: null, secrets: ['accessToken'], skip: META_ADS_SKIP });
      return rows;
    });
    if (!gone.length) throw new AppError('NOT_FOUND', metaAdsMessages.notConfigured);
    return { msg: metaAdsMessages.removed };
  });

  app.post('/meta-ads/sync', { config: may('update'), schema: { tags, response: { 202: z.object({ msg: z.string() }) } } }, async (request, reply) => {
    const { companyId } = tenantOf(request);
    const [a] = await db.select({ companyId: metaAdAccounts.companyId }).from(metaAdAccounts).where(eq(metaAdAccounts.companyId, companyId));
    if (!a) throw new AppError('NOT_FOUND', metaAdsMessages.notConfigured);
    // nothing else is written here: the entry says who asked for the sync (decision 0072)
    await audit(db, { companyId, action: 'sync', entity: 'meta_ad_accounts', entityId: companyId });
    await app.jobs.send(META_ADS_SYNC_QUEUE, { companyId });
    return reply.code(202).send({ msg: metaAdsMessages.syncQueued });
  });
};
