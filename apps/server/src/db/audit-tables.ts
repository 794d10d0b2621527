import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './schema.js';

/** Who did a change the audit log records: a person, an API key, an assignment rule or the system. */
export interface AuditActor {
  type: 'user' | 'api_key' | 'rule' | 'system';
  id?: string;
  name?: string;
}

/** What changed, field by field; a secret (write-only) field is '••••', never its value. */
export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/**
 * The audit log (issue 28, decision 0072): one row per write through the API, written in the same
 * transaction (or statement) as the change. Append-only: no route updates or deletes it; only the
 * retention job removes rows older than AUDIT_RETENTION_DAYS. Keyset paged by (at, id).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: jsonb('actor').$type<AuditActor>().notNull(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    changes: jsonb('changes').$type<AuditChanges>().notNull().default(sql`'{}'::jsonb`),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('audit_log_company_at_idx').on(t.companyId, t.at.desc(), t.id.desc()),
    index('audit_log_entity_idx').on(t.companyId, t.entity, t.entityId, t.at.desc()),
  ],
);
