import {
  type ChatInboxQuery,
  type ChatMessage,
  type ChatMessageKind,
  type ChatMessageStatus,
  type ChatStatus,
  type ChatSummary,
  type ChatThread,
  type InboxCounts,
  type LeadStatus,
  type MessageContent,
  type Page,
  type Platform,
  WHATSAPP_WINDOW_HOURS,
} from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { containsPattern, decodeCursor, encodeCursor, pageResult } from '../../lib/list.js';
import { type InboxScope, visibleAgent } from '../../resources/owned-rows.js';

/**
 * The chat reads (SPEC §7 Chats): the inbox, a chat's summary, threads and messages, scoped
 * to one company here and only here. A chat's lead comes from one join by primary key and its
 * WhatsApp window from chat_windows (the last customer message, kept by the webhook job), so
 * a page never looks through chat_messages. Ids of another company do not exist (404).
 */

export const notFound = {
  chat: () => new AppError('NOT_FOUND', 'El chat no existe en esta compañía'),
  message: () => new AppError('NOT_FOUND', 'El mensaje no existe en esta compañía'),
  lead: () => new AppError('NOT_FOUND', 'El lead no existe en esta compañía'),
  cleanLead: () => new AppError('NOT_FOUND', 'El lead limpio no existe en esta compañía'),
  chatGroup: () => new AppError('NOT_FOUND', 'El grupo de chat no existe en esta compañía'),
};

const WINDOW_MS = WHATSAPP_WINDOW_HOURS * 3_600_000;

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

interface SummaryRow extends Row {
  id: string;
  contact_name: string;
  platform: Platform;
  status: ChatStatus;
  unread_count: number | null;
  last_message_at: string | null;
  last_message_preview: string | null;
  created_at: Date;
  updated_at: Date;
  lead_id: string | null;
  lead_name: string | null;
  lead_telefono: string | null;
  lead_email: string | null;
  lead_status: LeadStatus | null;
  lead_agente_id: string | null;
  lead_labels: string[] | null;
  lead_clean_lead_id: string | null;
  last_inbound_at: Date | null;
  /** A Dialogflow bot's hold of the chat (decision 0053). */
  bot_state: 'answering' | 'handed_over' | null;
  bot_reason: string | null;
  bot_at: Date | null;
  bot_name: string | null;
}

/** The columns of a summary; `c` chats, `l` its lead, `w` its window. */
const summaryColumns = sql`c.id, c.contact_name, c.platform, c.status, c.unread_count, c.last_message_at, c.last_message_preview,
  c.created_at, c.updated_at, l.id as lead_id, l.name as lead_name, l.telefono as lead_telefono, l.email as lead_email,
  l.status as lead_status, l.agente_id as lead_agente_id, l.mostrador_labels as lead_labels, l.clean_lead_id as lead_clean_lead_id,
  w.last_inbound_at, bc.state as bot_state, bc.reason as bot_reason, bc.handed_over_at as bot_at, b.name as bot_name`;
const summaryFrom = sql`chats c
  left join leads l on l.company_id = c.company_id and l.id = c.lead_id
  left join chat_windows w on w.chat_id = c.id
  left join bot_chats bc on bc.chat_id = c.id
  left join bots b on b.id = bc.bot_id`;
/** Last activity first. A chat without messages yet (made by hand) has no time and comes first, as new (decision 0014). */
const activityOrder = sql`c.last_message_at desc, c.id desc`;

/** When a free-form message may be sent until: the customer's last message + 24 h. */
export const windowUntil = (lastInboundAt: Date | null | undefined) =>
  lastInboundAt ? new Date(new Date(lastInboundAt).getTime() + WINDOW_MS) : undefined;

