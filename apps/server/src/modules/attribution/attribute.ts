import { ATTRIBUTION_DEFAULT_WINDOW_DAYS, type AttributionModel } from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';

/**
 * Attribution (decision 0096): each order, and each conversation a customer started, to the last
 * (or first) touch before it within the company's window — an ad the person came from (a
 * click-to-WhatsApp / Messenger referral: its ad id and ctwa_clid) or a massive send that reached
 * them — else «Orgánico». Everything is computed from the tables, never from the event's payload:
 * the same event applied twice, or events applied out of order, write the same row.
 */

export interface AttributionSetting {
  windowDays: number;
  model: AttributionModel;
}

const asUuids = (ids: readonly string[]) => `{${ids.join(',')}}`;

export async function settingsOf(db: Pick<Db, 'execute'>, companyId: string): Promise<AttributionSetting> {
  const [row] = await rowsOf<{ window_days: number; model: AttributionModel }>(db, sql`select window_days, model from attribution_settings where company_id = ${companyId}`);
  return { windowDays: row?.window_days ?? ATTRIBUTION_DEFAULT_WINDOW_DAYS, model: row?.model ?? 'last' };
}

/**
 * The touch of a moment `at` of a person (`leadId`'s lead and every lead of the same clean lead,
 * `cleanLeadId`), as a lateral subquery: touches from `at − window` to `at`, both included; the
 * latest (last touch) or earliest (first touch); at the same instant an ad before a send, then by
 * id. An ad touch is a referral naming an ad (its `sourceId`, else `adId`), at its message's time
 * (else when it was kept); a send touch a send recipient that was sent to the person.
 */
function touchOf(companyId: string, leadId: SQL, cleanLeadId: SQL, at: SQL, setting: AttributionSetting): SQL {
  const since = sql`${at} - make_interval(days => ${setting.windowDays})`;
  const order = setting.model === 'first' ? sql`x.at asc` : sql`x.at desc`;
  return sql`lateral (
    select x.touch, x.at as touched_at, x.ad_id, x.ctwa_clid, x.send_id, x.chat_id from (
      select 'ad' as touch, 0 as prio, coalesce(m.sent_at, r.created_at) as at, r.id as tid, coalesce(r.referral->>'sourceId', r.referral->>'adId') as ad_id,
             r.referral->>'ctwaClid' as ctwa_clid, null::uuid as send_id, m.chat_id
        from lead_referrals r left join chat_messages m on m.company_id = r.company_id and m.id = r.message_id
       where r.company_id = ${companyId}
         and r.lead_id in (select pl.id from leads pl where pl.company_id = ${companyId} and (pl.id = ${leadId} or pl.clean_lead_id = ${cleanLeadId}))
         and coalesce(r.referral->>'sourceId', r.referral->>'adId') is not null
         and coalesce(m.sent_at, r.created_at) between ${since} and ${at}
      union all
      select 'send', 1, sr.settled_at, sr.id, null, null, sr.send_id, sr.chat_id
        from send_recipients sr
       where sr.company_id = ${companyId} and sr.status = 'sent' and sr.clean_lead_id = ${cleanLeadId}
         and sr.settled_at between ${since} and ${at}
    ) x order by ${order}, x.prio, x.tid limit 1
  )`;
}

/**
 * Attributes the company's orders `orderIds` again from their current state (an order gone is
 * skipped; its row went with it). `eventId`: the event being applied, kept on the row.
 */
