import { CSAT_ANSWER_HOURS, CSAT_LIST_BUTTON, type CsatStyle, csatOptions, csatReplyId, type DomainEvent, type MessageContent, parseCsatReplyId } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import type { OutboundContent } from '../../integrations/meta/send.js';
import { AppError } from '../../lib/errors.js';
import { stableId } from '../../lib/stable-id.js';

/**
 * CSAT surveys (issue 31, decision 0100), the spine's two listeners:
 *
 * - `csat.ask` on `chat.resolved`: a WhatsApp chat of a company with the survey on gets one survey
 *   per resolution. The survey row is claimed first, keyed by the chat and the event (an event heard
 *   twice finds it; a reopened chat resolved again is another event), then sent through the chat
 *   service's send — the channel's client and the 24-hour window's rule, a message id named by the
 *   survey so a retried send never sends twice. Refused (outside the window, no channel, no number):
 *   `not_sent` with the send's own reason; the provider refused: `failed` with its reason.
 * - `csat.answer` on `message.received`: a customer's tap (button_reply / list_reply) whose id is one
 *   of a survey's options, in the survey's own chat, while it waits and within CSAT_ANSWER_HOURS,
 *   stores the score; a late, repeated or foreign tap is just the message it already is.
 */

export interface CsatDeps {
  db: Db;
  /** The chat service's send (apps/server/src/modules/chats/service.ts). */
  send: (companyId: string, chatId: string, content: OutboundContent, messageId: string) => Promise<{ status: string; statusError?: string }>;
  log: { warn: (obj: object, msg: string) => void };
}

/** The content of a survey's message: the question and the style's options, each id naming the survey and its score. */
export function surveyContent(surveyId: string, style: CsatStyle, question: string): OutboundContent {
  return {
    kind: 'text',
    text: question,
    choices: {
      style,
      options: csatOptions[style].map((o) => ({ id: csatReplyId(surveyId, o.score), title: o.title })),
      ...(style === 'list' ? { button: CSAT_LIST_BUTTON } : {}),
    },
  };
}

type Resolved = DomainEvent<'chat.resolved'>;
interface Claimed extends Record<string, unknown> {
  id: string;
  company_id: string;
  chat_id: string;
  style: CsatStyle;
  question: string;
}

/**
 * Claims the round's surveys in one statement: per event whose chat is WhatsApp and whose company had
 * the survey on when it was resolved (turned on before it), and that is the chat's latest resolution asked about, a row (pending while the chat is still resolved, else not sent: it was reopened
 * first), the agent the resolution is credited to (the resolving user's agent, else the lead's).
 * Answers the pending ones, the earlier round's included (a crash between claim and send). An older
 * resolution handed again (a replay) after a newer one of the chat was asked about is never claimed.
 */
export async function claimSurveys(db: Db, events: Resolved[]): Promise<Claimed[]> {
  if (!events.length) return [];
  const list = JSON.stringify(
    events.map((e) => ({ company: e.companyId, chat: e.payload.chatId, event: e.id, at: e.occurredAt, actor: e.actor.type === 'user' || e.actor.type === 'api_key' ? `${e.actor.type}:${e.actor.id ?? ''}` : e.actor.type, user: e.actor.type === 'user' ? (e.actor.id ?? null) : null })),
  );
  return rowsOf<Claimed>(
    db,
    sql`with r as (select * from jsonb_to_recordset(${list}::jsonb) as r(company uuid, chat uuid, event uuid, at timestamptz, actor text, "user" text)),
        ins as (
          insert into csat_surveys (company_id, chat_id, resolution_event_id, resolved_at, resolved_by, agent_id, style, question, status, reason)
          select c.company_id, c.id, r.event, r.at, r.actor,
                 coalesce((select a.id from agentes a where a.company_id = c.company_id and a.user_id = r."user"), l.agente_id),
                 s.style, s.question,
                 case when c.status = 'closed' then 'pending' else 'not_sent' end,
                 case when c.status = 'closed' then null else 'El chat se reabrió antes de enviar la encuesta' end
            from r
            join chats c on c.company_id = r.company and c.id = r.chat and c.platform = 'whatsapp'
            join csat_settings s on s.company_id = r.company and s.enabled and r.at >= s.enabled_at
            left join leads l on l.company_id = c.company_id and l.id = c.lead_id
           where not exists (select 1 from csat_surveys n where n.company_id = c.company_id and n.chat_id = c.id and n.resolved_at > r.at)
          on conflict (company_id, chat_id, resolution_event_id) do nothing
          returning id, company_id, chat_id, style, question, status)
        select id::text, company_id::text, chat_id::text, style, question from ins where status = 'pending'
        union
        select v.id::text, v.company_id::text, v.chat_id::text, v.style, v.question
          from r cross join lateral (select * from csat_surveys v where v.company_id = r.company and v.chat_id = r.chat and v.resolution_event_id = r.event) v
         where v.status = 'pending'`,
  );
}

