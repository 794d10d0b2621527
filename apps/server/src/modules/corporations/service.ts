import { defaultPermissions, type Role } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { companies, corporations, memberships, rolePermissions, users } from '../../db/schema.js';
import { hashPassword } from '../auth/passwords.js';

export interface NewCorporation {
  slug: string;
  name: string;
  companies: Array<{ name: string; country?: string }>;
  users: Array<{
    email: string;
    first_name: string;
    last_name: string;
    password: string;
    role: Role;
    /** Names of the companies the user belongs to; the first is the default. */
    companies: string[];
  }>;
}

/**
 * Creates a corporation with its companies, users, memberships and the default permission
 * matrix, inside the caller's transaction. Used by registration and by the demo seed.
 */
export async function createCorporation(tx: Db, input: NewCorporation) {
  const [corporation] = await tx.insert(corporations).values({ slug: input.slug, name: input.name }).returning();
  const created = await tx
    .insert(companies)
    .values(input.companies.map((c) => ({ corporationId: corporation.id, name: c.name, country: c.country ?? 'PE' })))
    .returning();
  const byName = new Map(created.map((c) => [c.name, c.id]));
  await tx.insert(rolePermissions).values(defaultPermissions().map((p) => ({ corporationId: corporation.id, ...p })));
  const createdUsers = [];
  for (const u of input.users) {
    const [user] = await tx
      .insert(users)
      .values({
        corporationId: corporation.id,
        email: u.email,
        firstName: u.first_name,
        lastName: u.last_name,
        passwordHash: await hashPassword(u.password),
      })
      .returning();
    await tx.insert(memberships).values(
      u.companies.map((name, i) => {
        const companyId = byName.get(name);
        if (!companyId) throw new Error(`Compañía desconocida: ${name}`);
        return { companyId, userId: user.id, role: u.role, isDefault: i === 0 };
      }),
    );
    createdUsers.push(user);
  }
  return { corporation, companies: created, users: createdUsers };
}

/**
 * A module or an action added by a release gets its default permissions in every corporation
 * that has no row for it yet; what a corporation already has rows for (possibly edited) is left
 * alone. The admin holds every permission and its rows cannot be edited (decision 0026), so a
 * module and action with no row at all is new.
 */
export async function ensureModulePermissions(db: Db): Promise<void> {
  const defaults = defaultPermissions();
  const values = sql.join(
    defaults.map((p) => sql`(${p.role}, ${p.module}, ${p.action})`),
    sql`, `,
  );
  await db.execute(sql`
    insert into role_permissions (corporation_id, role, module, action)
    select c.id, d.role, d.module, d.action
      from corporations c
      cross join (values ${values}) as d(role, module, action)
     where not exists (select 1 from role_permissions rp where rp.corporation_id = c.id and rp.module = d.module and rp.action = d.action)
    on conflict do nothing`);
}
