import type { ChatProductsContent } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';

/** The demo line's Meta commerce catalogue (the sandbox's: nothing reaches Meta). */
export const DEMO_META_CATALOG_ID = '1839204756102938';

/**
 * Products in the demo's conversations (issue 30, decisions 0085 and 0086): the sandbox WhatsApp
 * line keeps a Meta catalogue already synced — the products with a picture accepted, those
 * without one refused with the reason — and two WhatsApp chats show products the agent sent
 * (one card, a list of three), read by the customer. Idempotent: a line with a catalogue is left alone.
 */
export async function seedDemoMetaCatalog(db: Db, companyId: string): Promise<void> {
  const [line] = await rowsOf<{ id: string }>(db, sql`select id from channels where company_id = ${companyId} and kind = 'whatsapp'`);
  if (!line) return;
  const [catalog] = await rowsOf<{ id: string }>(
    db,
    sql`insert into meta_catalogs (company_id, channel_id, catalog_id, sync_status, sync_total, sync_processed, sync_sent, sync_failed, sync_message, sync_started_at, sync_finished_at)
        select ${companyId}, ${line.id}, ${DEMO_META_CATALOG_ID}, 'done', n, n, n, 0, 'Catálogo sincronizado con Meta (sandbox)', now() - interval '2 hours', now() - interval '2 hours'
          from (select count(*)::int as n from products where company_id = ${companyId} and image_url is not null) x
        on conflict (channel_id) do nothing returning id`,
  );
  if (!catalog) return;
  await db.execute(sql`insert into meta_catalog_items (company_id, meta_catalog_id, product_id, retailer_id, hash, status, error, synced_at)
      select ${companyId}, ${catalog.id}, p.id, p.sku, null,
             case when p.image_url is null then 'error' else 'accepted' end,
             case when p.image_url is null then 'Falta la imagen del producto: Meta la exige para publicarlo' end,
             now() - interval '2 hours'
        from products p where p.company_id = ${companyId}
      on conflict do nothing`);

  const products = await rowsOf<{ id: string; sku: string; name: string; price: string; image_url: string; category: string | null }>(
    db,
    sql`select p.id::text as id, p.sku, p.name, p.price, p.image_url, c.name as category from products p
        left join categories c on c.company_id = p.company_id and c.id = p.category_id
        where p.company_id = ${companyId} and p.image_url is not null order by p.name limit 4`,
  );
  const chats = await rowsOf<{ id: string; last_message_at: string | null }>(
    db,
    sql`select id, last_message_at from chats where company_id = ${companyId} and platform = 'whatsapp'
        and exists (select 1 from chat_messages m where m.chat_id = chats.id) order by last_message_at desc nulls last, id limit 2`,
  );
  if (products.length < 4 || chats.length < 2) return;
  const [shop] = await rowsOf<{ id: string }>(db, sql`select id from catalogs where company_id = ${companyId} and is_default limit 1`);
  const link = shop ? `http://localhost:3000/catalogo-digital/${shop.id}` : undefined;
  const item = (p: (typeof products)[number]) => ({
    id: p.id,
    sku: p.sku,
    name: p.name,
    price: Number(p.price),
    currency: 'PEN',
    image: p.image_url,
    ...(p.category ? { category: p.category } : {}),
    ...(link ? { link } : {}),
  });
  const sends: Array<{ chat: (typeof chats)[number]; text: string | null; products: ChatProductsContent }> = [
    { chat: chats[0], text: 'Este es el que te comenté 👇', products: { catalogId: DEMO_META_CATALOG_ID, items: [item(products[0])] } },
    { chat: chats[1], text: 'Te dejo las opciones que tenemos hoy', products: { catalogId: DEMO_META_CATALOG_ID, items: products.slice(1, 4).map(item) } },
  ];
  for (const s of sends) {
    // before the chat's latest message: the seeded previews and unread counts stay as they are
    const at = new Date((s.chat.last_message_at ? Date.parse(s.chat.last_message_at) : Date.now()) - 20 * 60_000).toISOString();
    await db.execute(sql`insert into chat_messages (company_id, chat_id, direction, kind, text, content, provider_message_id, status, sent_at)
        values (${companyId}, ${s.chat.id}, 'out', 'interactive', ${s.text}, ${JSON.stringify({ products: s.products })}::jsonb,
                ${`wamid.SANDBOXPRODUCTOS${s.chat.id.replace(/-/g, '').slice(0, 16).toUpperCase()}`}, 'read', ${at})`);
  }
}