function toSummary(r: SummaryRow): ChatSummary {
  const until = windowUntil(r.last_inbound_at);
  return {
    _id: r.id,
    contactName: r.contact_name,
    platform: r.platform,
    status: r.status,
    unreadCount: r.unread_count ?? 0,
    lastMessageAt: opt(r.last_message_at),
    lastMessagePreview: opt(r.last_message_preview),
    lead: r.lead_id
      ? {
          _id: r.lead_id,
          name: r.lead_name ?? '',
          telefono: opt(r.lead_telefono),
          email: opt(r.lead_email),
          status: opt(r.lead_status),
          agenteId: opt(r.lead_agente_id),
          mostradorLabels: opt(r.lead_labels),
          cleanLeadId: opt(r.lead_clean_lead_id),
        }
      : undefined,
    windowOpenUntil: until?.toISOString(),
    bot: r.bot_state ? { name: r.bot_name ?? 'Bot', state: r.bot_state, reason: opt(r.bot_reason), at: r.bot_at ? iso(r.bot_at) : undefined } : undefined,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

interface MessageRow extends Row {
  id: string;
  chat_id: string;
  provider_message_id: string | null;
  direction: 'in' | 'out';
  kind: ChatMessageKind;
  text: string | null;
  media_url: string | null;
  media_id: string | null;
  mime_type: string | null;
  content: MessageContent | null;
  reply_kind?: ChatMessageKind | null;
  reply_text?: string | null;
  reply_direction?: 'in' | 'out' | null;
  status: ChatMessageStatus;
  status_error: string | null;
  is_active: boolean;
  sent_by: string | null;
  sent_at: Date;
}

/**
 * The columns of a message `m`, with what the message it answers said (`content.replyTo.mid`,
 * a provider id of the same company: one index lookup, decision 0020).
 */
export const messageColumns = sql`m.id, m.chat_id, m.provider_message_id, m.direction, m.kind, m.text, m.media_url, m.media_id,
  m.mime_type, m.content, m.status, m.status_error, m.is_active, m.sent_by, m.sent_at,
  (select q.kind from chat_messages q where q.company_id = m.company_id and q.provider_message_id = m.content->'replyTo'->>'mid') as reply_kind,
  (select case when q.is_active then q.text end from chat_messages q where q.company_id = m.company_id and q.provider_message_id = m.content->'replyTo'->>'mid') as reply_text,
  (select q.direction from chat_messages q where q.company_id = m.company_id and q.provider_message_id = m.content->'replyTo'->>'mid') as reply_direction`;

/** The stored content, with the quoted original of a reply. */
function contentOf(r: MessageRow): MessageContent | undefined {
  if (!r.content) return undefined;
  const replyTo = r.content.replyTo;
  if (!replyTo) return r.content;
  return {
    ...r.content,
    replyTo: { mid: replyTo.mid, found: Boolean(r.reply_kind), kind: opt(r.reply_kind), text: opt(r.reply_text), direction: opt(r.reply_direction) },
  };
}

export function toMessage(r: MessageRow): ChatMessage {
  return {
    _id: r.id,
    chatId: r.chat_id,
    mid: opt(r.provider_message_id),
    direction: r.direction,
    kind: r.kind,
    text: opt(r.text),
    mediaUrl: opt(r.media_url),
    hasMedia: Boolean(r.media_id),
    mimeType: opt(r.mime_type),
    content: contentOf(r),
    status: r.status,
    statusError: opt(r.status_error),
    isActive: r.is_active,
    sentBy: opt(r.sent_by),
    sentAt: iso(r.sent_at),
  };
}

/** A chat as the inbox shows it, or a 404. */
export async function chatSummary(db: Db, companyId: string, chatId: string): Promise<ChatSummary> {
  const [row] = await rowsOf<SummaryRow>(db, sql`select ${summaryColumns} from ${summaryFrom} where c.company_id = ${companyId} and c.id = ${chatId}`);
  if (!row) throw notFound.chat();
  return toSummary(row);
}

/** One message of the company, or a 404. */
export async function chatMessage(db: Db, companyId: string, messageId: string): Promise<ChatMessage & { mediaId?: string }> {
  const [row] = await rowsOf<MessageRow>(db, sql`select ${messageColumns} from chat_messages m where m.company_id = ${companyId} and m.id = ${messageId}`);
  if (!row) throw notFound.message();
  return { ...toMessage(row), mediaId: opt(row.media_id) };
}

/** `array[$1, $2…]::<type>[]`, each value a bound parameter (never empty here). */
const arrayOf = (values: readonly string[], type: 'text' | 'uuid') => sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::${sql.raw(type)}[]`;

/**
 * A search in the contact's name, the last message and the lead's phone (digits typed with
 * spaces or + match too). Written as a union of chat ids so each part reads its trigram
 * index (chats.contact_name, chats.last_message_preview, leads.telefono) instead of testing
 * every chat of the company.
 */
function searchCondition(companyId: string, text: string): SQL {
  const pattern = containsPattern(text);
  const digits = text.replace(/\D/g, '');
  const phone = /^[\d\s+().-]+$/.test(text) && digits.length >= 3 ? containsPattern(digits) : pattern;
  return sql`c.id in (
      select s.id from chats s where s.company_id = ${companyId} and (s.contact_name ilike ${pattern} or s.last_message_preview ilike ${pattern})
      union
      select s.id from leads p join chats s on s.company_id = ${companyId} and s.lead_id = p.id
        where p.company_id = ${companyId} and p.telefono ilike ${phone})`;
}

type InboxFilters = Omit<ChatInboxQuery, 'page' | 'limit' | 'unread'> & { unread?: boolean };

/** The conditions of the inbox filters; `lead` when one of them reads the lead, `narrowed` when there is any. */
async function inboxConditions(db: Db, companyId: string, q: InboxFilters, scope: InboxScope = {}): Promise<{ where: SQL; lead: boolean; narrowed: boolean }> {
  const conds: SQL[] = [sql`c.company_id = ${companyId}`];
  let lead = false;
  // who holds the chat (its lead's agent, decision 0025; kept on the chat, db/chat-holders.ts): the caller's scope and the tab
  conds.push(...(scope.owner !== undefined ? [visibleAgent(sql`c.agente_id`, scope.owner)] : []), ...viewConditions(q.view, scope.me));
  if (q.platform) conds.push(sql`c.platform = ${q.platform}`);
  if (q.status) conds.push(sql`c.status = ${q.status}`);
  if (q.unread === true) conds.push(sql`c.unread_count > 0`);
  if (q.unread === false) conds.push(sql`coalesce(c.unread_count, 0) = 0`);
  if (q.leadStatus) {
    conds.push(sql`l.status = ${q.leadStatus}`);
    lead = true;
  }
  if (q.agenteId) conds.push(sql`c.agente_id = ${q.agenteId}`);
  if (q.mostradorLabelId) {
    conds.push(sql`l.mostrador_labels @> ${JSON.stringify([q.mostradorLabelId])}::jsonb`);
    lead = true;
  }
  if (q.chatGroupId) {
    const [group] = await rowsOf<{ labels: string[] | null; agents: string[] | null }>(
      db,
      sql`select mostrador_label_ids as labels, agente_ids as agents from chat_groups where company_id = ${companyId} and id = ${q.chatGroupId}`,
    );
    if (!group) throw notFound.chatGroup();
    const labels = group.labels ?? [];
    const agents = group.agents ?? [];
    // the group's chats: the lead carries one of its labels, or is assigned to one of its agents
    const parts: SQL[] = [];
    if (labels.length) parts.push(sql`l.mostrador_labels ?| ${arrayOf(labels, 'text')}`);
    if (agents.length) parts.push(sql`c.agente_id = any(${arrayOf(agents, 'uuid')})`);
    conds.push(parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`);
    lead = true;
  }
  if (q.filter) conds.push(searchCondition(companyId, q.filter));
  return { where: sql.join(conds, sql` and `), lead, narrowed: conds.length > 1 };
}

