import { type DomainEvent, openingPeriodOf } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { stableId } from '../automation/engine.js';
import type { HoursRow } from './service.js';

export interface AwayDeps {
  db: Db;
  /** The chat service's send (the channel's client; a stable id sends once): the automation engine's. */
  sendText: (companyId: string, chatId: string, text: string, messageId: string) => Promise<void>;
  log: { warn: (obj: object, msg: string) => void };
}

/**
 * The spine's `away-message` listener (decision 0078): a customer who writes outside the company's
 * hours, when its away message is on, gets it — once per chat and closed period (the period's
 * start, openingPeriodOf, is the key of a row inserted before the send; an event handed again, or
 * the customer's next message that night, finds it). Whether it is outside hours is judged at the
 * moment the customer wrote (the event's time), not when the listener runs. One statement for the
 * round's companies; the customer just wrote, so the 24-hour window is open. The message goes as
 * the system: it is a `message.sent`, which no away message listens to.
 */
export async function sendAwayMessages(deps: AwayDeps, events: DomainEvent[]): Promise<number> {
  const received = events.filter((e) => e.type === 'message.received');
  if (!received.length) return 0;
  const companies = [...new Set(received.map((e) => e.companyId))];
  const rows = await rowsOf<HoursRow & { company_id: string }>(
    deps.db,
    sql`select company_id::text, zone, schedule, holidays, away_enabled, away_text from business_hours
         where away_enabled and away_text <> '' and company_id = any(${`{${companies.join(',')}}`}::uuid[])`,
  );
  if (!rows.length) return 0;
  const hoursOf = new Map(rows.map((r) => [r.company_id, r]));
  let sent = 0;
  for (const e of received) {
    const hours = hoursOf.get(e.companyId);
    if (!hours) continue;
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
      await deps.sendText(e.companyId, chatId, hours.away_text, messageId);
      sent++;
    } catch (error) {
      // not sent (a channel without credentials, a refusal): the next message of the period may try again
      await deps.db.execute(sql`delete from away_messages where chat_id = ${chatId} and period_start = ${period.toISOString()}`);
      deps.log.warn({ err: error, chatId }, 'no se pudo enviar el mensaje de ausencia');
    }
  }
  return sent;
}