/** The outcome of a survey's send, recorded on its row. */
async function settle(db: Db, s: Claimed, outcome: { status: 'sent' | 'not_sent' | 'failed'; reason?: string; messageId?: string }) {
  await db.execute(
    sql`update csat_surveys set status = ${outcome.status}, reason = ${outcome.reason?.slice(0, 500) ?? null}, message_id = ${outcome.messageId ?? null},
          sent_at = ${outcome.status === 'sent' ? sql`now()` : sql`null`}
        where company_id = ${s.company_id} and id = ${s.id} and status = 'pending'`,
  );
}

/** `csat.ask`: the round's resolutions each get their survey (or its reason for none). Answers how many went out. */
export async function askForCsat(deps: CsatDeps, events: DomainEvent[]): Promise<number> {
  const resolved = events.filter((e): e is Resolved => e.type === 'chat.resolved');
  const claimed = await claimSurveys(deps.db, resolved);
  let sent = 0;
  for (const s of claimed) {
    const messageId = stableId('csat', s.id);
    try {
      const message = await deps.send(s.company_id, s.chat_id, surveyContent(s.id, s.style, s.question), messageId);
      if (message.status === 'failed') await settle(deps.db, s, { status: 'failed', reason: message.statusError, messageId });
      else {
        await settle(deps.db, s, { status: 'sent', messageId });
        sent++;
      }
    } catch (error) {
      // any other error: the spine hands the event again, the row still pending, the message id the same
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'PROVIDER_ERROR') await settle(deps.db, s, { status: 'failed', reason: error.msg, messageId });
      else await settle(deps.db, s, { status: 'not_sent', reason: error.msg ?? error.message });
      deps.log.warn({ chatId: s.chat_id, reason: error.msg }, 'la encuesta de satisfacción no se envió');
    }
  }
  return sent;
}

/** `csat.answer`: the round's taps on a survey's options store their scores. Answers how many were stored. */
export async function recordCsatAnswers(db: Db, events: DomainEvent[]): Promise<number> {
  // only interactive messages can be a tap: the rest are never read
  const taps = events.filter((e) => e.type === 'message.received' && (e.payload as DomainEvent<'message.received'>['payload']).kind === 'interactive');
  if (!taps.length) return 0;
  const ids = taps.map((e) => (e.payload as DomainEvent<'message.received'>['payload']).messageId);
  const messages = await rowsOf<{ id: string; company_id: string; chat_id: string; content: MessageContent | null; sent_at: Date | string }>(
    db,
    sql`select id::text, company_id::text, chat_id::text, content, sent_at from chat_messages
         where id = any(${`{${ids.join(',')}}`}::uuid[]) and direction = 'in' and kind = 'interactive'`,
  );
  const byCompany = new Map(taps.map((e) => [(e.payload as { messageId: string }).messageId, e.companyId]));
  let stored = 0;
  for (const m of messages) {
    // the event's company, never the message's word alone
    if (byCompany.get(m.id) !== m.company_id) continue;
    const type = m.content?.interactive?.type;
    if (type !== 'button_reply' && type !== 'list_reply') continue;
    const reply = parseCsatReplyId(m.content?.interactive?.id);
    if (!reply) continue;
    // the survey of this chat, still waiting, sent within the answer window, and the chat's latest
    const rows = await rowsOf<{ id: string }>(
      db,
      sql`update csat_surveys v set status = 'answered', score = ${reply.score}, answered_at = ${new Date(m.sent_at).toISOString()}, answer_message_id = ${m.id}
           where v.company_id = ${m.company_id} and v.id = ${reply.surveyId} and v.chat_id = ${m.chat_id} and v.status = 'sent'
             and ${new Date(m.sent_at).toISOString()}::timestamptz <= v.sent_at + make_interval(hours => ${CSAT_ANSWER_HOURS})
             and not exists (select 1 from csat_surveys n where n.company_id = v.company_id and n.chat_id = v.chat_id
                               and n.status in ('sent', 'answered') and n.sent_at > v.sent_at)
         returning v.id::text`,
    );
    stored += rows.length;
  }
  return stored;
}
