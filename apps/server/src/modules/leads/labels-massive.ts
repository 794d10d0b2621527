import { type LeadPlatform, type LeadStatus, successMessages } from '@mostrador/contract';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { mailchimpLabelSyncs } from '../../db/join-tables.js';
import { cleanLeadsTable, marketingSegmentsTable } from '../../db/resource-tables.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { textArray } from '../../resources/repository.js';
import { assertCompanyLabels } from './audience.js';
import { cleanLeadOnPlatform } from './conditions.js';

export const MAILCHIMP_SYNC_QUEUE = 'mailchimp.sync-labels';

/** A segment's filters (marketing-segments): each optional, combined with AND. */
export interface SegmentFilters {
  mostradorLabelIds?: string[];
  statuses?: LeadStatus[];
  platforms?: LeadPlatform[];
}

const cl = cleanLeadsTable as unknown as Record<string, AnyPgColumn>;

/**
 * The clean leads of a segment, as a condition on clean_leads: any of its labels, one of its
 * statuses, and a lead on one of its platforms (a clean lead is on a channel when one of its
 * leads is). A segment without filters is every clean lead of the company.
 */
export function segmentCondition(filters: SegmentFilters | null | undefined): SQL {
  const conditions: SQL[] = [];
  if (filters?.mostradorLabelIds?.length) conditions.push(sql`${cl.mostradorLabels} ?| ${textArray(filters.mostradorLabelIds)}`);
  if (filters?.statuses?.length) conditions.push(inArray(cl.status, filters.statuses));
  if (filters?.platforms?.length) conditions.push(cleanLeadOnPlatform(filters.platforms));
  return conditions.length ? (and(...conditions) as SQL) : sql`true`;
}

/**
 * POST /clean-leads/set_mostrador_labels_massive: adds the labels to every clean lead of the
 * segment in one statement (a union: existing labels keep their order, new ones follow, none
 * twice). Only clean leads missing one of them change (updatedAt too); `updated` counts them.
 * hasToSendToMailchimp records a Mailchimp sync of the segment and queues it.
 */
export async function setLabelsMassive(
  db: Db,
  jobs: JobQueue,
  tenant: Tenant,
  input: { segmentId: string; mostradorLabelIds: string[]; hasToSendToMailchimp?: boolean },
) {
  const labels = [...new Set(input.mostradorLabelIds)];
  const result = await db.transaction(async (tx) => {
    const [segment] = await tx
      .select({ id: marketingSegmentsTable.id, filters: (marketingSegmentsTable as unknown as Record<string, AnyPgColumn>).filters })
      .from(marketingSegmentsTable)
      .where(and(eq(marketingSegmentsTable.companyId, tenant.companyId), eq(marketingSegmentsTable.id, input.segmentId)));
    if (!segment) throw new AppError('VALIDATION', 'El segmento no existe en esta compañía', [{ path: 'segmentId', msg: 'No existe en esta compañía' }]);
    await assertCompanyLabels(tx, tenant, labels, 'mostradorLabelIds');
    const inSegment = and(eq(cl.companyId, tenant.companyId), segmentCondition(segment.filters as SegmentFilters | null)) as SQL;
    const wanted = textArray(labels);
    const current = sql`coalesce(${cl.mostradorLabels}, '[]'::jsonb)`;
    const updated = await tx.execute(sql`
      update ${cleanLeadsTable}
         set mostrador_labels = ${current} || coalesce(
               (select jsonb_agg(u.id order by u.n) from unnest(${wanted}) with ordinality as u(id, n) where not ${current} ? u.id),
               '[]'::jsonb),
             updated_at = now()
       where ${inSegment} and not ${current} @> to_jsonb(${wanted})`);
    let syncId: string | undefined;
    if (input.hasToSendToMailchimp) {
      const { rows } = await tx.execute<{ n: number }>(sql`select count(*)::int as n from ${cleanLeadsTable} where ${inSegment}`);
      const [sync] = await tx
        .insert(mailchimpLabelSyncs)
        .values({ companyId: tenant.companyId, segmentId: segment.id as string, labelIds: labels, count: rows[0]?.n ?? 0, createdBy: tenant.userId })
        .returning({ id: mailchimpLabelSyncs.id });
      syncId = sync.id;
    }
    return { updated: updated.rowCount ?? 0, syncId };
  });
  // recorded in the transaction; queued after it commits (a crash in between is re-queued on start)
  if (result.syncId) await jobs.send(MAILCHIMP_SYNC_QUEUE, { syncId: result.syncId }, { singletonKey: result.syncId });
  return { msg: successMessages.updated, updated: result.updated, ...(result.syncId ? { mailchimpSyncId: result.syncId } : {}) };
}

/**
 * The `mailchimp.sync-labels` job. The Mailchimp integration (tags per member) does not exist
 * yet: the job marks the sync 'pendiente-de-integracion' and sends nothing.
 */
export async function processMailchimpSync(db: Db, syncId: string): Promise<void> {
  await db
    .update(mailchimpLabelSyncs)
    .set({ status: 'pendiente-de-integracion', processedAt: new Date() })
    .where(and(eq(mailchimpLabelSyncs.id, syncId), eq(mailchimpLabelSyncs.status, 'queued')));
}

export async function queuedMailchimpSyncs(db: Db): Promise<string[]> {
  const rows = await db.select({ id: mailchimpLabelSyncs.id }).from(mailchimpLabelSyncs).where(eq(mailchimpLabelSyncs.status, 'queued'));
  return rows.map((r) => r.id);
}
