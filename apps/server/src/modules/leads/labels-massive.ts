import { countries, SEGMENT_SAMPLE_SIZE, type SegmentFilters, type SegmentFrequency, successMessages, usdTo } from '@mostrador/contract';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { audit } from '../../db/audit.js';
import { currencyOf } from '../../db/company-currency.js';
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

/** Order statuses whose total is paid revenue (as the team metrics and the funnel count them). */
const PAID = sql.raw(`('paid', 'shipped', 'done')`);
/** Per-USD rates of the currencies the product knows (`usdTo`), as a relation `fx(currency, rate)`. */
const rates = () => sql.raw(`(values ${Object.entries(usdTo).map(([c, r]) => `('${c}', ${r}::numeric)`).join(', ')}) as fx(currency, rate)`);

/** What a segment's condition needs of its company: the calendar's time zone and the currency revenue is counted in. */
export interface SegmentScope {
  timezone: string;
  currency: string;
}
/** The company's time zone and the currency its money is shown in (`currencyOf`). */
export async function segmentScopeOf(db: Db, companyId: string): Promise<SegmentScope> {
  const [timezone, currency] = await Promise.all([timezoneOf(db, companyId), currencyOf(db, companyId)]);
  return { timezone, currency };
}

/**
 * What the customer did (decision 0101), as conditions on clean_leads correlated by its id and
 * company (another company's chats, analyses and orders never count): the sentiment and motive of
 * their latest analysed chat; no open complaint (a chat not closed whose analysis is negative or
 * about a «reclamo»); their orders (not cancelled) and paid revenue (paid, shipped, done; in the
 * company's currency, at the product's rates; an order in a currency without a rate adds
 * nothing); the company's calendar days since their last order and since their last message
 * (theirs, not ours). Someone without orders or messages has no «días desde»: such a filter
 * leaves them out.
 */
function customerConditions(f: SegmentFilters, { timezone, currency }: SegmentScope): SQL[] {
  const out: SQL[] = [];
  const today = sql`(now() at time zone ${timezone})::date`;
  // a local day's start as an instant: days since ≥ n ⇔ before the start of (today − n + 1); ≤ n ⇔ from the start of (today − n)
  const dayStart = (daysAgo: number) => sql`((${today} - ${daysAgo}::int)::timestamp at time zone ${timezone})`;
  const since = (ts: SQL, min?: number, max?: number) => [
    ...(min !== undefined ? [sql`${ts} < ${dayStart(min - 1)}`] : []),
    ...(max !== undefined ? [sql`${ts} >= ${dayStart(max)}`] : []),
  ];
  if (f.lastSentiments?.length || f.lastMotives?.length) {
    const wanted: SQL[] = [];
    if (f.lastSentiments?.length) wanted.push(sql`last.sentiment = any(${textArray(f.lastSentiments)})`);
    if (f.lastMotives?.length) wanted.push(sql`last.motive = any(${textArray(f.lastMotives)})`);
    out.push(sql`exists (select 1 from (select a.sentiment, a.motive
        from leads l join chats c on c.company_id = l.company_id and c.lead_id = l.id
        join chat_analyses a on a.company_id = c.company_id and a.chat_id = c.id
       where l.company_id = ${cl.companyId} and l.clean_lead_id = ${cl.id}
       order by a.last_message_at desc nulls last, a.analyzed_at desc limit 1) last
      where ${sql.join(wanted, sql` and `)})`);
  }
  if (f.excludeOpenComplaint) {
    out.push(sql`not exists (select 1
        from leads l join chats c on c.company_id = l.company_id and c.lead_id = l.id and c.status <> 'closed'
        join chat_analyses a on a.company_id = c.company_id and a.chat_id = c.id
       where l.company_id = ${cl.companyId} and l.clean_lead_id = ${cl.id} and (a.sentiment = 'negative' or a.motive = 'reclamo'))`);
  }
  const count = sql`count(*) filter (where o.status <> 'cancelled')`;
  const revenue = sql`coalesce(round(sum(o.total::numeric / fx.rate * ${Number(usdTo[currency] ?? 1)}::numeric) filter (where o.status in ${PAID}), 2), 0)`;
  const lastOrder = sql`max(o.created_at) filter (where o.status <> 'cancelled')`;
  const orderChecks = [
    ...(f.ordersMin !== undefined ? [sql`${count} >= ${f.ordersMin}`] : []),
    ...(f.ordersMax !== undefined ? [sql`${count} <= ${f.ordersMax}`] : []),
    ...(f.revenueMin !== undefined ? [sql`${revenue} >= ${f.revenueMin}::numeric`] : []),
    ...(f.revenueMax !== undefined ? [sql`${revenue} <= ${f.revenueMax}::numeric`] : []),
    ...since(lastOrder, f.daysSinceOrderMin, f.daysSinceOrderMax),
  ];
  if (orderChecks.length) {
    // one aggregate over the person's orders answers every order filter (no orders: 0 orders, 0 revenue, no last order)
    out.push(sql`coalesce((select ${sql.join(orderChecks, sql` and `)}
        from orders o join leads l on l.company_id = o.company_id and l.id = o.lead_id left join ${rates()} on fx.currency = o.currency
       where l.company_id = ${cl.companyId} and l.clean_lead_id = ${cl.id}), false)`);
  }
  const messageChecks = since(sql`max(m.sent_at)`, f.daysSinceMessageMin, f.daysSinceMessageMax);
  if (messageChecks.length) {
    out.push(sql`coalesce((select ${sql.join(messageChecks, sql` and `)}
        from leads l join chats c on c.company_id = l.company_id and c.lead_id = l.id
        join chat_messages m on m.company_id = c.company_id and m.chat_id = c.id and m.direction = 'in'
       where l.company_id = ${cl.companyId} and l.clean_lead_id = ${cl.id}), false)`);
  }
  return out;
}

/**
 * The clean leads of a segment, as a condition on clean_leads (decision 0039): any of its labels,
 * one of its statuses, a lead on one of its platforms (a clean lead is on a channel when one of
 * its leads is), one of its agents, a phone of one of its countries (by dialling code), created
 * between two calendar days of the company's time zone (inclusive), one of its frequency
 * preferences, and what the customer did (`customerConditions`, decision 0101). A segment without
 * filters is every clean lead of the company. Campaign chunks, massive sends, the preview, the
 * massive labels and the Mailchimp sync all read their people through this one condition.
 */
export function segmentCondition(filters: SegmentFilters | null | undefined, scope: SegmentScope = { timezone: 'America/Lima', currency: 'PEN' }): SQL {
  const conditions: SQL[] = [];
  const timezone = scope.timezone;
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
  if (filters) conditions.push(...customerConditions(filters, scope));
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
    const inSegment = and(eq(cl.companyId, tenant.companyId), segmentCondition(segment.filters as SegmentFilters | null, await segmentScopeOf(tx as unknown as Db, tenant.companyId))) as SQL;
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
  const where = and(eq(cl.companyId, tenant.companyId), segmentCondition(filters, await segmentScopeOf(db, tenant.companyId))) as SQL;
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