/** The inbox tabs: Mías (the caller's agent's chats; none when they are no agent), Sin asignar (nobody's), Todas. */
function viewConditions(view: InboxFilters['view'], me: string | null | undefined): SQL[] {
  if (view === 'mine') return [me ? sql`c.agente_id = ${me}::uuid` : sql`false`];
  if (view === 'unassigned') return [sql`c.agente_id is null`];
  return [];
}

/**
 * GET /chats/counts: how many chats each tab holds with the other filters, and how many of the
 * tab asked (`view`, Todas by default) each status holds with the filters but the status (the
 * «Estado» select, decision 0076), in one statement (the tabs are parts of "Todas": Mías and Sin
 * asignar count within it). Each count is an index range of (company_id, agente_id,
 * last_message_at, id) or (company_id, status, last_message_at, id) unless a filter reads the lead.
 */
export async function inboxCounts(db: Db, companyId: string, q: InboxFilters, scope: InboxScope = {}): Promise<InboxCounts> {
  const { where, lead, narrowed } = await inboxConditions(db, companyId, { ...q, view: undefined }, scope);
  const byStatus = await inboxConditions(db, companyId, { ...q, status: undefined }, scope);
  const from = lead || byStatus.lead ? sql`chats c left join leads l on l.company_id = c.company_id and l.id = c.lead_id` : sql`chats c`;
  const mine = scope.me ? sql`(select count(*)::int from ${from} where ${where} and c.agente_id = ${scope.me}::uuid)` : sql`0`;
  const all = narrowed ? sql`(select count(*)::int from ${from} where ${where})` : sql`(select sum(n)::int from resource_counts where company_id = ${companyId} and resource = 'chats')`;
  const status = (value: ChatStatus) => sql`(select count(*)::int from ${from} where ${byStatus.where} and c.status = ${value})`;
  const [row] = await rowsOf<{ mine: number; unassigned: number; all: number; open: number; snoozed: number; closed: number }>(
    db,
    sql`select ${mine} as mine, (select count(*)::int from ${from} where ${where} and c.agente_id is null) as unassigned, ${all} as all,
        ${status('open')} as open, ${status('snoozed')} as snoozed, ${status('closed')} as closed`,
  );
  return {
    mine: row?.mine ?? 0,
    unassigned: row?.unassigned ?? 0,
    all: row?.all ?? 0,
    byStatus: { open: row?.open ?? 0, snoozed: row?.snoozed ?? 0, closed: row?.closed ?? 0 },
  };
}

