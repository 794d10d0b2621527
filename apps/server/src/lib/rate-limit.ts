import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type pg from 'pg';
import { statementOf } from '../db/database.js';

/**
 * A rule of the one rate limiter (decision 0004):
 * - fixed window: `points` hits per `windowSeconds`, then refused until the window ends;
 * - growing delays (`backoff`): the first `points` hits are free, then every hit is admitted only
 *   after a wait that doubles with each one (`baseSeconds`, 2×, 4×… up to `maxSeconds`).
 */
export interface LimitRule {
  points: number;
  windowSeconds: number;
  backoff?: { baseSeconds: number; maxSeconds: number };
}

export interface Verdict {
  admitted: boolean;
  /** Hits counted in the window, this one included when admitted. */
  hits: number;
  /** Seconds until a refused key may try again (whole seconds, at least 1). */
  retryAfter: number;
}

// the pieces of the statement below, over the row as it was before this hit (`r`); the time is the
// clock's when the statement runs, not its transaction's start: a hit that waited on the row lock
// behind another must not see that one's block as longer than the rule's (a Retry-After of 31 s)
const over = 'greatest(r.window_ends, r.blocked_until) <= clock_timestamp()';
const refused = 'coalesce($6::boolean and (r.blocked_until > clock_timestamp() or ($4::int = 0 and r.hits >= $2::int)), false)';
const windowFromNow = 'clock_timestamp() + make_interval(secs => $3::int)';
const blockAfter = (hits: string) =>
  `case when $4::int > 0 and ${hits} >= $2::int then clock_timestamp() + make_interval(secs => least($5::double precision, $4::int * power(2, least(${hits} - $2::int, 30)))) end`;

/**
 * ONE statement counts the hit and decides it: an upsert on the key's row, so concurrent hits on
 * one key queue on the row lock and each sees the count the one before it left (50 at once with
 * 10 points: exactly 10 admitted), on PostgreSQL and PGlite alike, and every API server shares it.
 * - A row whose window and block are both over starts again at 1.
 * - A refused hit changes nothing (no point spent, the block not pushed further): waiting the
 *   Retry-After is always enough. `$6` false counts the hit but never refuses it (decision 0004:
 *   the per-account rule does not hold an address that has not failed on the account).
 * - Growing-delay rules remember hits for `windowSeconds` after the last one (the window slides),
 *   so a steady attacker stays at the longest delay; fixed windows end where they began.
 */
const hitStatement = `
insert into rate_limits as r (key, hits, window_ends, blocked_until, admitted)
values ($1, 1, ${windowFromNow}, ${blockAfter('1')}, true)
on conflict (key) do update set
  hits = case when ${over} then 1 when ${refused} then r.hits else r.hits + 1 end,
  window_ends = case when ${over} or ($4::int > 0 and not ${refused}) then ${windowFromNow} else r.window_ends end,
  blocked_until = case when ${over} then ${blockAfter('1')}
                       when ${refused} then r.blocked_until
                       else coalesce(${blockAfter('(r.hits + 1)')}, r.blocked_until) end,
  admitted = ${over} or not ${refused}
returning hits, admitted,
  greatest(1, ceil(extract(epoch from (case when $4::int > 0 then coalesce(blocked_until, window_ends) else window_ends end) - clock_timestamp())))::int as retry_after`;

/** Rows whose window and block ended over an hour ago: swept at most every 10 minutes per process. */
const sweepStatement = `delete from rate_limits where greatest(window_ends, blocked_until) < now() - interval '1 hour'`;
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** The key a rule counts under: hashed, so the table keeps no e-mail or address in clear. */
export function limitKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

/** An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, a dual-stack socket's) as the IPv4 address it is. */
export function unmapped(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}

/**
 * The client address as limits count it: an IPv4 address as it is (an IPv4-mapped IPv6 too),
 * an IPv6 address by its /64, the block one subscriber gets (a limit per /128 is escaped by
 * changing the last 64 bits).
 */
export function addressOf(address: string): string {
  const ip = unmapped(address);
  if (!isIPv6(ip)) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export function createLimiter(pool: pg.Pool, log?: { warn(obj: object, msg: string): void }) {
  let lastSweep = 0;
  function sweep() {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    pool.query(sweepStatement).catch((error: unknown) => log?.warn({ err: error }, 'rate_limits: no se pudo limpiar'));
  }
  return {
    /** Counts one hit of `key` under `rule` and says whether it is admitted (`enforce: false`: counted, always admitted). */
    async hit(key: string, rule: LimitRule, enforce = true): Promise<Verdict> {
      sweep();
      const { rows } = await pool.query<{ hits: number; admitted: boolean; retry_after: number }>(
        statementOf(pool, 'mostrador_rate_limit_hit', hitStatement, [
          key,
          rule.points,
          rule.windowSeconds,
          rule.backoff?.baseSeconds ?? 0,
          rule.backoff?.maxSeconds ?? 0,
          enforce,
        ]),
      );
      const row = rows[0];
      return { admitted: row.admitted, hits: Number(row.hits), retryAfter: Number(row.retry_after) };
    },
    /** Gives back one hit (a sign-in that succeeded was no failure); the block, if any, stays. */
    async refund(key: string): Promise<void> {
      await pool.query(statementOf(pool, 'mostrador_rate_limit_refund', 'update rate_limits set hits = greatest(hits - 1, 0) where key = $1', [key]));
    },
    /** Forgets a key (the owner signed in from this address: its failures are over). */
    async clear(key: string): Promise<void> {
      await pool.query(statementOf(pool, 'mostrador_rate_limit_clear', 'delete from rate_limits where key = $1', [key]));
    },
  };
}
export type Limiter = ReturnType<typeof createLimiter>;
