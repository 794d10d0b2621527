import type { SegmentFilters } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { segmentCondition, segmentScopeOf } from './labels-massive.js';

/**
 * How many of the company's clean leads a segment's filters pick now (in the company's time
 * zone), or, with `cleanLeadIds`, how many of those exist: the one count behind a campaign's plan
 * and a massive send's check.
 */
export async function segmentAudience(db: Db, companyId: string, filters: SegmentFilters | null, cleanLeadIds?: readonly string[]): Promise<number> {
  const where = cleanLeadIds
    ? cleanLeadIds.length
      ? sql`id in (${sql.join(
          cleanLeadIds.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql`false`
    : segmentCondition(filters, await segmentScopeOf(db, companyId));
  const [{ n }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from clean_leads where company_id = ${companyId} and ${where}`);
  return Number(n);
}