/**
 * The chats after a cursor's chat in the inbox order (last activity desc, id desc; a chat
 * without messages first): keyset paging (decision 0023) on chats_last_message_at_idx.
 */
function afterChat(cursor: string): SQL {
  const key = decodeCursor(cursor, 'lastMessageAt', 'desc', (v) => v.length <= 64);
  return key.value === null
    ? sql`(c.last_message_at is not null or c.id < ${key.id}::uuid)`
    : sql`(c.last_message_at, c.id) < (${key.value}::text, ${key.id}::uuid)`;
}

/**
 * GET /chats/get_chats: a page of the inbox, last activity first, by `page` or by `cursor`.
 * ONE statement: the page, one chat more (is there a next page?) and the total — the
 * trigger-kept counter for the whole inbox (db/counters.ts), else a count of the matches.
 */
export async function inboxPage(
  db: Db,
  companyId: string,
  q: InboxFilters & { page: number; limit: number; cursor?: string },
  scope: InboxScope = {},
): Promise<Page<ChatSummary>> {
  const { where, lead, narrowed } = await inboxConditions(db, companyId, q, scope);
  // the chats the conditions read: with the lead only when a filter reads it
  const matching = lead ? sql`chats c left join leads l on l.company_id = c.company_id and l.id = c.lead_id` : sql`chats c`;
  const total = narrowed
    ? sql`(select count(*)::int from ${matching} where ${where})`
    : sql`(select sum(n)::int from resource_counts where company_id = ${companyId} and resource = 'chats')`;
  // a cursor starts after its chat; the spec's page past the first finds its chats' ids first
  // (a deferred join, as the lists do: decision 0036), so the skipped chats are not joined to
  // their lead, window and bot
  const offset = q.cursor ? 0 : (q.page - 1) * q.limit;
  const pageWhere = q.cursor
    ? sql`${where} and ${afterChat(q.cursor)}`
    : offset
      ? sql`${where} and c.id in (select c.id from ${matching} where ${where} order by ${activityOrder} limit ${q.limit + 1} offset ${offset})`
      : where;
  const rows = await rowsOf<SummaryRow & { list_total: number | null }>(
    db,
    sql`select ${summaryColumns}, ${total} as list_total from ${summaryFrom} where ${pageWhere} order by ${activityOrder} limit ${q.limit + 1}`,
  );
  // past the end there is no row to carry the total: ask for it alone
  const totalDocs = rows.length ? Number(rows[0].list_total ?? 0) : Number((await rowsOf<{ n: number }>(db, sql`select ${total} as n`))[0]?.n ?? 0);
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  const next = more && last ? encodeCursor({ sort: 'lastMessageAt', order: 'desc', value: last.last_message_at ?? null, id: last.id }) : undefined;
  return pageResult(page.map(toSummary), totalDocs, q, next);
}

