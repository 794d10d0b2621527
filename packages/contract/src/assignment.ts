import { z } from 'zod';
import { zId } from './fields.js';
import { actions, moduleNames, roles } from './permissions.js';
import { type LeadStatus, leadStatusLabels } from './resources/leads.js';

/**
 * Who holds what (decisions 0025 and 0026): the agent's own calls, automatic assignment,
 * reassignment of what an agent held, the inbox views and the roles' matrix.
 *
 *   GET  /assignment/me                 → MyAgent: the caller's agent in this company (null when they are none)
 *   PUT  /assignment/me                 availabilityInput → MyAgent (Disponible / Ausente, from the user menu)
 *   GET  /assignment/settings           → AssignmentSettings (automatic assignment of the company)
 *   PUT  /assignment/settings           assignmentSettingsInput → AssignmentSettings
 *   GET  /agentes/workload              → { payload: AgentWorkload[] } (what each agent holds)
 *   POST /agentes/:id/reassign          reassignInput → ReassignResult (everything the agent holds, to another agent or unassigned)
 *   GET  /chats/counts                  the inbox filters → InboxCounts (Mías, Sin asignar, Todas; byStatus)
 *   GET  /roles                         → RolesMatrix
 *   PUT  /roles/:role                   rolePermissionsInput → RolesMatrix
 */

// ---- lead status and assignment (decision 0025) ----

/** Statuses in which somebody works the lead: they need an agent, and lose it back to sin-asignar. */
export const workingStatuses: readonly LeadStatus[] = ['informado-al-agente', 're-conectar'];

export interface Assignment {
  status?: LeadStatus | null;
  agenteId?: string | null;
}

/**
 * The one rule that keeps a lead's status and its agent in agreement (decision 0025), applied by
 * the server to every write of a lead or clean lead (create, update, reassignment, an agent's
 * deletion, automatic assignment). `current`: the stored record (empty on create); `patch`:
 * what the write sets. Answers the fields to write.
 *   1. An agent on a lead that is sin-asignar takes it out: informado-al-agente.
 *   2. Setting the status sin-asignar (without naming an agent) clears the agent.
 *   3. Clearing the agent of a lead someone works (informado-al-agente, re-conectar) returns it
 *      to sin-asignar; a finished lead (compra-realizada, compra-fallida) keeps its status.
 * So a sin-asignar lead never has an agent, and "Sin asignar" lists only unassigned leads.
 */
export function settleAssignment(current: Assignment, patch: Assignment): Assignment {
  const out: Assignment = { ...patch };
  const namesAgent = 'agenteId' in patch && patch.agenteId !== undefined;
  // 2: back to the unassigned pile
  if (!namesAgent && patch.status === 'sin-asignar' && current.agenteId) out.agenteId = null;
  const agent = out.agenteId !== undefined ? out.agenteId : current.agenteId;
  const status = out.status ?? current.status;
  // 1: an agent takes it
  if (agent && status === 'sin-asignar') out.status = 'informado-al-agente';
  // 3: nobody holds it any more
  if (!agent && namesAgent && current.agenteId && status && workingStatuses.includes(status) && !patch.status) out.status = 'sin-asignar';
  return out;
}

/** The Spanish explanation of what the rule did, for a screen that wants to tell the user. */
export const assignmentRuleTexts = {
  assigned: `Al asignarle un agente, el lead pasa a «${leadStatusLabels['informado-al-agente']}»`,
  unassigned: `Sin agente, el lead vuelve a «${leadStatusLabels['sin-asignar']}»`,
} as const;

// ---- the caller's agent and availability ----

export const myAgentOut = z.object({
  agente: z
    .object({ _id: z.string(), name: z.string(), active: z.boolean(), available: z.boolean() })
    .nullable(),
});
export type MyAgent = z.infer<typeof myAgentOut>;

export const availabilityInput = z.object({ available: z.boolean({ error: 'Debe ser true o false' }) }).strict();

// ---- automatic assignment (decision 0025: beyond the spec, off by default) ----

/** Among whom a new chat's lead is dealt round-robin: every available agent, those of its channel, or those of its labels' chat groups. */
export const assignmentStrategies = ['all', 'channel', 'label'] as const;
export type AssignmentStrategy = (typeof assignmentStrategies)[number];
export const assignmentStrategyLabels: Record<AssignmentStrategy, string> = {
  all: 'Entre todos los agentes disponibles',
  channel: 'Por canal: los agentes que atienden el canal del chat',
  label: 'Por etiqueta: los agentes de los grupos de chat de sus etiquetas',
};

export const assignmentSettingsOut = z.object({ enabled: z.boolean(), strategy: z.enum(assignmentStrategies) });
export type AssignmentSettings = z.infer<typeof assignmentSettingsOut>;
export const assignmentSettingsInput = z
  .object({
    enabled: z.boolean({ error: 'Debe ser true o false' }),
    strategy: z.enum(assignmentStrategies, { error: 'Elige cómo repartir los chats' }),
  })
  .partial()
  .strict();

// ---- what agents hold, and handing it over ----

export const agentWorkloadOut = z.object({
  payload: z.array(z.object({ agenteId: z.string(), leads: z.number().int(), cleanLeads: z.number().int(), chats: z.number().int() })),
});
export type AgentWorkload = z.infer<typeof agentWorkloadOut>['payload'][number];

/** POST /agentes/:id/reassign: to another (active) agent, or null to leave it unassigned. */
export const reassignInput = z.object({ agenteId: zId().nullable() }).strict();
export const reassignResult = z.object({ msg: z.string(), leads: z.number().int(), cleanLeads: z.number().int() });

// ---- the inbox views ----

/** The inbox tabs: the caller's chats, nobody's, every chat the caller may see. */
export const inboxViews = ['mine', 'unassigned', 'all'] as const;
export type InboxView = (typeof inboxViews)[number];
export const inboxViewLabels: Record<InboxView, string> = { mine: 'Mías', unassigned: 'Sin asignar', all: 'Todas' };
export const zInboxView = () => z.enum(inboxViews, { error: 'Vista desconocida: mine, unassigned o all' });
/**
 * GET /chats/counts: the tabs' counts (Mías, Sin asignar, Todas, with every filter given) and,
 * in `byStatus`, how many chats of the tab asked (`view`) each status holds with the other
 * filters (the inbox's «Estado» select: Abiertos, Pospuestos, Resueltos; decision 0076).
 */
export const inboxCountsOut = z.object({
  mine: z.number().int(),
  unassigned: z.number().int(),
  all: z.number().int(),
  byStatus: z.object({ open: z.number().int(), snoozed: z.number().int(), closed: z.number().int() }),
});
export type InboxCounts = z.infer<typeof inboxCountsOut>;

// ---- the roles' matrix (decision 0026) ----

export const rolesMatrixOut = z.object({
  roles: z.array(
    z.object({
      role: z.enum(roles),
      editable: z.boolean(),
      permissions: z.record(z.string(), z.array(z.enum(actions))),
    }),
  ),
});
export type RolesMatrix = z.infer<typeof rolesMatrixOut>;
export const roleParams = z.object({ role: z.enum(roles, { error: 'Rol desconocido' }) }).strict();
/** The role's whole matrix: module → actions it may do (a module left out: nothing). */
export const rolePermissionsInput = z
  .object({
    permissions: z.partialRecord(
      z.enum(moduleNames as [string, ...string[]], { error: 'Módulo desconocido' }),
      z.array(z.enum(actions, { error: 'Acción desconocida' })).max(actions.length),
    ),
  })
  .strict();
