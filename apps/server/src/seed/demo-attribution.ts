import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { sandboxAdId } from '../integrations/meta/ads.js';
import { reattributeCompany } from '../modules/attribution/attribute.js';

/**
 * The demo's attribution (decisions 0096, 0097): a few people the massive sends reached ordered
 * from that chat the next day (so «Atribución» by send has sales), then every conversation and
 * order of the company attributed under the default settings (7 days, last touch) — the seed's
 * events are not delivered to the listener, so it runs what the listener would have.
 */
export async function seedDemoAttribution(db: Db, companyId: string): Promise<void> {
  // a third of the chats of people with no referral yet began with a click on a sandbox ad: the
  // referral their first message carried (its ctwa_clid), as the WhatsApp webhook keeps it
  const adIds = [sandboxAdId(0, 0), sandboxAdId(1, 0), sandboxAdId(2, 0), sandboxAdId(0, 1)];
  await db.execute(sql`insert into lead_referrals (company_id, lead_id, platform, message_id, referral, created_at)
    select ${companyId}, x.lead_id, x.platform, x.message_id,
           jsonb_build_object('sourceType', 'ad', 'sourceId', (${`{${adIds.join(',')}}`}::text[])[1 + (x.n / 3) % 4], 'ctwaClid', 'demo-chat-' || x.n), x.sent_at
      from (select c.lead_id, c.platform, m.id as message_id, m.sent_at, row_number() over (order by c.created_at, c.id) as n
              from chats c
              join lateral (select id, sent_at from chat_messages m where m.company_id = c.company_id and m.chat_id = c.id and m.direction = 'in' order by sent_at, id limit 1) m on true
             where c.company_id = ${companyId} and c.platform in ('whatsapp', 'facebook', 'instagram') and c.lead_id is not null
               and not exists (select 1 from lead_referrals r where r.company_id = c.company_id and r.lead_id = c.lead_id)) x
     where x.n % 3 = 1`);
  // half of them ordered in that chat the next day
  await db.execute(sql`insert into orders (company_id, code, status, source, customer_name, telefono, customer, shippment, items, subtotal, total, currency, lead_id, chat_id, created_at, updated_at)
    select ${companyId}, 'P-D' || lpad(x.n::text, 5, '0'), (array['done', 'paid', 'created', 'shipped'])[1 + x.n % 4], 'chat', x.name, x.telefono,
           jsonb_build_object('name', x.name, 'telefono', x.telefono), '{"method":"pickup"}'::jsonb,
           jsonb_build_array(jsonb_build_object('productId', p.id, 'sku', p.sku, 'name', p.name, 'quantity', 3, 'unitPrice', p.price, 'total', p.price * 3)),
           p.price * 3, p.price * 3, 'PEN', x.lead_id, m.chat_id, r_at + interval '22 hours', r_at + interval '23 hours'
      from (select r.lead_id, r.message_id, r.created_at as r_at, l.name, l.telefono, row_number() over (order by r.created_at, r.id) as n
              from lead_referrals r join leads l on l.company_id = r.company_id and l.id = r.lead_id
             where r.company_id = ${companyId} and r.message_id is not null and l.telefono ~ '^[0-9]{8,15}$') x
      join chat_messages m on m.company_id = ${companyId} and m.id = x.message_id
      join lateral (select id, sku, name, price from products where company_id = ${companyId} and price > 0 order by id offset x.n % 4 limit 1) p on true
     where x.n % 2 = 0 and r_at + interval '22 hours' < now()
    on conflict do nothing`);
  await db.execute(sql`insert into orders (company_id, code, status, source, customer_name, telefono, customer, shippment, items, subtotal, total, currency, lead_id, chat_id, created_at, updated_at)
    select ${companyId}, 'P-E' || lpad(x.n::text, 5, '0'), (array['paid', 'done', 'created'])[1 + x.n % 3], 'chat', x.name, x.phone,
           jsonb_build_object('name', x.name, 'telefono', x.phone), '{"method":"pickup"}'::jsonb,
           jsonb_build_array(jsonb_build_object('productId', p.id, 'sku', p.sku, 'name', p.name, 'quantity', 2, 'unitPrice', p.price, 'total', p.price * 2)),
           p.price * 2, p.price * 2, 'PEN', x.lead_id, x.chat_id, x.settled_at + interval '26 hours', x.settled_at + interval '27 hours'
      from (select r.name, r.phone, r.chat_id, r.settled_at, c.lead_id, row_number() over (order by r.settled_at, r.id) as n
              from send_recipients r join chats c on c.company_id = r.company_id and c.id = r.chat_id
             where r.company_id = ${companyId} and r.status = 'sent' and r.settled_at is not null and c.lead_id is not null
               and r.phone ~ '^[0-9]{8,15}$') x
      join lateral (select id, sku, name, price from products where company_id = ${companyId} and price > 0 order by id offset x.n % 5 limit 1) p on true
     where x.n % 2 = 1 and x.n <= 12 and x.settled_at + interval '26 hours' < now()
    on conflict do nothing`);
  await reattributeCompany(db, companyId);
}
