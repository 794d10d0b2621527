import { createHash } from 'node:crypto';
import { API_KEY_PREFIX, type Action, apiKeyMessages, deniedMessage, type Module, type Role } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { actAsInRequest, callerInRequest, withActorScope } from '../db/actor.js';
import { statementOf } from '../db/database.js';
import { AppError } from '../lib/errors.js';
import { limitKey } from '../lib/rate-limit.js';
import type { AccessClaims } from '../lib/tokens.js';
import { refuse, waitText } from './rate-limit.js';

/** Who is calling: set for every request that carries a valid access token. */
export interface AuthContext {
  /** The person's id; for an API key, the id of who created it ('' once they were removed). */
  userId: string;
  /** The session's id ('' for an API key). */
  sessionId: string;
  corporationId: string;
  /** Set when the caller is an API key (decision 0071): the key's id. */
  apiKeyId?: string;
}

/** The company a request works in: the ONE place tenant scope comes from. */
export interface Tenant {
  companyId: string;
  corporationId: string;
  userId: string;
  role: Role;
  /** The agent the user is in this company (agentes.userId, decision 0025), read with the session; absent outside a request. */
  agenteId?: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (login, forgot, reset, public pages, webhooks). */
    public?: boolean;
    /** Needs a token but no company (refresh, logout, own profile). Default: company needed. */
    company?: false;
    /** The role must be allowed this module/action, from the stored permission matrix. */
    permission?: { module: Module; action: Action };
    /**
     * The handler reads the session in its own statement (decision 0036): the hook only checks
     * the token's signature and leaves `pendingAuth`; the handler must settle it (`admit` with
     * the row its statement read, or `settleAuth`) before it answers anything.
     */
    deferredAuth?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    tenant: Tenant | null;
    /** A signed token whose session, membership and permission the handler has still to read (deferredAuth). */
    pendingAuth: PendingAuth | null;
  }
}

/** The tenant of a request, for handlers that need it (the auth hook has already checked it). */
export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new AppError('COMPANY_FORBIDDEN');
  return request.tenant;
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a deferred check still has to read: the token's claims and the company asked for. */
export interface PendingAuth {
  claims: AccessClaims;
  companyId: string;
  /** The auth statement alone, then `admit` (a handler that cannot fold it into its own statement). */
  settle(): Promise<void>;
}

/**
 * The verdict on the auth statement's row, the same for the hook and a handler that read the
 * row in its own statement (decision 0036): the same errors, messages and statuses; sets
 * `request.auth` and `request.tenant` when admitted.
 */
export function admit(request: FastifyRequest, claims: AccessClaims, companyId: string | null, row: AuthRow | undefined): void {
  request.pendingAuth = null;
  const config = request.routeOptions.config;
  if (!row || row.revoked || row.disabled || row.token_version !== claims.ver) throw new AppError('SESSION_REVOKED');
  request.auth = { userId: claims.sub, sessionId: claims.sid, corporationId: row.corporation_id };
  // the audit log's who (decision 0072); the spine's actor stays unnamed for a person's session
  callerInRequest({ type: 'user', id: claims.sub });

  const permissions = new Granted(row.permissions);
  if (companyId && row.role) {
    request.tenant = { companyId, corporationId: row.corporation_id, userId: claims.sub, role: row.role, agenteId: row.agente_id };
    granted.set(request.tenant, permissions);
  }
  if (config.company === false) return;
  if (!request.tenant) throw new AppError('COMPANY_FORBIDDEN');
  if (config.permission && !permissions.has(`${config.permission.module}.${config.permission.action}`)) {
    // the refusal names the missing permission as the roles screen shows it (decision 0026)
    throw new AppError('FORBIDDEN', deniedMessage(config.permission.module, config.permission.action));
  }
}

/** A deferred check read alone (the handler could not fold it into its statement): a no-op when already settled. */
export async function settleAuth(request: FastifyRequest): Promise<void> {
  await request.pendingAuth?.settle();
}