/** GET /chats/recent_chats: the latest conversations. */
export async function recentChats(db: Db, companyId: string, limit: number, scope: InboxScope = {}): Promise<ChatSummary[]> {
  const { where } = await inboxConditions(db, companyId, {}, scope);
  const rows = await rowsOf<SummaryRow>(db, sql`select ${summaryColumns} from ${summaryFrom} where ${where} order by ${activityOrder} limit ${limit}`);
  return rows.map(toSummary);
}

/** GET /chats/get_all_by_cleanlead_id: every chat of the person (all leads merged into the clean lead). */
export async function chatsOfCleanLead(db: Db, companyId: string, cleanLeadId: string, scope: InboxScope = {}): Promise<ChatSummary[]> {
  const [found] = await rowsOf(db, sql`select 1 from clean_leads where company_id = ${companyId} and id = ${cleanLeadId}`);
  if (!found) throw notFound.cleanLead();
  const { where } = await inboxConditions(db, companyId, {}, scope);
  const rows = await rowsOf<SummaryRow>(
    db,
    sql`select ${summaryColumns} from ${summaryFrom}
        where ${where} and c.lead_id in (select id from leads where company_id = ${companyId} and clean_lead_id = ${cleanLeadId})
        order by ${activityOrder} limit 200`,
  );
  return rows.map(toSummary);
}

/** The chat of a lead on a platform (GET /chats/get_all_by_lead_id), or a 404. */
export async function chatIdOfLead(db: Db, companyId: string, leadId: string, platform: Platform): Promise<string> {
  const [lead] = await rowsOf(db, sql`select 1 from leads where company_id = ${companyId} and id = ${leadId}`);
  if (!lead) throw notFound.lead();
  const [chat] = await rowsOf<{ id: string }>(
    db,
    sql`select id from chats c where c.company_id = ${companyId} and c.lead_id = ${leadId} and c.platform = ${platform} order by ${activityOrder} limit 1`,
  );
  if (!chat) throw new AppError('NOT_FOUND', 'Este lead no tiene un chat en ese canal');
  return chat.id;
}

/**
 * A page of a thread, oldest → newest: the `limit` newest messages before `before` (a sentAt).
 * Messages sharing the oldest one's time all come in the same page, so asking again with
 * before=<oldest sentAt> skips none.
 */
export async function thread(db: Db, companyId: string, chatId: string, q: { before?: string; limit: number }): Promise<ChatThread> {
  const chat = await chatSummary(db, companyId, chatId);
  const before = q.before ? sql`and m.sent_at < ${new Date(q.before)}` : sql``;
  const rows = await rowsOf<MessageRow>(
    db,
    sql`select ${messageColumns} from chat_messages m where m.company_id = ${companyId} and m.chat_id = ${chatId} ${before}
        order by m.sent_at desc, m.id desc limit ${q.limit + 1}`,
  );
  let page = rows.slice(0, q.limit);
  let hasMore = rows.length > q.limit;
  const oldest = page.at(-1);
  if (hasMore && oldest && new Date(rows[q.limit].sent_at).getTime() === new Date(oldest.sent_at).getTime()) {
    const ties = await rowsOf<MessageRow>(
      db,
      sql`select ${messageColumns} from chat_messages m where m.company_id = ${companyId} and m.chat_id = ${chatId}
          and m.sent_at = ${oldest.sent_at} and m.id < ${oldest.id} order by m.id desc`,
    );
    page = [...page, ...ties];
    const [older] = await rowsOf(
      db,
      sql`select 1 from chat_messages m where m.company_id = ${companyId} and m.chat_id = ${chatId} and m.sent_at < ${oldest.sent_at} limit 1`,
    );
    hasMore = Boolean(older);
  }
  return { chat, payload: page.reverse().map(toMessage), hasMore };
}
