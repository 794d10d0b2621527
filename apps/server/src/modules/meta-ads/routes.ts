import { META_ADS_SYNC_DAYS, metaAdAccountInput, metaAdAccountOut, metaAdsMessages } from '@mostrador/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, rowsOf } from '../../db/database.js';
import { metaAdAccounts } from '../../db/meta-ads-tables.js';
import { type AdsClient, type CampaignDay, createAdsClient, isSandboxAdsToken } from '../../integrations/meta/ads.js';
import { ProviderError } from '../../integrations/meta/send.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { tenantOf } from '../../plugins/auth.js';

export const META_ADS_SYNC_QUEUE = 'meta-ads.sync';
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Keeps insights read per ad and day: summed per campaign and day into `ad_spend_daily` (the
 * window `range` replaced first), and each ad's campaign in `meta_ads` for attribution. Answers
 * the campaign-days kept.
 */
export async function keepAdSpend(db: Db, companyId: string, rows: CampaignDay[], currency: string, range: { since: string; until: string }): Promise<number> {
  const perCampaign = new Map<string, CampaignDay>();
  for (const r of rows) {
    const key = `${r.day}|${r.campaignId}`;
    const sum = perCampaign.get(key);
    perCampaign.set(key, sum ? { ...sum, spend: sum.spend + r.spend, impressions: sum.impressions + r.impressions, clicks: sum.clicks + r.clicks } : { ...r });
  }
  const days = [...perCampaign.values()].map((r) => ({ ...r, spend: Math.round(r.spend * 100) / 100, currency }));
  const ads = [...new Map(rows.map((r) => [r.adId, { adId: r.adId, campaignId: r.campaignId, campaignName: r.campaignName }])).values()];
  await db.execute(sql`delete from ad_spend_daily where company_id = ${companyId} and day between ${range.since} and ${range.until}`);
  for (let i = 0; i < ads.length; i += 1000) {
    await db.execute(sql`insert into meta_ads (company_id, ad_id, campaign_id, campaign_name)
      select ${companyId}, x."adId", x."campaignId", x."campaignName" from jsonb_to_recordset(${JSON.stringify(ads.slice(i, i + 1000))}::jsonb) as x("adId" text, "campaignId" text, "campaignName" text)
      on conflict (company_id, ad_id) do update set campaign_id = excluded.campaign_id, campaign_name = excluded.campaign_name, updated_at = now()`);
  }
  for (let i = 0; i < days.length; i += 1000) {
    await db.execute(sql`insert into ad_spend_daily (company_id, day, campaign_id, campaign_name, currency, spend, impressions, clicks)
      select ${companyId}, x.day, x."campaignId", x."campaignName", x.currency, x.spend, x.impressions, x.clicks
        from jsonb_to_recordset(${JSON.stringify(days.slice(i, i + 1000))}::jsonb) as x(day date, "campaignId" text, "campaignName" text, currency text, spend numeric, impressions bigint, clicks bigint)
      on conflict (company_id, day, campaign_id) do update set campaign_name = excluded.campaign_name, currency = excluded.currency,
        spend = excluded.spend, impressions = excluded.impressions, clicks = excluded.clicks, updated_at = now()`);
  }
  return days.length;
}

/**
 * Pulls the account's last `META_ADS_SYNC_DAYS` days of insights into `ad_spend_daily`, replacing
 * that window (Meta revises recent days, and a day without spend is simply absent), and records
 * how it went. Answers the rows kept, or throws the Spanish reason (also stored).
 */
export async function syncAdSpend(db: Db, secrets: Pick<SecretBox, 'open'>, client: AdsClient, companyId: string, now = new Date()): Promise<number> {
  const [account] = await db.select().from(metaAdAccounts).where(eq(metaAdAccounts.companyId, companyId));
  if (!account) throw new AppError('NOT_FOUND', metaAdsMessages.notConfigured);
  const since = day(new Date(now.getTime() - META_ADS_SYNC_DAYS * 86_400_000));
  const until = day(now);
  try {
    const token = secrets.open<string>(account.accessToken);
    const rows = await client.insights(token, account.adAccountId, { since, until });
    const kept = await db.transaction(async (tx) => {
      const n = await keepAdSpend(tx as unknown as Db, companyId, rows, account.currency ?? 'USD', { since, until });
      await tx.update(metaAdAccounts).set({ lastSyncAt: new Date(), lastSyncError: null, updatedAt: new Date() }).where(eq(metaAdAccounts.companyId, companyId));
      return n;
    });
    return kept;
  } catch (error) {
    const reason = error instanceof ProviderError ? error.reason : error instanceof Error && /seal|decrypt/i.test(error.message) ? metaAdsMessages.tokenInvalid : undefined;
    if (!reason) throw error;
    await db.update(metaAdAccounts).set({ lastSyncError: reason, updatedAt: new Date() }).where(eq(metaAdAccounts.companyId, companyId));
    throw new AppError(error instanceof ProviderError && error.details.httpStatus === 429 ? 'RATE_LIMITED' : 'PROVIDER_ERROR', reason);
  }
}

/**
 * The company's Meta ad account (issue 14, decision 0047): saved after Meta confirms it, the
 * token sealed; its spend synced by a job (at once on save, on demand, and every morning).
 */
export const metaAdsRoutes: FastifyPluginAsyncZod<{ client?: AdsClient }> = async (app, options) => {
  const { db } = app.database;
  const client = options.client ?? createAdsClient(app.settings.graphApiUrl);
  const tags = ['meta-ads'];
  const may = (action: 'read' | 'update' | 'delete') => ({ permission: { module: 'integrations' as const, action } });

  app.jobs.define<{ companyId?: string }>(
    META_ADS_SYNC_QUEUE,
    async ({ companyId }) => {
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
    },
    { expireInSeconds: 300 },
  );
  app.jobs.every(META_ADS_SYNC_QUEUE, '30 6 * * *');

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
    await db.insert(metaAdAccounts).values({ companyId, ...values }).onConflictDoUpdate({ target: metaAdAccounts.companyId, set: values });
    await app.jobs.send(META_ADS_SYNC_QUEUE, { companyId });
    return accountOut(companyId);
  });

  app.delete('/meta-ads/account', { config: may('delete'), schema: { tags, response: { 200: z.object({ msg: z.string() }) } } }, async (request) => {
    const gone = await db.delete(metaAdAccounts).where(eq(metaAdAccounts.companyId, tenantOf(request).companyId)).returning({ companyId: metaAdAccounts.companyId });
    if (!gone.length) throw new AppError('NOT_FOUND', metaAdsMessages.notConfigured);
    return { msg: metaAdsMessages.removed };
  });

  app.post('/meta-ads/sync', { config: may('update'), schema: { tags, response: { 202: z.object({ msg: z.string() }) } } }, async (request, reply) => {
    const { companyId } = tenantOf(request);
    const [a] = await db.select({ companyId: metaAdAccounts.companyId }).from(metaAdAccounts).where(eq(metaAdAccounts.companyId, companyId));
    if (!a) throw new AppError('NOT_FOUND', metaAdsMessages.notConfigured);
    await app.jobs.send(META_ADS_SYNC_QUEUE, { companyId });
    return reply.code(202).send({ msg: metaAdsMessages.syncQueued });
  });
};
