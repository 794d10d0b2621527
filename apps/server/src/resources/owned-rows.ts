import { columnNameOf, type OwnedResource, ownedRows, type RealtimeEvent, resources, tableNameOf } from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { rowOwner, type Tenant } from '../plugins/auth.js';

/**
 * Row scope of the owned resources (contract `ownedRows`, decision 0026): without its module's
 * `all` a caller sees only their agent's rows and the unassigned ones. Built here once, from
 * the declaration, for the repository (every standard list, get, update, delete and export),
 * the inbox and the id parameters of any call (plugins/row-scope.ts).
 */

export const isOwned = (key: string): key is OwnedResource => Object.hasOwn(ownedRows, key);

/** Whose rows of `key` the tenant sees: undefined everybody's, else the agent (null: only unassigned). */
export function ownerOf(key: string, tenant: Tenant): string | null | undefined {
  return isOwned(key) ? rowOwner(tenant, ownedRows[key].module) : undefined;
}

/** `agent is held by nobody or by the caller`: a column of agent ids, as the caller may see it. */
export function visibleAgent(column: SQL, agent: string | null): SQL {
  return agent ? sql`(${column} is null or ${column} = ${agent}::uuid)` : sql`${column} is null`;
}

/**
 * The condition on a row of `key` (its columns in `row`: the column name → its SQL) that the
 * tenant may see it, or undefined when they see every row. A row owned through another one
 * (a chat through its lead) is hidden only when that one is held by somebody else: a chat
 * without a lead, or whose lead is gone, is unassigned.
 */
export function ownerCondition(key: string, tenant: Tenant, row: (column: string) => SQL): SQL | undefined {
  const agent = ownerOf(key, tenant);
  if (agent === undefined || !isOwned(key)) return undefined;
  const rule = ownedRows[key] as { owner?: string; through?: { field: string; resource: string } };
  if (rule.owner) return visibleAgent(row(columnNameOf(rule.owner)), agent);
  const through = rule.through as { field: string; resource: OwnedResource };
  const other = ownedRows[through.resource] as { owner: string };
  const owner = sql.raw(`o.${columnNameOf(other.owner)}`);
  const heldElsewhere = agent ? sql`${owner} is not null and ${owner} <> ${agent}::uuid` : sql`${owner} is not null`;
  return sql`not exists (select 1 from ${sql.raw(tableNameOf(through.resource))} o
    where o.company_id = ${row('company_id')} and o.id = ${row(columnNameOf(through.field))} and ${heldElsewhere})`;
}

/** The ids among `ids` of `key`'s records the tenant may see (all of them when they see every row). */
export async function visibleIds(db: Db, tenant: Tenant, key: OwnedResource, ids: readonly string[]): Promise<Set<string>> {
  const condition = ownerCondition(key, tenant, (column) => sql.raw(`t.${column}`));
  if (!condition || ids.length === 0) return new Set(ids);
  const { rows } = await db.execute<{ id: string }>(sql`select t.id from ${sql.raw(tableNameOf(key))} t
      where t.company_id = ${tenant.companyId} and t.id = any(${`{${ids.join(',')}}`}::uuid[]) and ${condition}`);
  return new Set(rows.map((r) => r.id));
}

/** The Spanish 404 of a record the caller may not see (it may exist, held by another agent). */
export const hiddenMessage = (key: OwnedResource) => `El ${resources[key].label.toLowerCase()} no existe en esta compañía o lo atiende otro agente`;

/** The inbox's part of a caller (decision 0025): whose chats they may see (`owner`, as ownerOf) and which agent they are (`me`, for Mías). */
export interface InboxScope {
  owner?: string | null;
  me?: string | null;
}

export const inboxScope = (tenant: Tenant): InboxScope => ({ owner: ownerOf('chats', tenant), me: tenant.agenteId ?? null });

/**
 * Which real-time events (GET /api/events) a caller may receive (decision 0026): everything when
 * they see every chat; else only those of their own and unassigned chats — the chat's lead
 * travels with message.created and chat.updated; a message.updated names only its chat, which is
 * looked up once and remembered for the stream.
 */
export function realtimeFilter(db: Db, tenant: Tenant): ((event: RealtimeEvent) => Promise<boolean>) | undefined {
  const owner = ownerOf('chats', tenant);
  if (owner === undefined) return undefined;
  const known = new Map<string, boolean>();
  const ofLead = (agenteId: string | undefined) => !agenteId || agenteId === owner;
  return async (event) => {
    if (event.type === 'message.created' || event.type === 'chat.updated') {
      const visible = ofLead(event.chat.lead?.agenteId);
      known.set(event.chat._id, visible);
      return visible;
    }
    if (event.type === 'message.updated') {
      let visible = known.get(event.chatId);
      if (visible === undefined) {
        visible = (await visibleIds(db, tenant, 'chats', [event.chatId])).has(event.chatId);
        if (known.size > 5000) known.clear();
        known.set(event.chatId, visible);
      }
      return visible;
    }
    return true;
  };
}
