import { companyCurrency, type CountryCode, type Role, type SessionUser } from '@mostrador/contract';
import { countryTimezone, validTimezone } from '../leads/summary.js';
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../../db/database.js';
import { companies, corporations, memberships, sessions, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, newSecret } from '../../lib/tokens.js';

export const SESSION_COOKIE = 'mostrador_session';

/** The user as the SPA keeps it (SPEC §3), without the token. */
export async function loadSessionUser(db: Db, userId: string): Promise<Omit<SessionUser, 'token'>> {
  const [user] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      corporationId: corporations.id,
      corporationName: corporations.name,
      corporationSlug: corporations.slug,
    })
    .from(users)
    .innerJoin(corporations, eq(corporations.id, users.corporationId))
    .where(eq(users.id, userId));
  if (!user) throw new AppError('SESSION_REVOKED');
  const rows = await db
    .select({
      id: companies.id,
      name: companies.name,
      country: companies.country,
      currency: sql<string | null>`${companies.settings}->>'currency'`,
      timezone: sql<string | null>`${companies.settings}->>'timezone'`,
      isDefault: memberships.isDefault,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(eq(memberships.userId, userId))
    .orderBy(desc(memberships.isDefault), asc(companies.name));
  const list = rows.map((r, i) => ({
    company: { _id: r.id, name: r.name, country: r.country as CountryCode, currency: companyCurrency(r.currency, r.country), timezone: validTimezone(r.timezone) ?? countryTimezone(r.country) },
    // exactly one default, even if the data has none flagged
    default: rows.some((x) => x.isDefault) ? r.isDefault : i === 0,
    role: r.role as Role,
  }));
  const current = list.find((m) => m.default);
  return {
    _id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    companyId: current?.company._id ?? '',
    corporation: { _id: user.corporationId, name: user.corporationName, slug: user.corporationSlug, companies: list },
  };
}

/**
 * Session lifecycle: a session row per signed-in browser holds the (hashed) refresh secret,
 * kept in an httpOnly cookie; access tokens are short JWTs naming the session.
 */
export function createSessions(app: FastifyInstance) {
  const { settings } = app;
  const ttlMs = settings.sessionTtlDays * 86_400_000;
  const secureCookie = settings.publicUrl.startsWith('https://');

  function setCookie(reply: FastifyReply, secret: string) {
    reply.setCookie(SESSION_COOKIE, secret, {
      path: '/api',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie,
      maxAge: Math.floor(ttlMs / 1000),
    });
  }

  async function respond(userId: string, sessionId: string, tokenVersion: number) {
    const user = await loadSessionUser(app.database.db, userId);
    const token = await app.tokens.sign({ sub: userId, sid: sessionId, ver: tokenVersion });
    return { status: 200 as const, token, expiresIn: app.tokens.ttlSeconds, user: { ...user, token } };
  }

  return {
    /** Opens a session for a user and answers like login does. */
    async open(reply: FastifyReply, userId: string, meta: { ip?: string; userAgent?: string }, tx: Db = app.database.db) {
      const { secret, hash } = newSecret();
      const [session] = await tx
        .insert(sessions)
        .values({
          userId,
          refreshHash: hash,
          ip: meta.ip,
          userAgent: meta.userAgent?.slice(0, 300),
          expiresAt: new Date(Date.now() + ttlMs),
        })
        .returning({ id: sessions.id });
      const [user] = await tx.select({ ver: users.tokenVersion }).from(users).where(eq(users.id, userId));
      setCookie(reply, secret);
      return { sessionId: session.id, respond: () => respond(userId, session.id, user.ver) };
    },

    /** GET /api/token: a new access token from the session cookie (sliding expiry). */
    async refresh(reply: FastifyReply, cookieSecret: string | undefined) {
      if (!cookieSecret) throw new AppError('TOKEN_MISSING');
      const [row] = await app.database.db
        .update(sessions)
        .set({ lastUsedAt: new Date(), expiresAt: new Date(Date.now() + ttlMs) })
        .where(
          and(
            eq(sessions.refreshHash, hashSecret(cookieSecret)),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql`now()`),
            sql`exists (select 1 from users u where u.id = ${sessions.userId} and not u.disabled)`,
          ),
        )
        .returning({ id: sessions.id, userId: sessions.userId });
      if (!row) {
        reply.clearCookie(SESSION_COOKIE, { path: '/api' });
        throw new AppError('SESSION_REVOKED');
      }
      const [user] = await app.database.db.select({ ver: users.tokenVersion }).from(users).where(eq(users.id, row.userId));
      setCookie(reply, cookieSecret);
      return respond(row.userId, row.id, user.ver);
    },

    async revoke(where: { sessionId?: string; cookieSecret?: string }) {
      const db = app.database.db;
      if (where.sessionId) {
        await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, where.sessionId), isNull(sessions.revokedAt)));
      }
      if (where.cookieSecret) {
        await db
          .update(sessions)
          .set({ revokedAt: new Date() })
          .where(and(eq(sessions.refreshHash, hashSecret(where.cookieSecret)), isNull(sessions.revokedAt)));
      }
    },

    /** Ends every session and token of a user at once (password change, disabling). */
    async revokeAllOf(tx: Db, userId: string) {
      await tx
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
        .where(eq(users.id, userId));
      await tx.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },

    clearCookie(reply: FastifyReply) {
      reply.clearCookie(SESSION_COOKIE, { path: '/api' });
    },
  };
}
export type Sessions = ReturnType<typeof createSessions>;
