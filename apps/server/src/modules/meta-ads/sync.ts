import { META_ADS_SYNC_DAYS, metaAdsMessages } from '@mostrador/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { metaAdAccounts } from '../../db/meta-ads-tables.js';
import type { AdsClient, CampaignDay } from '../../integrations/meta/ads.js';
import { ProviderError } from '../../integrations/meta/send.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Keeps insights read per ad and day: summed per campaign and day into `ad_spend_daily` (the
 * window `range` replaced first), per ad and day into `ad_spend_ads_daily` (the same), and each
 * ad's campaign in `meta_ads` for attribution. Answers
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
  // each ad's own spend too (the attribution funnel by ad, decision 0097), the same window replaced
  await db.execute(sql`delete from ad_spend_ads_daily where company_id = ${companyId} and day between ${range.since} and ${range.until}`);
  const perAd = new Map<string, { day: string; adId: string; campaignId: string; spend: number }>();
  for (const r of rows) {
    const key = `${r.day}|${r.adId}`;
    const sum = perAd.get(key);
    perAd.set(key, { day: r.day, adId: r.adId, campaignId: r.campaignId, spend: (sum?.spend ?? 0) + r.spend });
  }
  const adDays = [...perAd.values()].map((r) => ({ ...r, spend: Math.round(r.spend * 100) / 100, currency }));
  for (let i = 0; i < adDays.length; i += 1000) {
    await db.execute(sql`insert into ad_spend_ads_daily (company_id, day, ad_id, campaign_id, currency, spend)
      select ${companyId}, x.day, x."adId", x."campaignId", x.currency, x.spend
        from jsonb_to_recordset(${JSON.stringify(adDays.slice(i, i + 1000))}::jsonb) as x(day date, "adId" text, "campaignId" text, currency text, spend numeric)`);
  }
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
