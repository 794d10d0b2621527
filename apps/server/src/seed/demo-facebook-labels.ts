import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';

/**
 * The demo's page labels on people (decision 0057): «Cliente nuevo» and «Venta cerrada», two of
 * the sandbox page's labels, stand for the two Mostrador labels its Messenger leads carry most, so
 * those people should carry them at the page too. No lead changes: what each should carry is
 * recorded as the leads' trigger would, and the labels' job puts it on the sandbox page when the
 * server starts — /etiquetas-facebook shows how many people each label is on.
 */
export async function seedDemoFacebookLabelPeople(db: Db, companyId: string): Promise<void> {
  const { rows } = await db.execute<{ id: string }>(sql`
    select m.id::text as id from leads l cross join lateral jsonb_array_elements_text(l.mostrador_labels) x
      join mostrador_labels m on m.company_id = l.company_id and m.id::text = x
     where l.company_id = ${companyId} and l.platform = 'facebook' and coalesce(l.platform_user_id, '') <> '' and jsonb_typeof(l.mostrador_labels) = 'array'
     group by m.id order by count(*) desc, m.id limit 2`);
  for (const [i, page] of ['Cliente nuevo', 'Venta cerrada'].entries()) {
    if (!rows[i]) break;
    await db.execute(sql`update facebook_labels set foreign_label_id = ${rows[i].id}::uuid where company_id = ${companyId} and name = ${page} and facebook_label_id is not null`);
  }
  await db.execute(sql`select mostrador_facebook_label_refresh(company_id, id) from leads
                        where company_id = ${companyId} and platform = 'facebook' and coalesce(platform_user_id, '') <> ''`);
  await db.execute(sql`update facebook_label_people set applied = wanted, due_at = null, sent_at = now() where company_id = ${companyId}`);
}
