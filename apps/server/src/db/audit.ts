import { type SQL, sql } from 'drizzle-orm';
import { requestOrigin } from './actor.js';
import type { AuditActor, AuditChanges } from './audit-tables.js';

/** How a secret (write-only) field's value is written in the audit log: never the value itself. */
export const MASKED = '••••';

/** One audit entry (decision 0072): what a module records of a change it makes. */
export interface AuditEntry {
  companyId: string;
  /** create, update, delete, sign_in, sign_in_failed, role_change, disable, enable, export, revoke… */
  action: string;
  /** The resource's key (leads, users, api_keys, session, …). */
  entity: string;
  entityId?: string | null;
  changes?: AuditChanges;
  /** Who acts when it is not the request's caller (an assignment rule); default: the request's, else the system. */
  actor?: AuditActor;
}

/**
 * The values of an audit row that come from the request's scope (db/actor.ts): who calls (the
 * person or API key; outside a request, the system) and from where. A SQL list of three bound
 * values — actor jsonb, ip, user agent — for statements that write audit rows themselves.
 */
export function originSql(actor?: AuditActor): SQL {
  const origin = requestOrigin();
  return sql`${JSON.stringify(actor ?? origin.actor)}::jsonb, ${origin.ip}, ${origin.userAgent}`;
}

/**
 * Writes an audit row with `db`, which must be the transaction of the change it records, so
 * that a change rolled back leaves no entry and a change committed always has one.
 */
export async function audit(db: { execute(query: SQL): Promise<unknown> }, entry: AuditEntry): Promise<void> {
  await db.execute(
    sql`insert into audit_log (company_id, actor, ip, user_agent, action, entity, entity_id, changes)
        values (${entry.companyId}, ${originSql(entry.actor)}, ${entry.action}, ${entry.entity}, ${entry.entityId ?? null}, ${JSON.stringify(entry.changes ?? {})}::jsonb)`,
  );
}

/**
 * The fields that differ between two versions of a record, `{field: {from, to}}`, secrets masked
 * (a missing side is null: a creation's `from`, a deletion's `to`).
 */
export function changesOf(before: Record<string, unknown> | null, after: Record<string, unknown> | null, secrets: Iterable<string> = [], skip: Iterable<string> = []): AuditChanges {
  const hidden = new Set(secrets);
  const skipped = new Set(skip);
  const out: AuditChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (skipped.has(key)) continue;
    const from = before?.[key] ?? null;
    const to = after?.[key] ?? null;
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    out[key] = hidden.has(key) ? { from: from === null ? null : MASKED, to: to === null ? null : MASKED } : { from, to };
  }
  return out;
}

/**
 * The same `{field: {from, to}}` computed by PostgreSQL, for a module that writes its change and
 * its audit row in one statement (a data-modifying CTE, as the resource layer does): `fields`
 * maps each recorded field to its column, `before` and `after` are the aliases of the row's two
 * versions (null: a creation's before, a deletion's after). Names are the module's constants,
 * never input.
 */
export function changesSql(fields: Record<string, string>, before: string | null, after: string | null, secrets: Iterable<string> = []): SQL {
  const hidden = new Set(secrets);
  const masked = `'${JSON.stringify(MASKED)}'::jsonb`;
  const parts = Object.entries(fields).map(([field, column]) => {
    const b = before && `${before}."${column}"`;
    const a = after && `${after}."${column}"`;
    const differs = b && a ? `${b} is distinct from ${a}` : `${(b ?? a) as string} is not null`;
    const value = (side: string | null) =>
      side === null ? `'null'::jsonb` : hidden.has(field) ? `case when ${side} is null then 'null'::jsonb else ${masked} end` : `to_jsonb(${side})`;
    return `case when ${differs} then jsonb_build_object('${field}', jsonb_build_object('from', ${value(b)}, 'to', ${value(a)})) else '{}'::jsonb end`;
  });
  return sql.raw(`('{}'::jsonb${parts.map((p) => ` || ${p}`).join('')})`);
}

/** What a settings row holds that is no setting: left out of its audit entry. */
const BOOKKEEPING = ['id', 'companyId', 'createdAt', 'updatedAt'];

/**
 * The audit entry of an integration's settings written (decision 0072): created, updated or
 * deleted after the row before and after (either null), its tokens and keys (`secrets`) masked,
 * its bookkeeping and `skip` (a token's hint) left out. Nothing when nothing changed.
 */
export async function auditSettings(
  db: { execute(query: SQL): Promise<unknown> },
  entry: { companyId: string; entity: string; entityId?: string | null; before: Record<string, unknown> | null | undefined; after: Record<string, unknown> | null | undefined; secrets: string[]; skip?: string[] },
): Promise<void> {
  const before = entry.before ?? null;
  const after = entry.after ?? null;
  const changes = changesOf(before, after, entry.secrets, [...BOOKKEEPING, ...(entry.skip ?? [])]);
  if (Object.keys(changes).length === 0) return;
  const action = before === null ? 'create' : after === null ? 'delete' : 'update';
  await audit(db, { companyId: entry.companyId, action, entity: entry.entity, entityId: entry.entityId ?? null, changes });
}
