import { randomBytes } from 'node:crypto';
import { actionLabels, API_KEY_PREFIX, API_KEY_SHOWN, type ApiKeyCreated, type ApiKeyOut, type apiKeyIn, modules, type Module, type Action } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, changesOf, originSql } from '../../db/audit.js';
import { type Db, isoOf, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { hashOfSecret, type Tenant } from '../../plugins/auth.js';

/** A new key's secret: the prefix a scanner recognises, then 256 random bits. */
export function newSecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

interface KeyRow extends Record<string, unknown> {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  expires_at: string | null;
  created_at: string;
  created_by: string | null;
  creator: string | null;
  last_used_at: string | null;
  expired: boolean;
}


function keyOf(row: KeyRow): ApiKeyOut {
  return {
    _id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions,
    expiresAt: isoOf(row.expires_at),
    createdAt: isoOf(row.created_at) as string,
    createdBy: row.created_by ? { _id: row.created_by, name: row.creator ?? '' } : null,
    lastUsedAt: isoOf(row.last_used_at),
    status: row.expired ? 'expired' : 'active',
  };
}

const columns = sql`k.id, k.name, k.prefix, k.permissions, k.expires_at, k.created_at, k.created_by, k.last_used_at,
  (k.expires_at is not null and k.expires_at <= now()) as expired,
  (select trim(u.first_name || ' ' || u.last_name) from users u where u.id = k.created_by) as creator`;

/** The company's keys (unrevoked), newest first; never their secret. */
export async function listKeys(db: Db, tenant: Tenant): Promise<ApiKeyOut[]> {
  const rows = await rowsOf<KeyRow>(db, sql`select ${columns} from api_keys k where k.company_id = ${tenant.companyId} and k.revoked_at is null order by k.created_at desc, k.id`);
  return rows.map(keyOf);
}

/**
 * Makes a key: its secret is answered this once and only its hash is kept. A key is given only
 * permissions its maker holds in this company: nobody makes a key that can do more than they can.
 */
export async function createKey(db: Db, tenant: Tenant, held: ReadonlySet<string>, input: z.output<typeof apiKeyIn>): Promise<ApiKeyCreated> {
  const missing = input.permissions.find((p) => !held.has(p));
  if (missing) {
    const [module, action] = missing.split('.') as [Module, Action];
    throw new AppError('FORBIDDEN', `No puedes darle a una clave un permiso que tú no tienes: ${modules[module].label} › ${actionLabels[action]}`);
  }
  const secret = newSecret();
  // the key and its audit entry in one transaction (decision 0072)
  const row = await db.transaction(async (tx) => {
  const [row] = await rowsOf<KeyRow>(
    tx,
    sql`with k as (
          insert into api_keys (company_id, corporation_id, name, prefix, secret_hash, permissions, expires_at, created_by)
          values (${tenant.companyId}, ${tenant.corporationId}, ${input.name}, ${secret.slice(0, API_KEY_SHOWN)}, ${hashOfSecret(secret)},
                  ${JSON.stringify(input.permissions)}::jsonb, ${input.expiresAt ?? null}, ${tenant.userId || null})
          returning *)
        select ${columns} from k`,
  );
  await audit(tx, {
    companyId: tenant.companyId,
    action: 'create',
    entity: 'api_keys',
    entityId: row.id,
    changes: changesOf(null, { name: row.name, prefix: row.prefix, permissions: row.permissions, expiresAt: isoOf(row.expires_at) }),
  });
  return row;
  });
  return { ...keyOf(row), key: secret };
}

/** Revokes a key of the company: the very next request with it is refused (the auth statement asks every time). */
export async function revokeKey(db: Db, tenant: Tenant, id: string): Promise<void> {
  // the revocation and its audit entry in one statement (decision 0072)
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`with k as (
          update api_keys set revoked_at = now(), revoked_by = ${tenant.userId || null}
           where id = ${id} and company_id = ${tenant.companyId} and revoked_at is null returning id, company_id, name
        ), audited as (
          insert into audit_log (company_id, actor, ip, user_agent, action, entity, entity_id, changes)
          select k.company_id, ${originSql()}, 'revoke', 'api_keys', k.id::text, jsonb_build_object('revokedAt', jsonb_build_object('from', null, 'to', now())) from k
        )
        select id from k`,
  );
  if (!rows.length) throw new AppError('NOT_FOUND', 'La clave de API no existe o ya fue revocada');
}
