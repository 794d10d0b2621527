import { type DomainEvent, openingPeriodOf } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { stableId } from '../../lib/stable-id.js';
import type { HoursRow } from './service.js';

export interface AwayDeps {
  db: Db;
  /** The chat service's send (the channel's client; a stable id sends once): the automation engine's. */
  sendText: (companyId: string, chatId: string, text: string, messageId: string) => Promise<void>;
  log: { warn: (obj: object, msg: string) => void };
}

/**
 * The spine's `away-message` listener (decision 0078): a customer who writes outside the company's
 * hours — or, for a chat an agent of a team with hours of its own holds, the team's (decision 0081)
 * — when an away message is on (the team's, else the company's), gets it — once per chat and
 * closed period (the period's start, openingPeriodOf, is the key of a row inserted before the send; an event handed again, or
 * the customer's next message that night, finds it). Whether it is outside hours is judged at the
 * moment the customer wrote (the event's time), not when the listener runs. One statement for the
 * round's companies; the customer just wrote, so the 24-hour window is open. The message goes as
 * the system: it is a `message.sent`, which no away message listens to.
 */
export async function sendAwayMessages(deps: AwayDeps, events: DomainEvent[]): Promise<number> {
  const received = events.filter((e) => e.type === 'message.received');
  if (!received.length) return 0;
  // per event its chat's hours: those of the team of the agent who holds the chat's lead, when the
  // team has its own (decision 0081), else the company's; one statement for the round
  const list = JSON.stringify(received.map((e, k) => ({ k, company: e.companyId, chat: (e.payload as DomainEvent<'message.received'>['payload']).chatId })));
  type Side = { zone: string; schedule: HoursRow['schedule']; holidays: HoursRow['holidays']; away_enabled: boolean; away_text: string } | null;
  const rows = await rowsOf<{ k: number; company: Side; team: Side }>(
    deps.db,
    sql`select r.k,
               (select jsonb_build_object('zone', b.zone, 'schedule', b.schedule, 'holidays', b.holidays, 'away_enabled', b.away_enabled, 'away_text', b.away_text)
                  from business_hours b where b.company_id = r.company and b.team_id is null) as company,
               (select jsonb_build_object('zone', b.zone, 'schedule', b.schedule, 'holidays', b.holidays, 'away_enabled', b.away_enabled, 'away_text', b.away_text)
                  from chats c join leads l on l.company_id = c.company_id and l.id = c.lead_id
                  join agentes a on a.company_id = l.company_id and a.id = l.agente_id
                  join business_hours b on b.company_id = r.company and b.team_id = a.equipo_de_ventas_id
                 where c.company_id = r.company and c.id = r.chat) as team
          from jsonb_to_recordset(${list}::jsonb) as r(k int, company uuid, chat uuid)`,
  );
  const byK = new Map(rows.map((r) => [Number(r.k), r]));
  const said = (h: Side) => (h?.away_enabled && h.away_text ? h.away_text : null);
  let sent = 0;
  for (const [k, e] of received.entries()) {
    const row = byK.get(k);
    const hours = row?.team ?? row?.company;
    // the team's own away text, else the company's; none of both: nothing to send
    const text = said(row?.team ?? null) ?? said(row?.company ?? null);
    if (!hours || !text) continue;
    const period = openingPeriodOf(hours, new Date(e.occurredAt));
    if (!period) continue;
    const { chatId } = e.payload as DomainEvent<'message.received'>['payload'];
    const messageId = stableId('away', chatId, period.toISOString());
    const [claimed] = await rowsOf<{ chat_id: string }>(
      deps.db,
      sql`insert into away_messages (company_id, chat_id, period_start, message_id) values (${e.companyId}, ${chatId}, ${period.toISOString()}, ${messageId})
          on conflict (chat_id, period_start) do nothing returning chat_id::text`,
    );
    if (!claimed) continue;
    try {
      await deps.sendText(e.companyId, chatId, text, messageId);
      sent++;
    } catch (error) {
      // not sent (a channel without credentials, a refusal): the next message of the period may try again
      await deps.db.execute(sql`delete from away_messages where chat_id = ${chatId} and period_start = ${period.toISOString()}`);
      deps.log.warn({ err: error, chatId }, 'no se pudo enviar el mensaje de ausencia');
    }
  }
  return sent;
}