export async function attributeOrders(db: Pick<Db, 'execute'>, companyId: string, orderIds: readonly string[], eventId: string | null, setting?: AttributionSetting): Promise<number> {
  if (!orderIds.length) return 0;
  const s = setting ?? (await settingsOf(db, companyId));
  const since = sql`o.created_at - make_interval(days => ${s.windowDays})`;
  const result = await db.execute(sql`
    with o as (
      select o.id, o.company_id, o.created_at, o.status, o.total, o.currency, o.chat_id, l.id as lead_id, l.clean_lead_id, l.agente_id as lead_agent
        from orders o
        left join chats oc on oc.company_id = o.company_id and oc.id = o.chat_id
        left join leads l on l.company_id = o.company_id and l.id = coalesce(o.lead_id, oc.lead_id)
       where o.company_id = ${companyId} and o.id = any(${asUuids(orderIds)}::uuid[])
    ), a as (
      select o.*, t.touch, t.touched_at, t.ad_id, t.ctwa_clid, t.send_id,
             coalesce(o.chat_id, t.chat_id, (
               select c.id from chats c join chat_windows w on w.chat_id = c.id
                where c.company_id = ${companyId} and o.lead_id is not null
                  and c.lead_id in (select pl.id from leads pl where pl.company_id = ${companyId} and (pl.id = o.lead_id or pl.clean_lead_id = o.clean_lead_id))
                  and c.created_at <= o.created_at and w.last_inbound_at >= ${since}
                order by c.created_at desc, c.id desc limit 1)) as conversation
        from o left join ${touchOf(companyId, sql`o.lead_id`, sql`o.clean_lead_id`, sql`o.created_at`, s)} t on true
    )
    insert into order_attributions as oa (company_id, order_id, chat_id, lead_id, ordered_at, conversation_started_at, touch, ad_id, ctwa_clid, send_id,
                                          agente_id, touched_at, model, window_days, status, total, currency, paid, event_id, updated_at)
    select a.company_id, a.id, a.conversation, a.lead_id, a.created_at,
           (select min(m.sent_at) from chat_messages m where m.company_id = a.company_id and m.chat_id = a.conversation and m.direction = 'in'),
           coalesce(a.touch, 'organic'), a.ad_id, a.ctwa_clid, a.send_id,
           coalesce((select c.agente_id from chats c where c.company_id = a.company_id and c.id = a.conversation), a.lead_agent),
           a.touched_at, ${s.model}, ${s.windowDays}, a.status, a.total, a.currency, a.status in ('paid', 'shipped', 'done'), ${eventId}::uuid, now()
      from a
    on conflict (company_id, order_id) do update set
      chat_id = excluded.chat_id, lead_id = excluded.lead_id, ordered_at = excluded.ordered_at, conversation_started_at = excluded.conversation_started_at,
      touch = excluded.touch, ad_id = excluded.ad_id, ctwa_clid = excluded.ctwa_clid, send_id = excluded.send_id, agente_id = excluded.agente_id,
      touched_at = excluded.touched_at, model = excluded.model, window_days = excluded.window_days, status = excluded.status, total = excluded.total,
      currency = excluded.currency, paid = excluded.paid, event_id = coalesce(excluded.event_id, oa.event_id), updated_at = now()`);
  return result.rowCount ?? 0;
}

/**
 * Attributes the company's conversations `chatIds` again: when the customer first wrote (a chat
 * where they never wrote is no conversation: none written), when a person of the team first
 * answered after it (an outbound message with its author, not a note, not failed), the touch
 * before the start, and the chat's agent (else its lead's).
 */
export async function attributeChats(db: Pick<Db, 'execute'>, companyId: string, chatIds: readonly string[], setting?: AttributionSetting): Promise<number> {
  if (!chatIds.length) return 0;
  const s = setting ?? (await settingsOf(db, companyId));
  const result = await db.execute(sql`
    with c as (
      select ch.id, ch.company_id, l.id as lead_id, l.clean_lead_id, coalesce(ch.agente_id, l.agente_id) as agente_id,
             (select min(m.sent_at) from chat_messages m where m.company_id = ch.company_id and m.chat_id = ch.id and m.direction = 'in') as started_at
        from chats ch left join leads l on l.company_id = ch.company_id and l.id = ch.lead_id
       where ch.company_id = ${companyId} and ch.id = any(${asUuids(chatIds)}::uuid[])
    )
    insert into conversation_attributions as ca (company_id, chat_id, lead_id, started_at, answered_at, touch, ad_id, ctwa_clid, send_id, agente_id, touched_at, updated_at)
    select c.company_id, c.id, c.lead_id, c.started_at,
           (select min(m.sent_at) from chat_messages m where m.company_id = c.company_id and m.chat_id = c.id and m.direction = 'out'
               and m.sent_by is not null and m.kind <> 'note' and m.status <> 'failed' and m.sent_at >= c.started_at),
           coalesce(t.touch, 'organic'), t.ad_id, t.ctwa_clid, t.send_id, c.agente_id, t.touched_at, now()
      from c left join ${touchOf(companyId, sql`c.lead_id`, sql`c.clean_lead_id`, sql`c.started_at`, s)} t on true
     where c.started_at is not null
    on conflict (company_id, chat_id) do update set
      lead_id = excluded.lead_id, started_at = excluded.started_at, answered_at = excluded.answered_at, touch = excluded.touch, ad_id = excluded.ad_id,
      ctwa_clid = excluded.ctwa_clid, send_id = excluded.send_id, agente_id = excluded.agente_id, touched_at = excluded.touched_at, updated_at = now()`);
  return result.rowCount ?? 0;
}

