import type pg from 'pg';

/**
 * Who holds a chat, on the chat (decision 0025: a chat is its lead's agent's). The inbox tabs
 * Mías and Sin asignar, their counts and an agent's row scope read `chats.agente_id`, kept
 * equal to the lead's `agente_id` by two triggers, instead of joining every chat to its lead:
 * with 100,000 chats the tabs' counts were a hash join over both tables (≈0.7 s on 2 busy
 * cores), and are now index range counts on (company_id, agente_id, last_message_at, id).
 *
 * - a lead's agent changes → its chats follow (one indexed update per lead);
 * - a chat is made, or moves to another lead (a merge) → it takes that lead's agent.
 *
 * A server-kept copy, not a field of the chats resource: nobody writes it but the triggers.
 * Installed like the row counters (db/counters.ts), under the migration lock, once: the
 * column, its backfill, its index and the triggers in one transaction.
 */
const functions = `
create or replace function mostrador_chat_holder_from_lead() returns trigger language plpgsql as $$
begin
  update chats set agente_id = new.agente_id
    where company_id = new.company_id and lead_id = new.id and agente_id is distinct from new.agente_id;
  return null;
end $$;
create or replace function mostrador_chat_holder_of_chat() returns trigger language plpgsql as $$
begin
  new.agente_id := (select l.agente_id from leads l where l.id = new.lead_id);
  return new;
end $$`;

export async function ensureChatHolders(client: pg.PoolClient): Promise<void> {
  await client.query(functions);
  const { rows } = await client.query(`select 1 from pg_trigger where tgname = 'chats_holder_of_chat'`);
  if (rows.length) return;
  await client.query('begin');
  try {
    await client.query('lock table leads, chats in share row exclusive mode');
    await client.query('alter table chats add column if not exists agente_id uuid');
    await client.query(`update chats c set agente_id = l.agente_id from leads l where l.id = c.lead_id and l.agente_id is not null`);
    await client.query('create index if not exists chats_agente_id_activity_idx on chats (company_id, agente_id, last_message_at, id)');
    await client.query(
      `create trigger leads_chat_holder after update of agente_id on leads for each row
       when (old.agente_id is distinct from new.agente_id) execute function mostrador_chat_holder_from_lead()`,
    );
    await client.query(
      `create trigger chats_holder_of_chat before insert or update of lead_id on chats for each row execute function mostrador_chat_holder_of_chat()`,
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}
