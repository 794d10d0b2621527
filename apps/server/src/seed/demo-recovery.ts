import { RECOVERY_DEFAULT_TEXT } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';

/**
 * «Recuperar ventas» in the demo (decision 0089): the settings written but off (every test app
 * shares the demo company and runs the sweep when it starts), and the last five weeks of its history
 * — sixteen WhatsApp conversations followed up with their cart (a product of the default
 * catalogue), one in four bought within a day of it, a few skipped and why — so the list on
 * /automatizaciones and «Ventas recuperadas» on /metricas show what they do on a fresh start.
 */
export async function seedDemoRecovery(db: Db, companyId: string): Promise<void> {
  await db.execute(sql`insert into recovery_settings (company_id, enabled, after_hours, text) values (${companyId}, false, 4, ${RECOVERY_DEFAULT_TEXT})
      on conflict (company_id) do nothing`);
  await db.execute(sql`
    with chosen as (
      select c.id as chat_id, c.lead_id, c.contact_name, row_number() over (order by c.id) as n
        from chats c where c.company_id = ${companyId} and c.platform = 'whatsapp'
         and exists (select 1 from chat_messages m where m.company_id = c.company_id and m.chat_id = c.id and m.direction = 'in')
       order by c.id limit 20
    ), product as (
      select p.id, p.sku, p.name, p.price, row_number() over (order by p.name) as k, count(*) over () as total
        from catalogs k cross join lateral jsonb_array_elements_text(coalesce(k.product_ids, '[]'::jsonb)) e(id)
        join products p on p.company_id = k.company_id and p.id = e.id::uuid and (p.variants is null or jsonb_array_length(p.variants) = 0) and p.stock > 0
       where k.company_id = ${companyId} and k.is_default
    ), decided as (
      select ch.*, p.id as product_id, p.sku, p.name, p.price, 1 + ch.n % 2 as quantity,
             now() - make_interval(days => (ch.n * 2)::int, hours => (ch.n % 7)::int) as at,
             (select m.id from chat_messages m where m.company_id = ${companyId} and m.chat_id = ch.chat_id and m.direction = 'in' order by m.sent_at desc limit 1) as episode
        from chosen ch join product p on p.k = 1 + ch.n % p.total
    )
    insert into sales_followups (company_id, chat_id, lead_id, episode_message_id, status, kind, reason, products, cart_url, created_at)
    select ${companyId}, d.chat_id, d.lead_id, d.episode,
           case when d.n % 5 = 0 then 'skipped' else 'sent' end,
           case when d.n % 5 = 0 then null when d.n % 4 = 0 then 'template' else 'text' end,
           case when d.n % 10 = 0 then 'La conversación es negativa: pasó a un agente en vez de recibir un seguimiento'
                when d.n % 5 = 0 then 'La ventana de 24 horas está cerrada y no hay plantilla elegida' end,
           jsonb_build_array(jsonb_build_object('sku', d.sku, 'name', d.name, 'quantity', d.quantity, 'productId', d.product_id)),
           '/catalogo-digital/' || (select id from catalogs where company_id = ${companyId} and is_default limit 1) || '?carrito=' || d.sku || ':' || d.quantity,
           d.at
      from decided d where d.episode is not null
    on conflict do nothing`);
  // one in four of the people followed up bought within a day: the order of the chat, from its cart
  await db.execute(sql`insert into orders (company_id, code, status, source, customer_name, telefono, customer, shippment, items, subtotal, total, currency, lead_id, chat_id, created_at, updated_at)
    select ${companyId}, 'P-R' || lpad(x.n::text, 5, '0'), (array['paid','done','shipped','created'])[1 + x.n % 4], 'catalogo', x.name, x.telefono,
           jsonb_build_object('name', x.name, 'telefono', x.telefono), '{"method":"pickup"}'::jsonb,
           jsonb_build_array(jsonb_build_object('productId', p.id, 'sku', p.sku, 'name', p.name, 'quantity', x.quantity, 'unitPrice', p.price, 'total', p.price * x.quantity)),
           p.price * x.quantity, p.price * x.quantity, 'PEN', x.lead_id, x.chat_id, x.created_at + interval '5 hours', x.created_at + interval '6 hours'
      from (select f.chat_id, f.lead_id, f.created_at, (f.products->0->>'productId')::uuid as product_id, (f.products->0->>'quantity')::int as quantity,
                   coalesce(nullif(l.name, ''), c.contact_name, 'Cliente') as name, coalesce(l.telefono, '51999000111') as telefono,
                   row_number() over (order by f.created_at) as n
              from sales_followups f join chats c on c.id = f.chat_id left join leads l on l.id = f.lead_id
             where f.company_id = ${companyId} and f.status = 'sent') x
      join products p on p.company_id = ${companyId} and p.id = x.product_id
     where x.n % 4 = 1 and x.created_at + interval '5 hours' < now()
    on conflict do nothing`);
}
