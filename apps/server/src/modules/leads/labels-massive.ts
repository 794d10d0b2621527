import { countries, SEGMENT_SAMPLE_SIZE, type SegmentFilters, type SegmentFrequency, successMessages } from '@mostrador/contract';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { audit } from '../../db/audit.js';
import type { Db } from '../../db/database.js';
import { mailchimpLabelSyncs } from '../../db/join-tables.js';
import { agentesTable, cleanLeadsTable, marketingSegmentsTable } from '../../db/resource-tables.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { textArray } from '../../resources/repository.js';
import { assertCompanyLabels } from './audience.js';
import { cleanLeadOnPlatform } from './conditions.js';
import { MAILCHIMP_SYNC_QUEUE } from './jobs.js';
import { timezoneOf } from './summary.js';

// the mailchimp module queues its syncs by this name, imported from here
export { MAILCHIMP_SYNC_QUEUE } from './jobs.js';

export type { SegmentFilters } from '@mostrador/contract';

const cl = cleanLeadsTable as unknown as Record<string, AnyPgColumn>;

/** A frequency preference as a condition on the stored fields, as /dias-frecuencia reads them (`choiceOf`: the nearest option). */
function frequencyCondition(f: SegmentFrequency): SQL {
  const days = cl.contactFrequencyDays;
  const notOut = sql`coalesce(${cl.optOut}, false) = false`;
  if (f === 'opt-out') return sql`coalesce(${cl.optOut}, false) = true`;
  if (f === 'none') return sql`(${notOut} and ${days} is null)`;
  if (f === 'weekly') return sql`(${notOut} and ${days} <= 11)`;
  if (f === 'biweekly') return sql`(${notOut} and ${days} between 12 and 22)`;
  return sql`(${notOut} and ${days} >= 23)`;
}

/**
 * The clean leads of a segment, as a condition on clean_leads (decision 0039): any of its labels,
 * one of its statuses, a lead on one of its platforms (a clean lead is on a channel when one of
 * its leads is), one of its agents, a phone of one of its countries (by dialling code), created
 * between two calendar days of `timezone` (inclusive), one of its frequency preferences. A
 * segment without filters is every clean lead of the company.
 */
export function segmentCondition(filters: SegmentFilters | null | undefined, timezone = 'America/Lima'): SQL {
  const conditions: SQL[] = [];
  if (filters?.mostradorLabelIds?.length) conditions.push(sql`${cl.mostradorLabels} ?| ${textArray(filters.mostradorLabelIds)}`);
  if (filters?.statuses?.length) conditions.push(inArray(cl.status, filters.statuses));
  if (filters?.platforms?.length) conditions.push(cleanLeadOnPlatform(filters.platforms));
  if (filters?.agenteIds?.length) conditions.push(inArray(cl.agenteId, filters.agenteIds));
  if (filters?.countries?.length) {
    const dials = countries.filter((c) => (filters.countries as string[]).includes(c.code)).map((c) => sql`${cl.telefono} like ${`${c.dial}%`}`);
    conditions.push(sql`(${sql.join(dials, sql` or `)})`);
  }
  if (filters?.createdFrom) conditions.push(sql`${cl.createdAt} >= (${filters.createdFrom}::date)::timestamp at time zone ${timezone}`);
  if (filters?.createdTo) conditions.push(sql`${cl.createdAt} < (${filters.createdTo}::date + 1)::timestamp at time zone ${timezone}`);
  if (filters?.frequencies?.length) conditions.push(sql`(${sql.join(filters.frequencies.map(frequencyCondition), sql` or `)})`);
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
    const inSegment = and(eq(cl.companyId, tenant.companyId), segmentCondition(segment.filters as SegmentFilters | null, await timezoneOf(tx as unknown as Db, tenant.companyId))) as SQL;
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
    // the segment's people labelled, and the Mailchimp sync asked for, in the change's transaction (decision 0072)
    await audit(tx, {
      companyId: tenant.companyId,
      action: 'update',
      entity: 'marketing-segments',
      entityId: segment.id as string,
      changes: { mostradorLabelsAdded: { from: null, to: labels }, cleanLeadsUpdated: { from: null, to: updated.rowCount ?? 0 } },
    });
    if (syncId) await audit(tx, { companyId: tenant.companyId, action: 'sync', entity: 'marketing-segments', entityId: segment.id as string, changes: { mailchimpSync: { from: null, to: syncId } } });
    return { updated: updated.rowCount ?? 0, syncId };
  });
  // recorded in the transaction; queued after it commits (a crash in between is re-queued on start)
  if (result.syncId) await jobs.send(MAILCHIMP_SYNC_QUEUE, { syncId: result.syncId }, { singletonKey: result.syncId });
  return { msg: successMessages.updated, updated: result.updated, ...(result.syncId ? { mailchimpSyncId: result.syncId } : {}) };
}

