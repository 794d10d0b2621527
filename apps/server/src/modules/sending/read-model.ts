import type { RecipientOut, RecipientStatus, SendCounts, SendOut, SendStatus } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { containsPattern } from '../../lib/list.js';
import type { Realtime } from '../../lib/realtime.js';
import type { SendContent } from './planning.js';

/**
 * The sends as they are read (issue 13, decisions 0041 and 0042): a send and its live counts, a
 * send's recipients as the report lists them, the send of a massive history row. Plain queries
 * over the database: reading a send needs no engine (the runner, runner.ts, writes them).
 */

type Row = Record<string, unknown>;
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : undefined);

/** A row of `sends`. */
export interface SendRow extends Row {
  id: string;
  company_id: string;
  kind: 'campaign' | 'massive';
  campaign_id: string | null;
  chunk_page: number | null;
  chunk_size: number | null;
  segment_id: string | null;
  name: string;
  status: SendStatus;
  content: SendContent;
  planned: boolean;
  stop_requested: boolean;
  error: string | null;
  scheduled_at: Date | string | null;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  created_by: string | null;
  created_at: Date | string;
}

/** Each send's recipients by status; a sent one counts as what the provider reported since (delivered, read, failed). */
export async function countsOf(db: Db, sendIds: string[]): Promise<Map<string, SendCounts>> {
  const map = new Map<string, SendCounts>();
  if (!sendIds.length) return map;
  const rows = await rowsOf<{ send_id: string; status: string; n: number }>(
    db,
    sql`select r.send_id, case when r.status = 'sent' and m.status in ('delivered', 'read', 'failed') then m.status else r.status end as status, count(*)::int as n
        from send_recipients r left join chat_messages m on r.status = 'sent' and m.id = r.id
        where r.send_id in (${sql.join(sendIds.map((id) => sql`${id}`), sql`, `)})
        group by 1, 2`,
  );
  for (const id of sendIds) map.set(id, { total: 0, queued: 0, sending: 0, skipped: 0, sent: 0, delivered: 0, read: 0, failed: 0 });
  for (const r of rows) {
    const c = map.get(r.send_id) as SendCounts;
    c[r.status as keyof SendCounts] = (c[r.status as keyof SendCounts] ?? 0) + Number(r.n);
    c.total += Number(r.n);
  }
  return map;
}

export function toSendOut(s: SendRow, counts: SendCounts): SendOut {
  return {
    _id: s.id,
    kind: s.kind,
    ...(s.campaign_id ? { campaignId: s.campaign_id } : {}),
    ...(s.chunk_page !== null ? { chunkPage: s.chunk_page } : {}),
    ...(s.chunk_size !== null ? { chunkSize: s.chunk_size } : {}),
    name: s.name,
    // a chunk finished sent can learn later, from the status webhooks, that some never arrived
    status: s.status === 'sent' && counts.failed > 0 ? (counts.sent + counts.delivered + counts.read > 0 ? 'sent_with_some_errors' : 'error') : s.status,
    counts,
    ...(s.scheduled_at ? { scheduledAt: iso(s.scheduled_at) } : {}),
    ...(s.started_at ? { startedAt: iso(s.started_at) } : {}),
    ...(s.finished_at ? { finishedAt: iso(s.finished_at) } : {}),
    stopRequested: s.stop_requested,
    ...(s.error ? { error: s.error } : {}),
    createdAt: iso(s.created_at) as string,
  };
}

export async function sendsOut(db: Db, rows: SendRow[]): Promise<SendOut[]> {
  const counts = await countsOf(db, rows.map((r) => r.id));
  return rows.map((r) => toSendOut(r, counts.get(r.id) as SendCounts));
}

export async function sendRow(db: Db, companyId: string, id: string): Promise<SendRow | undefined> {
  const [row] = await rowsOf<SendRow>(db, sql`select * from sends where company_id = ${companyId} and id = ${id}`);
  return row;
}

/** The send a massive history row is (through sends.content->>'logId'), company-scoped; undefined for one older than the engine. */
export async function sendOfMassiveLog(db: Db, companyId: string, logId: string): Promise<SendOut | undefined> {
  const [send] = await rowsOf<SendRow>(
    db,
    sql`select * from sends where company_id = ${companyId} and kind = 'massive' and content->>'logId' = ${logId} order by created_at desc limit 1`,
  );
  return send ? (await sendsOut(db, [send]))[0] : undefined;
}

/** Tells the company's browsers where these sends are now (`send.progress`); a failed publish is logged, never thrown. */
export async function publishSends(
  deps: { db: Db; realtime: Pick<Realtime, 'publish'>; log: { warn: (obj: unknown, msg?: string) => void } },
  companyId: string,
  ids: string[],
): Promise<void> {
  const { db, realtime, log } = deps;
  if (!ids.length) return;
  const rows = await rowsOf<SendRow>(db, sql`select * from sends where company_id = ${companyId} and id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  for (const send of await sendsOut(db, rows)) {
    await realtime.publish(companyId, { type: 'send.progress', send }).catch((error: unknown) => log.warn({ err: error }, 'no se pudo publicar el avance del envío'));
  }
}

/**
 * A send's recipients as the report lists them: the provider's later statuses come from the chat
 * message. `q`: a name or phone containing it. Also the massive history's report (decision 0042).
 */
export async function recipientsOf(db: Db, companyId: string, sendId: string, filter: { status?: RecipientStatus; q?: string }, offset: number, limit: number) {
  const status = sql`(case when r.status = 'sent' and m.status in ('delivered', 'read', 'failed') then m.status else r.status end)`;
  const q = filter.q?.trim() ? containsPattern(filter.q.trim()) : undefined;
  const where = sql`r.company_id = ${companyId} and r.send_id = ${sendId}${filter.status ? sql` and ${status} = ${filter.status}` : sql``}${q ? sql` and (r.name ilike ${q} or r.phone ilike ${q})` : sql``}`;
  const rows = await rowsOf<{ id: string; clean_lead_id: string; name: string; phone: string | null; chat_id: string | null; status: RecipientStatus; reason: string | null; attempts: number; sent_at: Date | string | null; updated_at: Date | string; total: number }>(
    db,
    sql`select r.id, r.clean_lead_id, r.name, r.phone, r.chat_id, ${status} as status,
               coalesce(case when m.status = 'failed' then m.status_error end, r.reason) as reason, r.attempts,
               case when r.status = 'sent' then r.settled_at end as sent_at, greatest(r.updated_at, m.updated_at) as updated_at,
               count(*) over ()::int as total
        from send_recipients r left join chat_messages m on m.company_id = r.company_id and m.id = r.id
        where ${where} order by r.position limit ${limit} offset ${offset}`,
  );
  const out: RecipientOut[] = rows.map((r) => ({
    _id: r.id,
    cleanLeadId: r.clean_lead_id,
    name: r.name,
    ...(r.phone ? { telefono: r.phone } : {}),
    ...(r.chat_id ? { chatId: r.chat_id } : {}),
    status: r.status,
    ...(r.reason ? { reason: r.reason } : {}),
    attempts: Number(r.attempts),
    ...(r.sent_at ? { sentAt: iso(r.sent_at) } : {}),
    updatedAt: iso(r.updated_at) as string,
  }));
  let total = rows[0]?.total;
  if (total === undefined) [{ total }] = await rowsOf<{ total: number }>(db, sql`select count(*)::int as total from send_recipients r left join chat_messages m on m.id = r.id where ${where}`);
  return { rows: out, total: Number(total) };
}
