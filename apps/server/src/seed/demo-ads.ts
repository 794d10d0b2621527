import type { Db } from '../db/database.js';
import { metaAdAccounts } from '../db/meta-ads-tables.js';
import { sql } from 'drizzle-orm';
import { createSandboxAdsClient, sandboxAdId } from '../integrations/meta/ads.js';
import type { SecretBox } from '../lib/secret-box.js';
import { keepAdSpend } from '../modules/meta-ads/sync.js';

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
  await seedDemoAdOrders(db, companyId);
}

/**
 * Some of the people an ad brought bought: a third of the demo's attributed leads ordered from the
 * chat a day or two after their first message (one product of the catalogue, statuses as a real
 * month has them), so «Ventas» shows orders and cost per order per campaign on a fresh start.
 */
export async function seedDemoAdOrders(db: Db, companyId: string): Promise<void> {
  await db.execute(sql`insert into orders (company_id, code, status, source, customer_name, telefono, customer, shippment, items, subtotal, total, currency, lead_id, chat_id, created_at, updated_at)
    select ${companyId}, 'P-A' || lpad(a.n::text, 5, '0'), (array['done','done','paid','shipped','created','cancelled'])[1 + a.n % 6], 'whatsapp',
           a.name, coalesce(a.telefono, ''), jsonb_build_object('name', a.name, 'telefono', a.telefono), '{"method":"pickup"}'::jsonb,
           jsonb_build_array(jsonb_build_object('productId', p.id, 'sku', p.sku, 'name', p.name, 'quantity', 1 + a.n % 3, 'unitPrice', p.price, 'total', p.price * (1 + a.n % 3))
             || case when p.image_url is not null then jsonb_build_object('imageUrl', p.image_url) else '{}'::jsonb end),
           p.price * (1 + a.n % 3), p.price * (1 + a.n % 3), 'PEN', a.lead_id, a.chat_id, a.at, a.at + interval '2 hours'
      from (select l.id as lead_id, l.name, l.telefono, ch.id as chat_id, r.created_at + make_interval(hours => 20 + (row_number() over (order by r.created_at, l.id))::int % 30) as at,
                   row_number() over (order by r.created_at, l.id) as n
              from lead_referrals r join leads l on l.company_id = r.company_id and l.id = r.lead_id
              left join lateral (select id from chats c where c.company_id = l.company_id and c.lead_id = l.id limit 1) ch on true
             where r.company_id = ${companyId}) a
      join lateral (select id, sku, name, price, image_url from products where company_id = ${companyId} and price > 0
                     order by id offset (a.n * 7) % greatest(1, (select count(*) from products where company_id = ${companyId} and price > 0)) limit 1) p on true
     where a.n % 3 = 0 and a.at < now()
    on conflict do nothing`);
}
