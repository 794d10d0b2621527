import type { Db } from '../db/database.js';
import { metaAdAccounts } from '../db/meta-ads-tables.js';
import { sql } from 'drizzle-orm';
import { createSandboxAdsClient, sandboxAdId } from '../integrations/meta/ads.js';
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
  // a third of the demo's recent WhatsApp, Messenger and Instagram leads came from one of these ads
  // (the referral their first message carried), so the campaigns show the leads, chats and sales they brought
  const adIds = [sandboxAdId(0, 0), sandboxAdId(0, 1), sandboxAdId(0, 0), sandboxAdId(1, 0), sandboxAdId(1, 1), sandboxAdId(2, 0)];
  const headlines = ['2x1 en gaseosas de 1.5 L', '2x1 en gaseosas de 1.5 L', '2x1 en gaseosas de 1.5 L', 'Canastas para el Día de la Madre', 'Canastas para el Día de la Madre', 'Tu bodega del barrio'];
  await db.execute(sql`insert into lead_referrals (company_id, lead_id, platform, referral, created_at)
    select ${companyId}, l.id, l.platform,
           jsonb_build_object('sourceType', 'ad', 'sourceId', (${`{${adIds.join(',')}}`}::text[])[1 + (l.n / 3) % 6], 'headline', (${`{${headlines.map((h) => `"${h}"`).join(',')}}`}::text[])[1 + (l.n / 3) % 6], 'ctwaClid', 'demo-' || l.n),
           l.created_at
      from (select id, platform, created_at, row_number() over (order by created_at, id) as n from leads
             where company_id = ${companyId} and platform in ('whatsapp', 'facebook', 'instagram') and created_at > ${now.toISOString()}::timestamptz - interval '180 days'
               and not exists (select 1 from lead_referrals r where r.company_id = leads.company_id and r.lead_id = leads.id)) l
     where l.n % 3 = 0`);
}
