import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { loginFailures } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MINUTES = 15;

/**
 * Failed attempts counted in the database (so every API server sees the same count) under a
 * key the server derives from the account (corporation + e-mail), never from the client.
 * See docs/decisions/0004-login-rate-limit.md.
 */
export function failureKey(kind: 'login' | 'forgot', corporation: string, email: string): string {
  return createHash('sha256').update(`${kind}|${corporation}|${email}`).digest('hex');
}

export async function assertNotLimited(db: Db, key: string, max = LOGIN_MAX_FAILURES): Promise<void> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginFailures)
    .where(and(eq(loginFailures.key, key), gt(loginFailures.at, sql`now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})`)));
  if (Number(row?.n ?? 0) >= max) throw new AppError('RATE_LIMITED');
}

export async function recordFailure(db: Db, key: string): Promise<void> {
  await db.insert(loginFailures).values({ key });
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
  await db.delete(loginFailures).where(lt(loginFailures.at, sql`now() - interval '1 day'`));
}
