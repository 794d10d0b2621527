import type { DomainEvent } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';
import { recordTeamTimes } from '../modules/team-metrics/listener.js';

/**
 * The demo's «Equipo» (decision 0094): the demo conversations' answers were written by people —
 * the agent on most chats, the admin on some (a campaign's messages and the internal notes stay
 * without an author) — and the team's times are what the `team-metrics` listener would have kept
 * had it heard them: each message and each resolved chat handed to it in time order, as events.
 * Their positions stay at or below the outbox's newest, so every event after the seed still moves
 * the chats on.
 */
export async function seedDemoTeam(db: Db, companyId: string): Promise<void> {
  const people = await rowsOf<{ id: string }>(
    db,
    // the agent first (agente@demo.com), then the admin and whoever else works in the company
    sql`select u.id::text from memberships m join users u on u.id = m.user_id where m.company_id = ${companyId}
         order by (u.email = 'agente@demo.com') desc, (u.email = 'admin@demo.com') desc, u.email`,
  );
  if (!people.length) return;
  const ids = `{${people.map((p) => p.id).join(',')}}`;
  // two chats in three the agent answers, the rest the admin (whoever the seed had written them as)
  await db.execute(sql`update chat_messages m set sent_by = (${ids}::uuid[])[case when abs(hashtext(m.chat_id::text)) % 3 < 2 or ${people.length} = 1 then 1 else 2 end]
    where m.company_id = ${companyId} and m.direction = 'out' and m.kind <> 'note' and (m.sent_by is null or m.sent_by = any(${ids}::uuid[]))
      and not exists (select 1 from send_recipients r where r.id = m.id)`);
  const rows = await rowsOf<{ type: 'message.received' | 'message.sent' | 'chat.resolved'; chat_id: string; message_id: string | null; kind: string | null; sent_by: string | null; channel: string; at: string }>(
    db,
    sql`select * from (
          select case when m.direction = 'in' then 'message.received' else 'message.sent' end as type, m.chat_id::text, m.id::text as message_id,
                 m.kind, m.sent_by::text, c.platform as channel, m.sent_at::timestamptz as at
            from chat_messages m join chats c on c.company_id = m.company_id and c.id = m.chat_id
           where m.company_id = ${companyId} and m.sent_at is not null
          union all
          -- a resolved chat was resolved half an hour after its last message
          select 'chat.resolved', c.id::text, null, null, null, c.platform, c.last_message_at::timestamptz + interval '30 minutes'
            from chats c where c.company_id = ${companyId} and c.status = 'closed' and c.last_message_at is not null
        ) e order by at, type desc, message_id`,
  );
  const events: DomainEvent[] = rows.map((r, i) => ({
    position: i + 1,
    id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    type: r.type,
    version: 1,
    companyId,
    aggregate: { type: 'chat', id: r.chat_id },
    actor: r.sent_by ? { type: 'user', id: r.sent_by } : { type: 'system' },
    payload: { chatId: r.chat_id, ...(r.message_id ? { messageId: r.message_id, channel: r.channel, kind: r.kind ?? 'text' } : {}), ...(r.type === 'message.sent' ? { sentBy: r.sent_by } : {}) },
    occurredAt: new Date(r.at).toISOString(),
  })) as DomainEvent[];
  for (let from = 0; from < events.length; from += 2_000) await recordTeamTimes(db, events.slice(from, from + 2_000));
  await db.execute(sql`update team_chat_state set last_position = least(last_position, (select coalesce(max(position), 0) from domain_events))
    where company_id = ${companyId}`);
}
