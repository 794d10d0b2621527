import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';

/**
 * The demo's Facebook audiences (decision 0048): «Clientes recurrentes» got the leads of the
 * demo's busiest label in two sends (a month ago, then «solo los que faltan» ten days ago), its
 * people members; the leads labelled since are still missing, for «Solo los que faltan» to find.
 * The uploads went to the sandbox ad account (seed/demo-ads.ts), as a new one does.
 */
export async function seedDemoAudiences(db: Db, companyId: string, now = new Date()): Promise<void> {
  const { rows: labels } = await db.execute<{ id: string }>(sql`
    select ml.id from mostrador_labels ml
     where ml.company_id = ${companyId}
     order by (select count(*) from leads l where l.company_id = ml.company_id and l.mostrador_labels ? ml.id::text
                 and (coalesce(l.email, '') <> '' or coalesce(l.telefono, '') <> '')) desc, ml.name
     limit 1`);
  const { rows: audiences } = await db.execute<{
    id: string;
    facebook_audience_id: string | null;
  }>(sql`select id, facebook_audience_id from facebook_audiences where company_id = ${companyId} and name = 'Clientes recurrentes'`);
  const label = labels[0]?.id;
  const audience = audiences[0];
  if (!label || !audience) return;
  const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  const windows = [
    { at: ago(30), until: ago(30), missing: false },
    { at: ago(10), until: ago(10), missing: true },
  ];
  for (const w of windows) {
    // the labelled leads that existed then and were not members yet
    const picked = sql`select l.id, (coalesce(l.email, '') <> '' or coalesce(l.telefono, '') <> '') as reachable from leads l
      where l.company_id = ${companyId} and l.mostrador_labels ? ${label} and l.created_at <= ${w.until}::timestamptz
        and not exists (select 1 from audience_members m where m.company_id = l.company_id and m.audience_id = ${audience.id} and m.lead_id = l.id)`;
    const { rows } = await db.execute<{ n: number; reachable: number }>(sql`select count(*)::int as n, (count(*) filter (where p.reachable))::int as reachable from (${picked}) p`);
    const n = rows[0]?.n ?? 0;
    const reachable = rows[0]?.reachable ?? 0;
    if (reachable === 0) continue;
    const invalid = Math.floor(reachable / 90);
    const { rows: sends } = await db.execute<{ id: string }>(sql`
      insert into audience_sends (company_id, kind, audience_id, facebook_audience_id, labels, show_missing_leads, count, marked, status,
                                  total, sent, received, invalid, skipped, batches_done, batches_total, session_seq, created_by, created_at, processed_at, finished_at)
      values (${companyId}, 'leads', ${audience.id}, ${audience.facebook_audience_id}, ${JSON.stringify([label])}::jsonb, ${w.missing}, ${n}, ${reachable}, 'finished',
              ${reachable}, ${reachable}, ${reachable}, ${invalid}, ${n - reachable}, 1, 1, 1,
              (select u.id from users u join memberships uc on uc.user_id = u.id where uc.company_id = ${companyId} order by u.email limit 1),
              ${w.at}::timestamptz, ${w.at}::timestamptz, ${w.at}::timestamptz + interval '40 seconds')
      returning id`);
    await db.execute(sql`insert into audience_members (company_id, audience_id, lead_id, send_id, created_at)
      select ${companyId}, ${audience.id}, p.id, ${sends[0].id}, ${w.at}::timestamptz from (${picked}) p where p.reachable`);
    await db.execute(sql`update leads set audience_id = ${audience.id}
      where company_id = ${companyId} and id in (select lead_id from audience_members where send_id = ${sends[0].id})`);
  }
}
