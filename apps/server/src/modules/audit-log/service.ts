import { AUDIT_MAX_LIMIT, type AuditEntry, type AuditPage, auditActionLabels, auditEntityLabels, type auditQuery } from '@mostrador/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { csvLine, UTF8_BOM } from '../leads/csv.js';

type Query = z.output<typeof auditQuery>;

interface Row extends Record<string, unknown> {
  id: string;
  at: string | Date;
  at_key: string;
  actor: { type: AuditEntry['actor']['type']; id?: string };
  actor_name: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  changes: AuditEntry['changes'];
  ip: string | null;
  user_agent: string | null;
}

const badCursor = () => new AppError('VALIDATION', 'El cursor no es válido', [{ path: 'cursor', msg: 'Pide la primera página otra vez' }]);

/** A timestamptz as PostgreSQL writes it (UTC sessions): 2026-12-02 19:04:31.123456+00. */
const atPattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** The cursor of a row: base64url of `[at as PostgreSQL writes it (microseconds), id]`. */
const cursorOf = (row: Row) => Buffer.from(JSON.stringify([row.at_key, row.id])).toString('base64url');
function afterCursor(cursor: string): SQL {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parts) || parts.length !== 2) throw badCursor();
  const [at, id] = parts;
  if (typeof at !== 'string' || !atPattern.test(at) || typeof id !== 'string' || !/^\d{1,19}$/.test(id)) throw badCursor();
  return sql`(a.at, a.id) < (${at}::timestamptz, ${id}::bigint)`;
}

/** The company's entries the filters name: (company_id, at desc, id desc) or (company_id, entity, entity_id, at desc). */
function whereOf(tenant: Tenant, q: Omit<Query, 'limit'>): SQL {
  const parts: SQL[] = [sql`a.company_id = ${tenant.companyId}`];
  if (q.entity) parts.push(sql`a.entity = ${q.entity}`);
  if (q.entityId) parts.push(sql`a.entity_id = ${q.entityId}`);
  if (q.actor) parts.push(sql`a.actor->>'id' = ${q.actor}`);
  if (q.from) parts.push(sql`a.at >= ${q.from}::timestamptz`);
  if (q.to) parts.push(sql`a.at <= ${q.to}::timestamptz`);
  if (q.cursor) parts.push(afterCursor(q.cursor));
  return sql.join(parts, sql` and `);
}

/** Entries newest first, with who acted by name (a person's, or «Clave de API …»), as the screen shows it. */
async function rowsAfter(db: Db, tenant: Tenant, q: Omit<Query, 'limit'>, limit: number): Promise<Row[]> {
  return rowsOf<Row>(
    db,
    sql`select a.id::text as id, a.at, a.at::text as at_key, a.actor, a.action, a.entity, a.entity_id, a.changes, a.ip, a.user_agent,
               case a.actor->>'type'
                 when 'user' then (select trim(u.first_name || ' ' || u.last_name) from users u where u.id::text = a.actor->>'id')
                 when 'api_key' then (select 'Clave de API «' || k.name || '» (' || k.prefix || '…)' from api_keys k where k.id::text = a.actor->>'id')
               end as actor_name
          from audit_log a
         where ${whereOf(tenant, q)}
         order by a.at desc, a.id desc
         limit ${limit}`,
  ).catch((error: { code?: string; cause?: { code?: string } }) => {
    // a cursor whose date the database cannot read (a month 13) is the cursor's 400
    if (q.cursor && (error.code ?? error.cause?.code)?.startsWith('22')) throw badCursor();
    throw error;
  });
}

const actorName = (row: Row) =>
  row.actor_name ?? (row.actor.type === 'system' ? 'Sistema' : row.actor.type === 'rule' ? 'Regla de asignación' : row.actor.type === 'api_key' ? 'Clave de API eliminada' : 'Usuario eliminado');

function entryOf(row: Row): AuditEntry {
  return {
    _id: row.id,
    at: new Date(row.at).toISOString(),
    actor: { ...row.actor, name: actorName(row) },
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    changes: row.changes ?? {},
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

/** One page of the company's audit log, newest first, by keyset (at, id). */
export async function auditLogPage(db: Db, tenant: Tenant, q: Query): Promise<AuditPage> {
  const rows = await rowsAfter(db, tenant, q, q.limit + 1);
  const page = rows.slice(0, q.limit);
  return rows.length > q.limit ? { payload: page.map(entryOf), nextCursor: cursorOf(page[page.length - 1]) } : { payload: page.map(entryOf) };
}

export const auditCsvColumns = ['Fecha', 'Quién', 'Tipo de actor', 'Acción', 'Entidad', 'Id del registro', 'Cambios', 'IP', 'Navegador'];

/** The CSV of the entries the filters name, a batch at a time (memory flat whatever the log's size). */
export async function* auditCsv(db: Db, tenant: Tenant, q: Omit<Query, 'limit' | 'cursor'>): AsyncGenerator<string> {
  let cursor: string | undefined;
  let header = UTF8_BOM + csvLine(auditCsvColumns);
  for (;;) {
    const rows = await rowsAfter(db, tenant, { ...q, cursor }, AUDIT_MAX_LIMIT * 5);
    const lines = rows.map((row) => {
      const e = entryOf(row);
      const changes = Object.entries(e.changes)
        .map(([field, c]) => `${field}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`)
        .join('; ');
      return csvLine([e.at, e.actor.name, e.actor.type, auditActionLabels[e.action] ?? e.action, auditEntityLabels[e.entity] ?? e.entity, e.entityId, changes, e.ip, e.userAgent]);
    });
    yield header + lines.join('');
    header = '';
    if (rows.length < AUDIT_MAX_LIMIT * 5) return;
    cursor = cursorOf(rows[rows.length - 1]);
  }
}
