import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies, corporations, users } from './schema.js';

/**
 * API keys (issue 28, decision 0071): a business's own systems call the API with a key of its
 * company. The secret is never stored: only its SHA-256 (`secret_hash`, what the auth hook looks
 * it up by) and its first characters (`prefix`, to tell keys apart on the screen). A revoked key
 * keeps its row (who revoked it, when) and is refused from the next request on.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    corporationId: uuid('corporation_id')
      .notNull()
      .references(() => corporations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    /** `module.action` strings, each one a permission of the roles' matrix (contract apiKeyPermissions). */
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Noted at most once a minute per key (the auth statement), not on every call. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('api_keys_secret_uq').on(t.secretHash),
    index('api_keys_company_idx')
      .on(t.companyId, t.createdAt.desc())
      .where(sql`${t.revokedAt} is null`),
  ],
);
