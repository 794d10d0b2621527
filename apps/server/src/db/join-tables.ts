import { index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { groupsTable } from './resource-tables.js';
import { companies, users } from './schema.js';

/** Members of a group (SPEC §7 Groups: GET /groups/{id}/users, PUT /groups/{id}/users/). */
export const groupMembers = pgTable(
  'group_members',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groupsTable.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_company_user_idx').on(t.companyId, t.userId)],
);
