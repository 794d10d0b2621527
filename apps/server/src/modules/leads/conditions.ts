import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { cleanLeadsTable, leadsTable } from '../../db/resource-tables.js';

const cl = cleanLeadsTable as unknown as Record<string, AnyPgColumn>;

/**
 * A clean lead is on a platform when one of its leads is: a condition on clean_leads (the
 * table itself, not an alias), for one platform or any of several.
 */
export function cleanLeadOnPlatform(platforms: string | readonly string[]): SQL {
  const list = typeof platforms === 'string' ? [platforms] : platforms;
  return sql`exists (select 1 from ${leadsTable} l where l.company_id = ${cl.companyId} and l.clean_lead_id = ${cl.id}
    and l.platform in (${sql.join(
      list.map((p) => sql`${p}`),
      sql`, `,
    )}))`;
}
