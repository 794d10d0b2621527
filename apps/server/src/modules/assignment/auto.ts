import type { AssignmentStrategy } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import type { Outcome } from '../conversations/inbound.js';
import { settledStatusSql } from '../../resources/assignment-rules.js';
import { closedTeamsOf, uuidArray } from './hours.js';

/**
 * Automatic assignment (decision 0025; beyond the spec, off by default): a customer message
 * whose lead nobody holds (sin-asignar, no agent) deals that lead round-robin to the next
 * available agent — every available agent, those who answer the chat's channel, or those of
 * the chat groups of the lead's labels (none of those: every available agent). Available:
 * active, marked Disponible, not of a team with its own hours closed now (decision 0081), and for the channel strategy answering that channel (no channels
 * named: all). Runs inside the webhook's transaction: the company's settings row is locked, so
 * two arrivals never take the same turn. Answers the agent dealt, if any.
 */
export async function assignChat(tx: Db, companyId: string, chatId: string): Promise<string | undefined> {
  // the company's turn and the chat's lead, locked only when there is a turn to take: the settings
  // row is every arrival's of the company, so a lead someone holds (most messages) never waits on it
  const [turn] = await rowsOf<{ strategy: AssignmentStrategy; last_agente_id: string | null; id: string; platform: string; labels: string[] | null }>(
    tx,
    sql`select s.strategy, s.last_agente_id, l.id, c.platform, l.mostrador_labels as labels
          from assignment_settings s
          join chats c on c.company_id = s.company_id and c.id = ${chatId}
          join leads l on l.company_id = c.company_id and l.id = c.lead_id and l.agente_id is null and l.status = 'sin-asignar'
         where s.company_id = ${companyId} and s.enabled
         for update of s, l`,
  );
  if (!turn) return undefined;
  const { strategy, last_agente_id: lastAgenteId, id: leadId, platform, labels } = turn;

  // out of the turn: the agents of a team with hours of its own that is closed now (decision 0081),
  // judged in the team's zone before the statement; the company's hours never hold the turn back
  const closed = await closedTeamsOf(tx, companyId);
  const open = closed.length ? sql` and (a.equipo_de_ventas_id is null or a.equipo_de_ventas_id <> all(${uuidArray(closed)}::uuid[]))` : sql``;
  const available = sql`a.company_id = ${companyId} and a.active is not false and a.available is true${open}`;
  let pool = available;
  if (strategy === 'channel') {
    pool = sql`${available} and (a.platforms is null or jsonb_array_length(a.platforms) = 0 or a.platforms ? ${platform})`;
  } else if (strategy === 'label' && labels?.length) {
    const ofLabels = sql`${available} and a.id::text in (select jsonb_array_elements_text(coalesce(g.agente_ids, '[]'::jsonb)) from chat_groups g
      where g.company_id = ${companyId} and g.mostrador_label_ids ?| ${`{${labels.join(',')}}`}::text[])`;
    const [any] = await rowsOf(tx, sql`select 1 from agentes a where ${ofLabels} limit 1`);
    if (any) pool = ofLabels;
  }
  // the next agent after the one dealt last, in name order; past the last one, the first
  const [next] = await rowsOf<{ id: string }>(
    tx,
    sql`select a.id from agentes a left join agentes last on last.company_id = ${companyId} and last.id = ${lastAgenteId}::uuid
        where ${pool}
        order by (last.id is not null and (a.name, a.id) > (last.name, last.id)) desc, a.name, a.id limit 1`,
  );
  if (!next) return undefined;
  await tx.execute(sql`update leads set agente_id = ${next.id}::uuid, status = ${settledStatusSql(sql`${next.id}::uuid`)}, updated_at = now()
      where company_id = ${companyId} and id = ${leadId}`);
  await tx.execute(sql`update assignment_settings set last_agente_id = ${next.id}::uuid where company_id = ${companyId}`);
  return next.id;
}

/** The webhook's one call (modules/webhooks/process.ts): a processed customer message may deal its chat's lead. */
export async function assignOnArrival(
  tx: Db,
  companyId: string,
  outcome: Outcome,
  /** A chat a Dialogflow bot answers is dealt when the bot hands it over, not now (decision 0053). */
  heldByBot?: (tx: Db, companyId: string, chatId: string) => Promise<boolean>,
): Promise<void> {
  if (outcome.status !== 'processed') return;
  for (const effect of outcome.effects ?? []) {
    if (effect.type !== 'message.created') continue;
    if (heldByBot && (await heldByBot(tx, companyId, effect.chatId))) continue;
    await assignChat(tx, companyId, effect.chatId);
  }
}
