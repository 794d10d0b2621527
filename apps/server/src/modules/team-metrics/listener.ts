import type { DomainEvent } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';

/** The events the team's response times are kept from (decision 0094). */
export const TEAM_METRICS_EVENTS = ['message.received', 'message.sent', 'chat.resolved', 'chat.reopened'] as const;

/**
 * A resolved conversation the customer (or someone) opens again within this many days is the same
 * conversation reopened; later, the customer's next message starts a new conversation.
 */
export const REOPEN_DAYS = 7;
const REOPEN_MS = REOPEN_DAYS * 86_400_000;

type Ms = number | null;
interface ChatState {
  company: string;
  chat: string;
  lastPosition: number;
  startedAt: Ms;
  waitingSince: Ms;
  answered: boolean;
  resolvedAt: Ms;
}
interface ConversationChange {
  company: string;
  chat: string;
  startedAt: number;
  resolvedAt: Ms;
  reopenings: number;
  untilAt: Ms;
}
interface Response {
  company: string;
  chat: string;
  startedAt: number;
  askedAt: number;
  answeredAt: number;
  answeredBy: string;
  kind: 'first' | 'next';
}
type MessageRow = { id: string; sent_at: Date | string; campaign: boolean };
type StateRow = {
  company: string;
  chat: string;
  channel: string | null;
  lead_id: string | null;
  last_position: string | number | null;
  started_at: Date | string | null;
  waiting_since: Date | string | null;
  answered: boolean | null;
  resolved_at: Date | string | null;
};

const msOf = (v: Date | string | null): Ms => (v === null ? null : new Date(v).getTime());
const iso = (ms: Ms) => (ms === null ? null : new Date(ms).toISOString());
type Payload = { chatId: string; messageId?: string; kind?: string; sentBy?: string | null; from?: string };

/**
 * The spine's `team-metrics` listener (decision 0094): folds a round's events, chat by chat in
 * their order, into the chats' state, their conversations and the customers' waits answered by a
 * person. Three statements per round, whatever its size: the chats' state, the messages' times
 * (and whether each was a campaign's), and one write. An event at or before a chat's
 * `last_position` was applied already and changes nothing (heard twice, replayed); the write
 * itself only touches the chats whose state it moved forward.
 *
 * An answer is a person's message: `message.sent` with a user who sent it, by the user (not an
 * API key, a rule, a bot, the away message or a campaign's send), and not an internal note.
 */