/**
 * Authentication, tenancy and permissions in one hook, before any handler or body parse:
 * token → live session → membership of X-Company-Id → stored permission.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('tenant', null);
  app.decorateRequest('pendingAuth', null);

  // PostgreSQL: a named statement, parsed and planned once per connection. PGlite: unnamed,
  // since every connection reaches the same single session (a name would already exist there).
  const authQuery = app.database.kind === 'postgres' ? { name: 'mostrador_auth', text: authStatement } : { text: authStatement };

  /**
   * A token's signature check, remembered by the token's text until it expires: the same text
   * always verifies the same way (the key does not change while the server runs), so this
   * never lets through a token verify() would refuse; expiry is checked on every use, and
   * revocation is the statement below, asked every time.
   */
  const checked = new Map<string, { claims: AccessClaims; exp: number }>();
  async function verified(token: string): Promise<AccessClaims> {
    const known = checked.get(token);
    if (known && Math.floor(Date.now() / 1000) < known.exp) return known.claims;
    if (known) checked.delete(token);
    const claims = await app.tokens.verify(token);
    const exp = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp?: unknown }).exp;
    if (typeof exp === 'number') {
      if (checked.size >= 10_000) checked.clear();
      checked.set(token, { claims, exp });
    }
    return claims;
  }

  // every request has a place for who it acts as: an API key names itself there (db/actor.ts)
  // and the audit log reads who calls and from where (decision 0072)
  app.addHook('onRequest', (request, _reply, done) => {
    const agent = request.headers['user-agent'];
    withActorScope(done, { ip: request.ip, userAgent: typeof agent === 'string' ? agent.slice(0, 500) : undefined });
  });

  const keyQuery = (hash: string) => statementOf(app.database.pool, 'mostrador_api_key', apiKeyStatement, [hash]);
  const keyRule = { points: app.settings.rateLimits.apiKeys, windowSeconds: 60 };

  /**
   * A request whose bearer is an API key (decision 0071): one statement finds the key by the
   * hash of its secret (never revoked, never expired) and notes its use; then its per-key limit
   * through the one limiter. The key is bound to its company: no X-Company-Id is needed and
   * another company's is refused. It acts with its own permissions, nothing of its creator's.
   */
  async function admitKey(request: FastifyRequest, reply: FastifyReply, secret: string): Promise<void> {
    const config = request.routeOptions.config;
    const { rows } = await app.database.pool.query<ApiKeyRow>(keyQuery(hashOfSecret(secret)));
    const key = rows[0];
    if (!key) throw new AppError('TOKEN_INVALID', apiKeyMessages.invalid);
    if (key.expired) throw new AppError('TOKEN_EXPIRED', apiKeyMessages.expired);
    const companyHeader = request.headers['x-company-id'];
    if (companyHeader !== undefined && companyHeader !== key.company_id) throw new AppError('COMPANY_FORBIDDEN', apiKeyMessages.otherCompany);
    if (config.company === false) throw new AppError('FORBIDDEN', apiKeyMessages.sessionOnly);

    const verdict = await app.limiter.hit(limitKey('api-key', key.id), keyRule);
    reply.header('ratelimit-limit', String(keyRule.points));
    reply.header('ratelimit-remaining', String(Math.max(0, keyRule.points - verdict.hits)));
    reply.header('ratelimit-reset', String(verdict.retryAfter));
    if (!verdict.admitted) refuse(reply, verdict.retryAfter, apiKeyMessages.rateLimited(waitText(verdict.retryAfter)));

    const userId = key.created_by ?? '';
    request.auth = { userId, sessionId: '', corporationId: key.corporation_id, apiKeyId: key.id };
    request.tenant = { companyId: key.company_id, corporationId: key.corporation_id, userId, role: 'agent', agenteId: null };
    const permissions = new Granted(key.permissions);
    granted.set(request.tenant, permissions);
    actAsInRequest({ type: 'api_key', id: key.id });
    callerInRequest({ type: 'api_key', id: key.id });
    if (config.permission && !permissions.has(`${config.permission.module}.${config.permission.action}`)) {
      throw new AppError('FORBIDDEN', deniedMessage(config.permission.module, config.permission.action));
    }
  }

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url?.startsWith('/api') || config.public) return;

    const token = bearer(request);
    if (!token) throw new AppError('TOKEN_MISSING');
    if (token.startsWith(API_KEY_PREFIX)) return admitKey(request, reply, token);
    const claims = await verified(token);

    const companyHeader = request.headers['x-company-id'];
    const companyId = typeof companyHeader === 'string' && uuidPattern.test(companyHeader) ? companyHeader : null;
    if (config.company !== false && !companyId) {
      throw new AppError('COMPANY_FORBIDDEN', 'Selecciona una compañía (encabezado X-Company-Id)');
    }

    const read = async () => {
      // ONE statement: the session, the user, the membership of X-Company-Id and the role's
      // permissions, read together at the start of the request (decision 0023). Nothing is
      // cached between requests, so a logout, a disabled user, a demotion or a password change
      // holds on the very next request.
      const { rows } = await app.database.pool.query<AuthRow>({ ...authQuery, values: [claims.sid, claims.sub, companyId] });
      admit(request, claims, companyId, rows[0]);
    };
    // a list that reads the same row in its own statement (decision 0036): one round trip
    if (config.deferredAuth && companyId && config.company !== false) {
      request.pendingAuth = { claims, companyId, settle: read };
      return;
    }
    await read();
  });
});

/** The SHA-256 of an API key's secret, as `api_keys.secret_hash` keeps it. */
export function hashOfSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

interface ApiKeyRow {
  id: string;
  company_id: string;
  corporation_id: string;
  created_by: string | null;
  expired: boolean;
  permissions: string | null;
}

/**
 * An API key by the hash of its secret ($1), unrevoked, with its permissions as the auth
 * statement lists a role's (`module.action,…`), and whether it expired. Its last use is noted in
 * the same statement, at most once a minute (a key called 600 times a minute writes once); a
 * data-modifying CTE runs whether or not the query reads it.
 */
