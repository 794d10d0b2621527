import type { Db } from '../db/database.js';
import { metaAdAccounts } from '../db/meta-ads-tables.js';
import { createSandboxAdsClient } from '../integrations/meta/ads.js';
import type { SecretBox } from '../lib/secret-box.js';
import { keepAdSpend } from '../modules/meta-ads/routes.js';

/**
 * The demo's Meta ad account (decision 0047): a sandbox token (never reaches Meta) and six
 * months of spend per campaign and day, so the metrics' ad spend and cost per lead have data on a
 * fresh start. The morning sync keeps the last weeks up to date from the same sandbox.
 */
export async function seedDemoAds(db: Db, companyId: string, secrets: Pick<SecretBox, 'seal'>, now = new Date()): Promise<void> {
  const token = 'sandbox-meta-ads-demo-0001';
  await db.insert(metaAdAccounts).values({
    companyId,
    adAccountId: 'act_100000000000001',
    accessToken: secrets.seal(token),
    tokenHint: `sandbox…${token.slice(-4)}`,
    name: 'Cuenta publicitaria demo (sandbox)',
    currency: 'USD',
    lastSyncAt: now,
  });
  const until = now.toISOString().slice(0, 10);
  const since = new Date(now.getTime() - 180 * 86_400_000).toISOString().slice(0, 10);
  const ads = await createSandboxAdsClient().insights(token, 'act_100000000000001', { since, until });
  await keepAdSpend(db, companyId, ads, 'USD', { since, until });
}