/**
 * What runs a `mailchimp.sync-labels` job of one database: the Mailchimp module (decision 0051)
 * registers its sync engine here, so the queue declared with the leads runs it.
 */
const mailchimpRunners = new WeakMap<Db, (syncId: string) => Promise<void>>();
export function setMailchimpSyncRunner(db: Db, run: (syncId: string) => Promise<void>) {
  mailchimpRunners.set(db, run);
}

/** The `mailchimp.sync-labels` job: the labels sync (or an audience's pull) of decision 0051, resumed where it stopped. */
export async function processMailchimpSync(db: Db, syncId: string): Promise<void> {
  const run = mailchimpRunners.get(db);
  if (!run) throw new Error('La integración de Mailchimp no está registrada');
  await run(syncId);
}

/** Syncs to queue again on start: recorded but never queued, or left running by a stopped process. */
export async function queuedMailchimpSyncs(db: Db): Promise<string[]> {
  const rows = await db.select({ id: mailchimpLabelSyncs.id }).from(mailchimpLabelSyncs).where(inArray(mailchimpLabelSyncs.status, ['queued', 'running']));
  return rows.map((r) => r.id);
}

/**
 * POST /marketing-segments/preview (decision 0039): how many of the company's clean leads a
 * segment's filters pick, and the most recently updated of them, as the segment is edited. Label
 * and agent ids must be the company's (a foreign one is a 400, never an empty answer).
 */
export async function previewSegment(db: Db, tenant: Tenant, filters: SegmentFilters) {
  await assertCompanyLabels(db, tenant, filters.mostradorLabelIds ?? [], 'filters.mostradorLabelIds');
  const agents = [...new Set(filters.agenteIds ?? [])];
  if (agents.length) {
    const ag = agentesTable as unknown as Record<string, AnyPgColumn>;
    const found = await db.select({ id: ag.id }).from(agentesTable).where(and(eq(ag.companyId, tenant.companyId), inArray(ag.id, agents)));
    if (found.length < agents.length) throw new AppError('VALIDATION', 'Algún agente no existe en esta compañía', [{ path: 'filters.agenteIds', msg: 'No existe en esta compañía' }]);
  }
  const where = and(eq(cl.companyId, tenant.companyId), segmentCondition(filters, await timezoneOf(db, tenant.companyId))) as SQL;
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(cleanLeadsTable).where(where);
  const rows = (await db
    .select({ id: cl.id, name: cl.name, telefono: cl.telefono, email: cl.email, status: cl.status, agenteId: cl.agenteId, updatedAt: cl.updatedAt })
    .from(cleanLeadsTable)
    .where(where)
    .orderBy(desc(cl.updatedAt), desc(cl.id))
    .limit(SEGMENT_SAMPLE_SIZE)) as Array<{ id: string; name: string; telefono: string | null; email: string | null; status: string; agenteId: string | null; updatedAt: Date }>;
  return {
    count: Number(n),
    sample: rows.map((r) => ({
      _id: r.id,
      name: r.name,
      ...(r.telefono ? { telefono: r.telefono } : {}),
      ...(r.email ? { email: r.email } : {}),
      status: r.status,
      ...(r.agenteId ? { agenteId: r.agenteId } : {}),
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}
