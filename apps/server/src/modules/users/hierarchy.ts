import { highestRole, type Role, roleLabels, roleManages } from '@mostrador/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { memberships, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';

/**
 * Who may change whom (decision 0059), the one place every user write asks. The permission
 * matrix says whether a role may manage users at all; this says WHOM: nobody grants, changes,
 * disables, removes or resets the password of a role above their own, and an admin is touched
 * only by an admin. Below admin the rule is strict (a supervisor manages agents, not other
 * supervisors): a supervisor who could reset another supervisor's password could sign in as
 * them. The target's role counts in EVERY company it belongs to, so being an agent here does not
 * shield an admin of another company of the corporation.
 */
/** `what` names the act with `{x}` where the person goes: «deshabilitar a {x}», «cambiar la contraseña de {x}». */
const refusal = (role: Role, what: string) =>
  new AppError(
    'FORBIDDEN',
    role === 'admin'
      ? `Solo un administrador puede ${what.replace('{x}', 'un administrador')}`
      : `Tu rol no alcanza para ${what.replace('{x}', `un usuario con rol ${roleLabels[role]}`)}: pídeselo a un administrador`,
  );

/** Refuses granting `role` (registering or changing a user to it) to a caller who may not. */
export function assertMayGrant(tenant: Tenant, role: Role): void {
  if (roleManages(tenant.role, role)) return;
  throw new AppError(
    'FORBIDDEN',
    role === 'admin'
      ? 'Solo un administrador puede dar el rol Administrador'
      : `Tu rol no alcanza para dar el rol ${roleLabels[role]}: pídeselo a un administrador`,
  );
}

/**
 * Refuses touching another user (`what`: «deshabilitar a {x}», «cambiar la contraseña de {x}»…) when any of their memberships holds a role the caller does not manage. Your
 * own record is yours (the routes keep their own rules about your role and being disabled).
 */
export async function assertMayTouch(db: Db, tenant: Tenant, userId: string, what: string): Promise<void> {
  if (userId === tenant.userId) return;
  const held = await db
    .select({ role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, userId), eq(users.corporationId, tenant.corporationId)));
  const top = highestRole(held.map((h) => h.role));
  if (!roleManages(tenant.role, top)) throw refusal(top, what);
}

/**
 * Refuses editing a role's permission matrix to a caller who does not manage that role, and a
 * grant of actions the caller does not hold themselves (a supervisor allowed to edit the
 * agent's matrix cannot hand agents what supervisors may not do).
 */
export function assertMayEditRole(
  tenant: Tenant,
  role: Role,
  wanted: Array<{ module: string; action: string }>,
  callerHolds: Record<string, readonly string[]>,
): void {
  if (!roleManages(tenant.role, role) || (tenant.role !== 'admin' && role === tenant.role)) {
    throw new AppError('FORBIDDEN', `Tu rol no alcanza para cambiar los permisos del rol ${roleLabels[role]}: pídeselo a un administrador`);
  }
  if (tenant.role === 'admin') return;
  const beyond = wanted.find((w) => !callerHolds[w.module]?.includes(w.action));
  if (beyond) {
    throw new AppError('FORBIDDEN', `No puedes dar un permiso que tu rol no tiene (${beyond.module} · ${beyond.action})`);
  }
}
