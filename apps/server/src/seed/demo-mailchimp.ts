import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';
import { mailchimpLabelSyncs } from '../db/join-tables.js';
import { createMailchimpClient } from '../integrations/mailchimp/client.js';
import type { SecretBox } from '../lib/secret-box.js';
import { createMailchimpSync } from '../modules/mailchimp/sync.js';

/**
 * The demo's Mailchimp (decision 0051): the credentials are the resource's examples, whose keys
 * start with «sandbox» (they answer from the in-process sandbox, never the internet). Seeded
 * through the real sync engine against that sandbox: a pull of the first audience (its members in
 * «Contactos de Mailchimp»), and a labels sync of three days ago (the people with the two most used
 * labels, with its per-contact report: sent, no e-mail, opted out, refused by Mailchimp).
 */
export async function seedDemoMailchimp(db: Db, companyId: string, secrets: Pick<SecretBox, 'open'>): Promise<void> {
  const accounts = await rowsOf<{ id: string }>(db, sql`select id from mailchimps where company_id = ${companyId} order by name, id`);
  if (!accounts.length) return;
  const engine = createMailchimpSync({ db, secrets, client: createMailchimpClient(), log: { warn: () => {} } });
  const [pull] = await db.insert(mailchimpLabelSyncs).values({ companyId, kind: 'pull', mailchimpId: accounts[0].id, labelIds: [], count: 0 }).returning();
  await engine.run(pull.id);

  const labels = await rowsOf<{ id: string }>(
    db,
    sql`select l.id::text as id from mostrador_labels l
         where l.company_id = ${companyId}
         order by (select count(*) from clean_leads c where c.company_id = ${companyId} and c.mostrador_labels ? l.id::text) desc, l.name
         limit 2`,
  );
  if (!labels.length) return;
  const [sync] = await db
    .insert(mailchimpLabelSyncs)
    .values({ companyId, kind: 'labels', labelIds: labels.map((l) => l.id), count: 0 })
    .returning();
  await engine.run(sync.id);
  const ago = (days: number, minutes = 0) => sql`now() - make_interval(days => ${days}, mins => ${minutes})`;
  await db.execute(sql`update mailchimp_label_syncs set created_at = ${ago(3, 2)}, started_at = ${ago(3, 1)}, processed_at = ${ago(3)} where id = ${sync.id}`);
  await db.execute(sql`update mailchimp_sync_contacts set at = ${ago(3, 1)} where sync_id = ${sync.id}`);
  await db.execute(sql`update mailchimp_label_syncs set created_at = ${ago(5, 1)}, started_at = ${ago(5, 1)}, processed_at = ${ago(5)} where id = ${pull.id}`);
}
