import {
  type Action,
  actionsOf,
  agentWorkloadOut,
  assignmentSettingsInput,
  assignmentSettingsOut,
  availabilityInput,
  editableRoles,
  type Module,
  moduleNames,
  modules,
  myAgentOut,
  reassignInput,
  reassignResult,
  roleLabels,
  roleParams,
  rolePermissionsInput,
  roles,
  rolesMatrixOut,
  zId,
} from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { assertMayEditRole } from '../users/hierarchy.js';
import { reassignHeld } from '../../resources/assignment-rules.js';

const idParams = z.object({ id: zId() }).strict();

/**
 * Who holds what and who may do what (contract assignment.ts; decisions 0025, 0026): the
 * caller's agent and availability, the automatic assignment setting, each agent's workload and
 * the handing over of what an agent held, and the roles' permission matrix.
 */
export const assignmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  // ---- the caller's agent ----

  async function myAgent(tenant: Tenant) {
    if (!tenant.agenteId) return { agente: null };
    const [row] = await rowsOf<{ id: string; name: string; active: boolean | null; available: boolean | null }>(
      db,
      sql`select id, name, active, available from agentes where company_id = ${tenant.companyId} and id = ${tenant.agenteId}`,
    );
    return { agente: row ? { _id: row.id, name: row.name, active: row.active !== false, available: row.available === true } : null };
  }

  app.get(
    '/assignment/me',
    { config: { permission: { module: 'profile', action: 'read' } }, schema: { tags: ['assignment'], response: { 200: myAgentOut } } },
    (request) => myAgent(tenantOf(request)),
  );

  /** Disponible / Ausente, from the user menu: only available agents are dealt new chats. */
  app.put(
    '/assignment/me',
    { config: { permission: { module: 'profile', action: 'update' } }, schema: { tags: ['assignment'], body: availabilityInput, response: { 200: myAgentOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      if (!tenant.agenteId) throw new AppError('NOT_FOUND', 'No eres agente en esta compañía: pide a un administrador que te vincule en /agentes');
      await db.execute(sql`update agentes set available = ${request.body.available}, updated_at = now()
          where company_id = ${tenant.companyId} and id = ${tenant.agenteId}`);
      return myAgent(tenant);
    },
  );

  // ---- automatic assignment ----

  async function settingsOf(companyId: string) {
    const [row] = await rowsOf<{ enabled: boolean; strategy: string }>(db, sql`select enabled, strategy from assignment_settings where company_id = ${companyId}`);
    return assignmentSettingsOut.parse(row ?? { enabled: false, strategy: 'all' });
  }

  app.get(
    '/assignment/settings',
    { config: { permission: { module: 'settings', action: 'read' } }, schema: { tags: ['assignment'], response: { 200: assignmentSettingsOut } } },
    (request) => settingsOf(tenantOf(request).companyId),
  );

  app.put(
    '/assignment/settings',
    {
      config: { permission: { module: 'settings', action: 'update' } },
      schema: { tags: ['assignment'], body: assignmentSettingsInput, response: { 200: assignmentSettingsOut } },
    },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { enabled, strategy } = request.body;
      await db.execute(sql`insert into assignment_settings (company_id, enabled, strategy)
          values (${companyId}, ${enabled ?? false}, ${strategy ?? 'all'})
          on conflict (company_id) do update set enabled = coalesce(${enabled ?? null}::boolean, assignment_settings.enabled),
            strategy = coalesce(${strategy ?? null}::text, assignment_settings.strategy), updated_at = now()`);
      return settingsOf(companyId);
    },
  );

  // ---- what each agent holds, and handing it over ----

  app.get(
    '/agentes/workload',
    { config: { permission: { module: 'organization', action: 'list' } }, schema: { tags: ['agentes'], response: { 200: agentWorkloadOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const rows = await rowsOf<{ agente_id: string; leads: number; clean_leads: number; chats: number }>(
        db,
        sql`select a.id as agente_id,
              (select count(*)::int from leads l where l.company_id = a.company_id and l.agente_id = a.id) as leads,
              (select count(*)::int from clean_leads k where k.company_id = a.company_id and k.agente_id = a.id) as clean_leads,
              (select count(*)::int from chats c join leads l on l.company_id = c.company_id and l.id = c.lead_id
                where c.company_id = a.company_id and l.agente_id = a.id) as chats
            from agentes a where a.company_id = ${companyId} order by a.name, a.id`,
      );
      return { payload: rows.map((r) => ({ agenteId: r.agente_id, leads: r.leads, cleanLeads: r.clean_leads, chats: r.chats })) };
    },
  );

  /** Everything an agent holds (leads, clean leads, and so their chats) to another active agent, or unassigned. */
  app.post(
    '/agentes/:id/reassign',
    {
      config: { permission: { module: 'organization', action: 'update' } },
      schema: { tags: ['agentes'], params: idParams, body: reassignInput, response: { 200: reassignResult } },
    },
    async (request) => {
      const { companyId } = tenantOf(request);
      const from = request.params.id;
      const to = request.body.agenteId;
      return db.transaction(async (tx) => {
        const found = await rowsOf<{ id: string; name: string; active: boolean | null }>(
          tx,
          sql`select id, name, active from agentes where company_id = ${companyId} and id = any(${`{${[from, to ?? from].join(',')}}`}::uuid[]) for update`,
        );
        if (!found.some((a) => a.id === from)) throw new AppError('NOT_FOUND', 'El agente no existe en esta compañía');
        if (to) {
          const target = found.find((a) => a.id === to);
          if (to === from) throw new AppError('VALIDATION', 'Elige otro agente', [{ path: 'agenteId', msg: 'Elige otro agente' }]);
          if (!target) throw new AppError('VALIDATION', 'Ese agente no existe en esta compañía', [{ path: 'agenteId', msg: 'No existe en esta compañía' }]);
          if (target.active === false) {
            const msg = `El agente «${target.name}» está inactivo: elige otro`;
            throw new AppError('VALIDATION', msg, [{ path: 'agenteId', msg }]);
          }
        }
        const moved = await reassignHeld(tx as unknown as Db, companyId, from, to);
        const total = moved.leads + moved.clean_leads;
        const target = to ? `a «${found.find((a) => a.id === to)?.name}»` : 'a «Sin asignar»';
        return {
          msg: total ? `${moved.leads} leads y ${moved.clean_leads} leads limpios pasaron ${target}` : 'El agente no tenía nada asignado',
          leads: moved.leads,
          cleanLeads: moved.clean_leads,
        };
      });
    },
  );

  // ---- the roles' permission matrix (decision 0026) ----

  async function matrix(corporationId: string) {
    const rows = await rowsOf<{ role: string; module: string; action: Action }>(
      db,
      sql`select role, module, action from role_permissions where corporation_id = ${corporationId} order by role, module, action`,
    );
    return {
      roles: roles.map((role) => {
        const permissions: Record<string, Action[]> = {};
        for (const module of moduleNames) {
          const held = new Set(rows.filter((r) => r.role === role && r.module === module).map((r) => r.action));
          permissions[module] = actionsOf(module).filter((a) => held.has(a));
        }
        return { role, editable: editableRoles.includes(role), permissions };
      }),
    };
  }

  app.get(
    '/roles',
    { config: { permission: { module: 'roles', action: 'list' } }, schema: { tags: ['roles'], response: { 200: rolesMatrixOut } } },
    (request) => matrix(tenantOf(request).corporationId),
  );

  /** A role's whole matrix, replaced at once; takes effect on the role's next request (decision 0023). */
  app.put(
    '/roles/:role',
    {
      config: { permission: { module: 'roles', action: 'update' } },
      schema: { tags: ['roles'], params: roleParams, body: rolePermissionsInput, response: { 200: rolesMatrixOut } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { role } = request.params;
      if (!editableRoles.includes(role)) {
        throw new AppError('VALIDATION', `El rol ${roleLabels[role]} tiene siempre todos los permisos: no se puede cambiar`);
      }
      const wanted: Array<{ module: Module; action: Action }> = [];
      const details: Array<{ path: string; msg: string }> = [];
      for (const [module, list] of Object.entries(request.body.permissions) as Array<[Module, Action[] | undefined]>) {
        const own = new Set(actionsOf(module));
        for (const action of new Set(list ?? [])) {
          if (own.has(action)) wanted.push({ module, action });
          else details.push({ path: `permissions.${module}`, msg: `«${modules[module].label}» no tiene la acción «${action}»` });
        }
      }
      if (details.length) throw new AppError('VALIDATION', details[0].msg, details);
      assertMayEditRole(tenant, role, wanted, await app.permissions.matrix(tenant));
      await db.transaction(async (tx) => {
        await tx.execute(sql`delete from role_permissions where corporation_id = ${tenant.corporationId} and role = ${role}`);
        if (wanted.length) {
          await tx.execute(sql`insert into role_permissions (corporation_id, role, module, action) values ${sql.join(
            wanted.map((w) => sql`(${tenant.corporationId}, ${role}, ${w.module}, ${w.action})`),
            sql`, `,
          )}`);
        }
      });
      return matrix(tenant.corporationId);
    },
  );
};