/** A person of the team answered in these chats: the conversations still unanswered get the time of the first answer. */
export async function noteAnswers(db: Pick<Db, 'execute'>, companyId: string, chatIds: readonly string[]): Promise<void> {
  if (!chatIds.length) return;
  await db.execute(sql`update conversation_attributions ca set answered_at = (
      select min(m.sent_at) from chat_messages m where m.company_id = ca.company_id and m.chat_id = ca.chat_id and m.direction = 'out'
         and m.sent_by is not null and m.kind <> 'note' and m.status <> 'failed' and m.sent_at >= ca.started_at), updated_at = now()
    where ca.company_id = ${companyId} and ca.chat_id = any(${asUuids(chatIds)}::uuid[]) and ca.answered_at is null`);
}

/** The chat's agent moved: its conversation follows (the orders keep the agent they were attributed with). */
export async function noteAssignments(db: Pick<Db, 'execute'>, companyId: string, chatIds: readonly string[]): Promise<void> {
  if (!chatIds.length) return;
  await db.execute(sql`update conversation_attributions ca set agente_id = coalesce(ch.agente_id, l.agente_id), updated_at = now()
      from chats ch left join leads l on l.company_id = ch.company_id and l.id = ch.lead_id
     where ca.company_id = ${companyId} and ca.chat_id = any(${asUuids(chatIds)}::uuid[]) and ch.company_id = ca.company_id and ch.id = ca.chat_id
       and ca.agente_id is distinct from coalesce(ch.agente_id, l.agente_id)`);
}

/** Of these chats, those that have no conversation row yet (a customer's message in them may start one). */
export async function chatsWithoutConversation(db: Pick<Db, 'execute'>, companyId: string, chatIds: readonly string[]): Promise<string[]> {
  if (!chatIds.length) return [];
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`select x.id::text from unnest(${asUuids(chatIds)}::uuid[]) as x(id)
         where not exists (select 1 from conversation_attributions ca where ca.company_id = ${companyId} and ca.chat_id = x.id)`,
  );
  return rows.map((r) => r.id);
}

const BATCH = 500;

/**
 * Attributes every conversation and order of the company again under its current settings (a
 * change of them, the demo seed, repair), a batch at a time in id order. Answers what it wrote.
 */
export async function reattributeCompany(db: Pick<Db, 'execute'>, companyId: string): Promise<{ conversations: number; orders: number }> {
  const setting = await settingsOf(db, companyId);
  let conversations = 0;
  let orders = 0;
  for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
    const ids = (await rowsOf<{ id: string }>(db, sql`select id::text from chats where company_id = ${companyId} and id > ${after}::uuid order by id limit ${BATCH}`)).map((r) => r.id);
    if (!ids.length) break;
    conversations += await attributeChats(db, companyId, ids, setting);
    after = ids[ids.length - 1];
  }
  for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
    const ids = (await rowsOf<{ id: string }>(db, sql`select id::text from orders where company_id = ${companyId} and id > ${after}::uuid order by id limit ${BATCH}`)).map((r) => r.id);
    if (!ids.length) break;
    orders += await attributeOrders(db, companyId, ids, null, setting);
    after = ids[ids.length - 1];
  }
  return { conversations, orders };
}
