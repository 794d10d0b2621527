import { type Assignment, type LeadStatus, leadStatusLabels, type Resource, settleAssignment, workingStatuses } from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { AppError } from '../lib/errors.js';
import type { Tenant } from '../plugins/auth.js';

/**
 * The agent rules of decision 0025, applied by the repository to every create and update of a
 * standard resource (and here in SQL for the writes of many rows at once): the ONE place that
 * keeps a lead's status and agent in agreement, keeps inactive agents from being chosen and
 * ties an agent to at most one user of the company.
 */

/** Resources whose records carry a lead status and its agent (contract leads, clean-leads). */
const assigned = new Set(['leads', 'clean-leads']);

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * The status a write of `agent` leaves on rows (rules 1 and 3 of settleAssignment, in SQL): an
 * agent takes a sin-asignar row out of it; no agent returns a worked one to sin-asignar.
 * `agent` is the value written (a bound parameter or a column).
 */
export function settledStatusSql(agent: SQL, status: SQL = sql`status`): SQL {
  return sql`case when ${agent} is not null and ${status} = 'sin-asignar' then 'informado-al-agente'
    when ${agent} is null and ${status} in (${quoted(workingStatuses)}) then 'sin-asignar' else ${status} end`;
}

/** What else changes when a reference `field` of `resourceKey` is cleared (its agent deleted): its status, by the rule. */
export function clearedReference(resourceKey: string, field: string): Record<string, SQL> | undefined {
  if (!assigned.has(resourceKey) || field !== 'agenteId') return undefined;
  return { status: settledStatusSql(sql`null`) };
}

/** Whether a write of `input` needs the stored record to be settled (update only). */
export function needsCurrent(resource: Resource, input: Record<string, unknown>): boolean {
  if (assigned.has(resource.key) && ('agenteId' in input || 'status' in input || 'stageId' in input)) return true;
  return agentFields(resource).some((f) => f in input);
}

/** The fields of `resource` that name agents (`refs` to agentes). */
function agentFields(resource: Resource): string[] {
  return Object.entries(resource.refs)
    .filter(([field, keys]) => keys.includes('agentes') && !field.includes('.'))
    .map(([field]) => field);
}

const idsOf = (value: unknown): string[] => [value].flat().filter((v): v is string => typeof v === 'string');

/**
 * The input to write, settled by the rules; refuses (Spanish 4xx, nothing written) an inactive
 * agent newly chosen, and an agent tied to a user who is not a member or already another agent.
 * `current`: the stored record on update (wire names), undefined on create.
 */
export async function settleWrite(
  db: Db,
  tenant: Tenant,
  resource: Resource,
  input: Record<string, unknown>,
  current?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  // an inactive agent cannot be chosen (one already held stays: editing something else must not fail)
  for (const field of agentFields(resource)) {
    const held = new Set(idsOf(current?.[field]));
    const chosen = idsOf(input[field]).filter((id) => !held.has(id));
    if (!chosen.length) continue;
    const { rows } = await db.execute<{ name: string }>(
      sql`select name from agentes where company_id = ${tenant.companyId} and id = any(${`{${chosen.join(',')}}`}::uuid[]) and active is false order by name`,
    );
    if (rows.length) {
      const msg = `${rows.length > 1 ? 'Los agentes' : 'El agente'} ${rows.map((r) => `«${r.name}»`).join(', ')} ${rows.length > 1 ? 'están inactivos' : 'está inactivo'}: elige otro`;
      throw new AppError('VALIDATION', msg, [{ path: field, msg }]);
    }
  }

  if (resource.key === 'agentes' && typeof input.userId === 'string' && input.userId !== current?.userId) {
    await assertTieable(db, tenant, input.userId, current?._id as string | undefined);
  }

  // a board stage brings its status (decision 0099); then the status rules apply to it like to any status
  if (resource.key === 'leads' && typeof input.stageId === 'string') input = await withStageStatus(db, tenant, input);
  if (assigned.has(resource.key) && ('agenteId' in input || 'status' in input)) {
    const settled = settleAssignment((current ?? {}) as Assignment, input as Assignment);
    return { ...input, ...settled };
  }
  return input;
}

/**
 * A lead written into a company stage (lead-stages) takes the status the stage maps onto; naming
 * another status with it is a Spanish 400, nothing written. The stage is the company's (the
 * references were checked before).
 */
async function withStageStatus(db: Db, tenant: Tenant, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { rows } = await db.execute<{ name: string; maps_to: LeadStatus }>(
    sql`select name, maps_to from lead_stages where company_id = ${tenant.companyId} and id = ${input.stageId as string}::uuid`,
  );
  const stage = rows[0];
  if (!stage) return input;
  if (input.status !== undefined && input.status !== stage.maps_to) {
    const msg = `La etapa «${stage.name}» es parte de «${leadStatusLabels[stage.maps_to]}»: el estado debe ser ese`;
    throw new AppError('VALIDATION', msg, [{ path: 'status', msg }]);
  }
  return { ...input, status: stage.maps_to };
}

/** One agent per user and company, and only members of the company (409 / 400 in Spanish). */
async function assertTieable(db: Db, tenant: Tenant, userId: string, agenteId: string | undefined) {
  const { rows: members } = await db.execute(
    sql`select 1 from memberships where company_id = ${tenant.companyId} and user_id = ${userId}::uuid`,
  );
  if (!members.length) {
    const msg = 'Ese usuario no pertenece a esta compañía';
    throw new AppError('VALIDATION', msg, [{ path: 'userId', msg }]);
  }
  const { rows } = await db.execute<{ name: string }>(
    sql`select name from agentes where company_id = ${tenant.companyId} and user_id = ${userId} and id is distinct from ${agenteId ?? null}::uuid`,
  );
  if (rows.length) {
    const msg = `Ese usuario ya es el agente «${rows[0].name}»: un usuario es un solo agente por compañía`;
    throw new AppError('CONFLICT', msg, [{ path: 'userId', msg }]);
  }
}

/**
 * Moves everything one agent holds (leads and clean leads) to another agent or to nobody, by
 * the same rule (decision 0025): what an inactive or leaving agent held, offered for reassignment.
 */
export async function reassignHeld(db: Db, companyId: string, from: string, to: string | null) {
  const moved: Record<'leads' | 'clean_leads', number> = { leads: 0, clean_leads: 0 };
  for (const table of ['leads', 'clean_leads'] as const) {
    const { rows } = await db.execute<{ n: number }>(sql`with moved as (
        update ${sql.raw(table)} set agente_id = ${to}::uuid, status = ${settledStatusSql(sql`${to}::uuid`)}, updated_at = now()
        where company_id = ${companyId} and agente_id = ${from}::uuid returning 1)
      select count(*)::int as n from moved`);
    moved[table] = rows[0]?.n ?? 0;
  }
  return moved;
}

