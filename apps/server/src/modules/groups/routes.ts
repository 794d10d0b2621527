import { groupMembersInput, resources, successMessages, userOut, zId } from '@mostrador/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { groupMembers } from '../../db/join-tables.js';
import { memberships, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { type Tenant, tenantOf } from '../../plugins/auth.js';
import { repositoryOf } from '../../resources/crud.js';

const idParams = z.object({ id: zId() });
const membersOut = z.object({ payload: z.array(userOut) });

/**
 * Group members (SPEC §7 Groups). A group itself is the standard resource `groups`; its
 * members are users of the same company, listed and replaced as a whole.
 */
export const groupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const repo = repositoryOf(resources.groups, app.secrets);
  const tags = ['groups'];

  async function members(database: Db, tenant: Tenant, groupId: string) {
    const rows = await database
      .select({ user: users, role: memberships.role })
      .from(groupMembers)
      .innerJoin(users, eq(users.id, groupMembers.userId))
      .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.companyId, tenant.companyId)))
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.companyId, tenant.companyId)))
      .orderBy(asc(users.firstName), asc(users.lastName));
    return rows.map(({ user: u, role }) => ({
      _id: u.id,
      first_name: u.firstName,
      last_name: u.lastName,
      email: u.email,
      disabled: u.disabled,
      role: role as z.infer<typeof userOut>['role'],
      createdAt: u.createdAt.toISOString(),
      updatedAt: u.updatedAt.toISOString(),
    }));
  }

  app.get(
    '/groups/:id/users',
    { config: { permission: { module: 'groups', action: 'read' } }, schema: { tags, params: idParams, response: { 200: membersOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      await repo.get(db, tenant, request.params.id);
      return { payload: await members(db, tenant, request.params.id) };
    },
  );

  // The spec writes the path with a trailing slash; both spellings answer.
  for (const path of ['/groups/:id/users/', '/groups/:id/users']) {
    app.put(
      path,
      { config: { permission: { module: 'groups', action: 'update' } }, schema: { tags, params: idParams, body: groupMembersInput } },
      async (request) => {
        const tenant = tenantOf(request);
        const groupId = request.params.id;
        const userIds = [...new Set(request.body.userIds)];
        const payload = await db.transaction(async (tx) => {
          await repo.get(tx, tenant, groupId);
          if (userIds.length) {
            const known = await tx
              .select({ userId: memberships.userId })
              .from(memberships)
              .where(and(eq(memberships.companyId, tenant.companyId), inArray(memberships.userId, userIds)));
            if (known.length !== userIds.length) {
              throw new AppError('VALIDATION', 'Algún usuario no pertenece a esta compañía', [{ path: 'userIds', msg: 'Usuario no válido' }]);
            }
          }
          await tx.delete(groupMembers).where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.companyId, tenant.companyId)));
          if (userIds.length) await tx.insert(groupMembers).values(userIds.map((userId) => ({ companyId: tenant.companyId, groupId, userId })));
          return members(tx, tenant, groupId);
        });
        return { status: 200, msg: successMessages.usersUpdated, payload };
      },
    );
  }
};