export async function recordTeamTimes(db: Db, events: DomainEvent[]): Promise<void> {
  const mine = events.filter((e) => (TEAM_METRICS_EVENTS as readonly string[]).includes(e.type));
  if (!mine.length) return;
  const key = (company: string, chat: string) => `${company}:${chat}`;
  const chats = new Map<string, { company: string; chat: string }>();
  for (const e of mine) {
    const { chatId } = e.payload as Payload;
    chats.set(key(e.companyId, chatId), { company: e.companyId, chat: chatId });
  }
  const messageIds = [...new Set(mine.flatMap((e) => ((e.payload as Payload).messageId && e.type.startsWith('message.') ? [(e.payload as Payload).messageId as string] : [])))];
  const [stateRows, messageRows] = await Promise.all([
    rowsOf<StateRow>(
      db,
      sql`select x.company::text, x.chat::text, c.platform as channel, c.lead_id::text, s.last_position, s.started_at, s.waiting_since, s.answered, s.resolved_at
            from jsonb_to_recordset(${JSON.stringify([...chats.values()])}::jsonb) as x(company uuid, chat uuid)
            join chats c on c.company_id = x.company and c.id = x.chat
            left join team_chat_state s on s.company_id = x.company and s.chat_id = x.chat`,
    ),
    messageIds.length
      ? rowsOf<MessageRow>(
          db,
          sql`select m.id::text, m.sent_at, exists (select 1 from send_recipients r where r.id = m.id) as campaign
                from chat_messages m where m.id = any(${`{${messageIds.join(',')}}`}::uuid[])`,
        )
      : Promise.resolve([] as MessageRow[]),
  ]);
  const messages = new Map(messageRows.map((m) => [m.id, m]));
  const info = new Map<string, { channel: string; lead: string | null }>();
  const states = new Map<string, ChatState>();
  for (const r of stateRows) {
    const k = key(r.company, r.chat);
    info.set(k, { channel: r.channel ?? '', lead: r.lead_id });
    states.set(k, {
      company: r.company,
      chat: r.chat,
      lastPosition: r.last_position === null ? 0 : Number(r.last_position),
      startedAt: msOf(r.started_at),
      waitingSince: msOf(r.waiting_since),
      answered: r.answered ?? false,
      resolvedAt: msOf(r.resolved_at),
    });
  }

  const moved = new Set<string>();
  const conversations = new Map<string, ConversationChange>();
  const responses: Response[] = [];
  const conversationOf = (s: ChatState): ConversationChange => {
    const k = `${s.company}:${s.chat}:${s.startedAt}`;
    let c = conversations.get(k);
    if (!c) {
      c = { company: s.company, chat: s.chat, startedAt: s.startedAt as number, resolvedAt: s.resolvedAt, reopenings: 0, untilAt: null };
      conversations.set(k, c);
    }
    return c;
  };
  const reopen = (s: ChatState) => {
    const c = conversationOf(s);
    c.reopenings++;
    c.resolvedAt = null;
    s.resolvedAt = null;
  };

  for (const e of mine) {
    const p = e.payload as Payload;
    const k = key(e.companyId, p.chatId);
    const s = states.get(k);
    // a chat no longer there (deleted): nothing to keep
    if (!s || e.position <= s.lastPosition) continue;
    s.lastPosition = e.position;
    moved.add(k);
    const message = p.messageId ? messages.get(p.messageId) : undefined;
    const at = message ? new Date(message.sent_at).getTime() : Date.parse(e.occurredAt);
    if (e.type === 'message.received') {
      if (s.startedAt !== null && s.resolvedAt !== null) {
        if (at - s.resolvedAt <= REOPEN_MS) reopen(s);
        else {
          conversationOf(s).untilAt = at;
          s.startedAt = null;
        }
      }
      if (s.startedAt === null) {
        Object.assign(s, { startedAt: at, waitingSince: at, answered: false, resolvedAt: null });
        conversationOf(s);
      } else if (s.waitingSince === null) s.waitingSince = at;
    } else if (e.type === 'message.sent') {
      const byPerson = Boolean(p.sentBy) && p.kind !== 'note' && e.actor.type === 'user' && message !== undefined && !message.campaign;
      if (!byPerson || s.startedAt === null || s.resolvedAt !== null || s.waitingSince === null) continue;
      const answeredAt = Math.max(at, s.waitingSince);
      responses.push({ company: s.company, chat: s.chat, startedAt: s.startedAt, askedAt: s.waitingSince, answeredAt, answeredBy: p.sentBy as string, kind: s.answered ? 'next' : 'first' });
      conversationOf(s);
      s.answered = true;
      s.waitingSince = null;
    } else if (e.type === 'chat.resolved') {
      if (s.startedAt === null || s.resolvedAt !== null) continue;
      s.resolvedAt = at;
      s.waitingSince = null;
      conversationOf(s).resolvedAt = at;
    } else if (e.type === 'chat.reopened') {
      if (p.from !== 'closed' || s.startedAt === null || s.resolvedAt === null) continue;
      if (at - s.resolvedAt <= REOPEN_MS) reopen(s);
    }
  }
  if (!moved.size) return;

  const stateList = [...moved].map((k) => {
    const s = states.get(k) as ChatState;
    return { company: s.company, chat: s.chat, last_position: s.lastPosition, started_at: iso(s.startedAt), waiting_since: iso(s.waitingSince), answered: s.answered, resolved_at: iso(s.resolvedAt) };
  });
  const conversationList = [...conversations.values()].map((c) => {
    const i = info.get(key(c.company, c.chat));
    return { company: c.company, chat: c.chat, started_at: iso(c.startedAt), channel: i?.channel ?? '', lead_id: i?.lead ?? null, resolved_at: iso(c.resolvedAt), reopenings: c.reopenings, until_at: iso(c.untilAt) };
  });
  const responseList = responses.map((r) => ({
    company: r.company,
    chat: r.chat,
    started_at: iso(r.startedAt),
    asked_at: iso(r.askedAt),
    answered_at: iso(r.answeredAt),
    answered_by: r.answeredBy,
    kind: r.kind,
  }));

  // one write: the state moves forward only past its last position (a second hearing finds it there
  // and writes nothing else); the waits answered, with their durations by the clock and in
  // business hours (decision 0082: once, here); the conversations they belong to
  await db.execute(sql`
    with st as (
      insert into team_chat_state (company_id, chat_id, last_position, started_at, waiting_since, answered, resolved_at)
      select s.company, s.chat, s.last_position, s.started_at, s.waiting_since, s.answered, s.resolved_at
        from jsonb_to_recordset(${JSON.stringify(stateList)}::jsonb) as s(company uuid, chat uuid, last_position bigint, started_at timestamptz, waiting_since timestamptz, answered boolean, resolved_at timestamptz)
      on conflict (company_id, chat_id) do update set last_position = excluded.last_position, started_at = excluded.started_at,
        waiting_since = excluded.waiting_since, answered = excluded.answered, resolved_at = excluded.resolved_at
        where team_chat_state.last_position < excluded.last_position
      returning company_id, chat_id
    ),
    r as (
      select x.company, x.chat, x.started_at, x.asked_at, x.answered_at, x.answered_by, x.kind,
             extract(epoch from date_trunc('second', x.answered_at) - date_trunc('second', x.asked_at))::int as wall_s,
             round(mostrador_business_minutes(x.company, x.asked_at, x.answered_at) * 60)::int as business_s
        from jsonb_to_recordset(${JSON.stringify(responseList)}::jsonb) as x(company uuid, chat uuid, started_at timestamptz, asked_at timestamptz, answered_at timestamptz, answered_by uuid, kind text)
        join st on st.company_id = x.company and st.chat_id = x.chat
    ),
    saved as (
      insert into team_responses (company_id, chat_id, asked_at, started_at, kind, answered_at, answered_by, wall_s, business_s)
      select company, chat, asked_at, started_at, kind, answered_at, answered_by, wall_s, business_s from r
      on conflict (company_id, chat_id, asked_at) do nothing
    ),
    nx as (select company, chat, started_at, count(*)::int as n, sum(wall_s) as w, sum(business_s) as b from r where kind = 'next' group by 1, 2, 3)
    insert into team_conversations as t (company_id, chat_id, started_at, channel, lead_id, agent_user, first_response_at, first_wall_s, first_business_s,
                                         next_responses, next_wall_s, next_business_s, resolved_at, resolution_wall_s, resolution_business_s, reopenings, until_at)
    select c.company, c.chat, c.started_at, c.channel, c.lead_id, f.answered_by, f.answered_at, f.wall_s, f.business_s,
           coalesce(nx.n, 0), coalesce(nx.w, 0), coalesce(nx.b, 0), c.resolved_at,
           case when c.resolved_at is not null then extract(epoch from date_trunc('second', c.resolved_at) - date_trunc('second', c.started_at))::int end,
           case when c.resolved_at is not null then round(mostrador_business_minutes(c.company, c.started_at, c.resolved_at) * 60)::int end,
           c.reopenings, c.until_at
      from jsonb_to_recordset(${JSON.stringify(conversationList)}::jsonb) as c(company uuid, chat uuid, started_at timestamptz, channel text, lead_id uuid, resolved_at timestamptz, reopenings int, until_at timestamptz)
      join st on st.company_id = c.company and st.chat_id = c.chat
      left join r f on f.company = c.company and f.chat = c.chat and f.started_at = c.started_at and f.kind = 'first'
      left join nx on nx.company = c.company and nx.chat = c.chat and nx.started_at = c.started_at
    on conflict (company_id, chat_id, started_at) do update set
      agent_user = coalesce(t.agent_user, excluded.agent_user),
      first_response_at = coalesce(t.first_response_at, excluded.first_response_at),
      first_wall_s = coalesce(t.first_wall_s, excluded.first_wall_s),
      first_business_s = coalesce(t.first_business_s, excluded.first_business_s),
      next_responses = t.next_responses + excluded.next_responses,
      next_wall_s = t.next_wall_s + excluded.next_wall_s,
      next_business_s = t.next_business_s + excluded.next_business_s,
      resolved_at = excluded.resolved_at,
      resolution_wall_s = excluded.resolution_wall_s,
      resolution_business_s = excluded.resolution_business_s,
      reopenings = t.reopenings + excluded.reopenings,
      until_at = coalesce(excluded.until_at, t.until_at)`);
}
