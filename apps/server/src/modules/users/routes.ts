import {
  listQuery,
  pageOf,
  registerInput,
  type Role,
  type roles,
  successMessages,
  updatePasswordInput,
  userOut,
  userPatch,
  userSortFields,
  zId,
} from '@mostrador/contract';
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { groupMembers } from '../../db/join-tables.js';
import { memberships, users } from '../../db/schema.js';
import { audit, changesOf } from '../../db/audit.js';
import { AppError } from '../../lib/errors.js';
import { containsPattern, listRules, pageResult } from '../../lib/list.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { assertMayGrant, assertMayTouch } from './hierarchy.js';

const idParams = z.object({ id: zId() });

/** A member of the caller's company, or 404: users of other companies do not exist here. */
async function memberOf(db: Db, tenant: Tenant, userId: string) {
  const [row] = await db
    .select({ user: users, role: memberships.role })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.companyId, tenant.companyId)))
    .where(eq(users.id, userId));
  if (!row) throw new AppError('NOT_FOUND', 'El usuario no existe');
  return row;
}

function toWire(row: { user: typeof users.$inferSelect; role: string }) {
  const u = row.user;
  return {
    _id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    disabled: u.disabled,
    role: row.role as (typeof roles)[number],
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

const rules = listRules(userSortFields, Object.keys(userOut.shape));

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  /** The company's members (SPEC §7: default sort name asc), searched by name and e-mail. */
  app.get(
    '/users',
    { config: { permission: { module: 'users', action: 'list' } }, schema: { tags: ['users'], querystring: listQuery, response: { 200: pageOf(userOut.partial()) } } },
    async (request) => {
      const tenant = tenantOf(request);
      const q = request.query;
      const sort = rules.sortOf(q, 'name');
      rules.assertFields(q);
      const direction = (q.order ?? 'asc') === 'asc' ? asc : desc;
      const term = q.filter ? containsPattern(q.filter) : undefined;
      const where = and(
        eq(memberships.companyId, tenant.companyId),
        term ? or(ilike(users.firstName, term), ilike(users.lastName, term), ilike(users.email, term), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, term)) : undefined,
      );
      const orderBy = {
        name: [direction(users.firstName), direction(users.lastName)],
        email: [direction(users.email)],
        role: [direction(memberships.role)],
        createdAt: [direction(users.createdAt)],
      }[sort as (typeof userSortFields)[number]];
      const [rows, [{ n }]] = await Promise.all([
        db
          .select({ user: users, role: memberships.role })
          .from(users)
          .innerJoin(memberships, eq(memberships.userId, users.id))
          .where(where)
          .orderBy(...orderBy, direction(users.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
        db.select({ n: count() }).from(users).innerJoin(memberships, eq(memberships.userId, users.id)).where(where),
      ]);
      return pageResult(rows.map(toWire), Number(n), q);
    },
  );

  /**
   * Removes a user from the current company (their account stays for their other
   * companies; with none left it is disabled and signed out everywhere).
   */
  app.delete(
    '/users/:id',
    { config: { permission: { module: 'users', action: 'delete' } }, schema: { tags: ['users'], params: idParams } },
    async (request) => {
      const tenant = tenantOf(request);
      const { id } = request.params;
      if (id === tenant.userId) throw new AppError('BAD_REQUEST', 'No puedes quitarte a ti mismo de la compañía');
      await db.transaction(async (tx) => {
        await memberOf(tx, tenant, id);
        await assertMayTouch(tx, tenant, id, 'quitar de la compañía a {x}');
        await tx.delete(memberships).where(and(eq(memberships.userId, id), eq(memberships.companyId, tenant.companyId)));
        await tx.delete(groupMembers).where(and(eq(groupMembers.userId, id), eq(groupMembers.companyId, tenant.companyId)));
        await audit(tx, { companyId: tenant.companyId, action: 'delete', entity: 'users', entityId: id });
        const [{ left }] = await tx.select({ left: count() }).from(memberships).where(eq(memberships.userId, id));
        if (Number(left) === 0) {
          await tx.update(users).set({ disabled: true, updatedAt: new Date() }).where(eq(users.id, id));
          await app.sessions.revokeAllOf(tx, id);
        }
      });
      return { status: 200, _id: id, msg: successMessages.deleted };
    },
  );

  /** Own record: always; anyone else's: the role must allow it. */
  async function assertSelfOr(tenant: Tenant, id: string, action: 'read' | 'update') {
    if (id === tenant.userId) return;
    if (!(await app.permissions.allows(tenant, 'users', action))) throw new AppError('FORBIDDEN');
  }

  app.get('/users/:id', { schema: { tags: ['users'], params: idParams, response: { 200: userOut } } }, async (request) => {
    const tenant = tenantOf(request);
    await assertSelfOr(tenant, request.params.id, 'read');
    return toWire(await memberOf(db, tenant, request.params.id));
  });

  app.put(
    '/users/:id',
    { config: { permission: { module: 'users', action: 'update' } }, schema: { tags: ['users'], params: idParams, body: userPatch } },
    async (request) => {
      const tenant = tenantOf(request);
      const { id } = request.params;
      const { role, disabled, first_name, last_name } = request.body;
      if (id === tenant.userId && (disabled === true || (role && role !== tenant.role))) {
        throw new AppError('BAD_REQUEST', 'No puedes deshabilitarte ni cambiar tu propio rol');
      }
      if (role) assertMayGrant(tenant, role);
      await db.transaction(async (tx) => {
        const current = await memberOf(tx, tenant, id);
        await assertMayTouch(tx, tenant, id, disabled === true ? 'deshabilitar a {x}' : 'cambiar los datos de {x}');
        await tx
          .update(users)
          .set({ firstName: first_name, lastName: last_name, disabled, updatedAt: new Date() })
          .where(eq(users.id, id));
        if (role) {
          await tx.update(memberships).set({ role }).where(and(eq(memberships.userId, id), eq(memberships.companyId, tenant.companyId)));
        }
        if (disabled === true && !current.user.disabled) await app.sessions.revokeAllOf(tx, id);
        // the audit log (decision 0072): a role change, a disable or enable, or the name, each its own action
        const changes = changesOf(
          { first_name: current.user.firstName, last_name: current.user.lastName, disabled: current.user.disabled, role: current.role },
          {
            first_name: first_name ?? current.user.firstName,
            last_name: last_name ?? current.user.lastName,
            disabled: disabled ?? current.user.disabled,
            role: role ?? current.role,
          },
        );
        const action = changes.role ? 'role_change' : changes.disabled ? (disabled ? 'disable' : 'enable') : 'update';
        if (Object.keys(changes).length) await audit(tx, { companyId: tenant.companyId, action, entity: 'users', entityId: id, changes });
      });
      return { status: 200, msg: successMessages.updated, user: toWire(await memberOf(db, tenant, id)) };
    },
  );

  app.put(
    '/users/:id/update-password',
    { schema: { tags: ['users'], params: idParams, body: updatePasswordInput } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { id } = request.params;
      await assertSelfOr(tenant, id, 'update');
      await memberOf(db, tenant, id);
      await assertMayTouch(db, tenant, id, 'cambiar la contraseña de {x}');
      // the caller proves who they are again: their own current password, whoever's they change
      const [caller] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, tenant.userId));
      if (!caller || !(await verifyPassword(caller.passwordHash, request.body.currentPassword))) {
        throw new AppError('VALIDATION', 'La contraseña actual no es correcta', [{ path: 'currentPassword', msg: 'No es correcta' }]);
      }
      const passwordHash = await hashPassword(request.body.newPassword);
      const self = id === tenant.userId;
      const session = await db.transaction(async (tx) => {
        await memberOf(tx, tenant, id);
        await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
        await app.sessions.revokeAllOf(tx, id);
        // Your own change keeps you signed in here, on a fresh session; every other one is closed.
        return self ? app.sessions.open(reply, id, { ip: request.ip, userAgent: request.headers['user-agent'] }, tx) : undefined;
      });
      if (session) return { ...(await session.respond()), msg: successMessages.passwordChanged };
      return { status: 200, msg: successMessages.passwordChanged };
    },
  );

  app.post(
    '/register',
    { config: { permission: { module: 'users', action: 'create' } }, schema: { tags: ['users'], body: registerInput } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const b = request.body;
      const companyIds = [...new Set(b.companyIds)];
      // An admin may add people only to companies they belong to themselves.
      const mine = await db
        .select({ companyId: memberships.companyId, role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.userId, tenant.userId), inArray(memberships.companyId, companyIds)));
      if (mine.length !== companyIds.length) {
        throw new AppError('VALIDATION', 'Alguna de las compañías no existe', [{ path: 'companyIds', msg: 'Compañía no válida' }]);
      }
      // the role is granted in every company named: the caller's role in each must allow it
      for (const m of mine) assertMayGrant({ ...tenant, role: m.role as Role }, b.role);
      const passwordHash = await hashPassword(b.password);
      const created = await db.transaction(async (tx) => {
        const [taken] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.corporationId, tenant.corporationId), eq(users.email, b.email)));
        if (taken) throw new AppError('CONFLICT', 'Ya existe un usuario con ese correo', [{ path: 'email', msg: 'Correo ya registrado' }]);
        const [user] = await tx
          .insert(users)
          .values({ corporationId: tenant.corporationId, email: b.email, firstName: b.first_name, lastName: b.last_name, passwordHash })
          .returning();
        await tx
          .insert(memberships)
          .values(companyIds.map((companyId, i) => ({ companyId, userId: user.id, role: b.role, isDefault: i === 0 })));
        for (const companyId of companyIds) {
          await audit(tx, { companyId, action: 'create', entity: 'users', entityId: user.id, changes: changesOf(null, { email: user.email, role: b.role }) });
        }
        return user;
      });
      return reply.status(201).send({ status: 201, msg: successMessages.created, user: toWire({ user: created, role: b.role }) });
    },
  );
};