export const apiKeyStatement = `with k as (
  select id, company_id, corporation_id, created_by, permissions, last_used_at,
         (expires_at is not null and expires_at <= now()) as expired
    from api_keys where secret_hash = $1 and revoked_at is null
), touched as (
  update api_keys a set last_used_at = now() from k
   where a.id = k.id and not k.expired and (k.last_used_at is null or k.last_used_at < now() - interval '1 minute')
  returning a.id
)
select k.id, k.company_id, k.corporation_id, k.created_by, k.expired,
       (select string_agg(p, ',') from jsonb_array_elements_text(k.permissions) p) as permissions
  from k`;

export interface AuthRow {
  corporation_id: string;
  disabled: boolean;
  token_version: number;
  revoked: boolean;
  role: Role | null;
  /** The user's agent in the company (null: they are none). */
  agente_id: string | null;
  /** `module.action,…` of every permission the role holds in the corporation's stored matrix (null without a membership). */
  permissions: string | null;
}

/** The auth hook's one statement: $1 session id, $2 user id, $3 company id or null. */
export const authStatement = `select u.corporation_id, u.disabled, u.token_version,
       (s.revoked_at is not null or s.expires_at < now()) as revoked, m.role,
       (select string_agg(rp.module || '.' || rp.action, ',') from role_permissions rp
         where rp.corporation_id = u.corporation_id and rp.role = m.role) as permissions,
       (select a.id from agentes a where a.company_id = m.company_id and a.user_id = u.id::text) as agente_id
  from sessions s
  join users u on u.id = s.user_id
  left join memberships m on m.user_id = u.id and m.company_id = $3::uuid
 where s.id = $1::uuid and u.id = $2::uuid`;

/** The columns of authStatement in order (a handler that reads them in rowMode 'array'). */
export const authColumns = ['corporation_id', 'disabled', 'token_version', 'revoked', 'role', 'permissions', 'agente_id'] as const;

/**
 * The permissions read with a request's tenant (same statement as its session), by tenant
 * object: `allows` and `matrix` answer from them for that request instead of asking again.
 * A tenant built elsewhere (a webhook's) is not here and is asked from the table.
 */
const granted = new WeakMap<object, Granted>();

/**
 * A role's permissions as the auth statement lists them (`module.action,…`): asked by a string
 * search, split into a set only when the whole matrix is wanted (most requests ask one).
 */
class Granted {
  private readonly list: string;
  private set?: ReadonlySet<string>;
  constructor(list: string | null) {
    this.list = `,${list ?? ''},`;
  }
  has(permission: string): boolean {
    return this.list.includes(`,${permission},`);
  }
  all(): ReadonlySet<string> {
    this.set ??= new Set(this.list.split(',').filter(Boolean));
    return this.set;
  }
}

/**
 * Whose rows of `module`'s owned resources (contract `ownedRows`) the tenant sees (decision 0026):
 * undefined — everybody's (the role has `<module>.all`, or no user acts: a webhook's tenant);
 * an agent id — that agent's and the unassigned ones; null — only the unassigned ones (a user
 * without `all` who is no agent). Read from the request's own permissions: no query.
 */
export function rowOwner(tenant: Tenant, module: Module): string | null | undefined {
  const known = granted.get(tenant);
  if (!known || known.has(`${module}.all`)) return undefined;
  return tenant.agenteId ?? null;
}

/** Answers from the stored matrix (role_permissions), never from code. */
export function createPermissionService(app: FastifyInstance) {
  return {
    async allows(tenant: Pick<Tenant, 'corporationId' | 'role'>, module: Module, action: Action): Promise<boolean> {
      const known = granted.get(tenant);
      if (known) return known.has(`${module}.${action}`);
      const { rows } = await app.database.db.execute(
        sql`select 1 from role_permissions where corporation_id = ${tenant.corporationId}
            and role = ${tenant.role} and module = ${module} and action = ${action}`,
      );
      return rows.length > 0;
    },
    /** The role's whole matrix: module → actions (the web hides what the role may not do). */
    async matrix(tenant: Pick<Tenant, 'corporationId' | 'role'>): Promise<Record<string, Action[]>> {
      const known = granted.get(tenant);
      if (known) {
        const out: Record<string, Action[]> = {};
        const pairs = [...known.all()].map((p) => p.split('.') as [string, Action]);
        pairs.sort(([m1, a1], [m2, a2]) => (m1 === m2 ? (a1 < a2 ? -1 : 1) : m1 < m2 ? -1 : 1));
        for (const [module, action] of pairs) (out[module] ??= []).push(action);
        return out;
      }
      const { rows } = await app.database.db.execute<{ module: string; action: Action }>(
        sql`select module, action from role_permissions where corporation_id = ${tenant.corporationId}
            and role = ${tenant.role} order by module, action`,
      );
      const out: Record<string, Action[]> = {};
      for (const r of rows) (out[r.module] ??= []).push(r.action);
      return out;
    },
  };
}
