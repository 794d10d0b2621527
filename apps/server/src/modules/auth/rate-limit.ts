import type { FastifyInstance, FastifyReply } from 'fastify';
import { addressOf, type LimitRule, limitKey } from '../../lib/rate-limit.js';
import { refuse, waitText } from '../../plugins/rate-limit.js';

const MINUTE = 60;

/**
 * The sign-in rules (decision 0004), all through the one limiter, counted before the password is
 * checked (so concurrent guesses cannot all slip in) and given back when it was right:
 * - one account from one address: 5 failures free, then each attempt waits 30 s, 1 min, 2 min…
 *   up to 15 minutes; forgotten an hour after the last failure, and at once on a success there;
 * - one account from every address: 50 failures free, then 2 s doubling up to 1 minute, only
 *   for addresses that have already failed on it (the owner at a clean address is never held);
 * - one address over every account (spraying): 100 failures per 15 minutes.
 */
export const loginRules = {
  pair: { points: 5, windowSeconds: 60 * MINUTE, backoff: { baseSeconds: 30, maxSeconds: 15 * MINUTE } },
  account: { points: 50, windowSeconds: 60 * MINUTE, backoff: { baseSeconds: 2, maxSeconds: MINUTE } },
  address: { points: 100, windowSeconds: 15 * MINUTE },
} satisfies Record<string, LimitRule>;

/** Reset links asked for one account (whatever the address): 5 per 15 minutes. */
export const forgotRule: LimitRule = { points: 5, windowSeconds: 15 * MINUTE };

const tooManyFailures = (seconds: number) => `Demasiados intentos fallidos. Espera ${waitText(seconds)} e inténtalo de nuevo`;

/** The account a sign-in or reset names, as the server derives it (never a client value): corporation + e-mail. */
const accountOf = (corporation: string, email: string) => `${corporation}|${email}`;

/**
 * Admits one sign-in attempt under the three rules or answers 429 + Retry-After; answers what
 * to call once the password has been checked and was right.
 */
export async function admitLogin(app: FastifyInstance, reply: FastifyReply, ip: string, corporation: string, email: string): Promise<{ succeeded(): Promise<void> }> {
  const account = accountOf(corporation, email);
  const address = addressOf(ip);
  const keys = { pair: limitKey('login.pair', account, address), account: limitKey('login.account', account), address: limitKey('login.address', address) };
  const pair = await app.limiter.hit(keys.pair, loginRules.pair);
  if (!pair.admitted) refuse(reply, pair.retryAfter, tooManyFailures(pair.retryAfter));
  // the first attempt of this address on this account in the pair's memory: the owner's clean address
  const clean = pair.hits === 1;
  const across = await app.limiter.hit(keys.account, loginRules.account, !clean);
  if (!across.admitted) refuse(reply, across.retryAfter, tooManyFailures(across.retryAfter));
  const spraying = await app.limiter.hit(keys.address, loginRules.address);
  if (!spraying.admitted) refuse(reply, spraying.retryAfter, tooManyFailures(spraying.retryAfter));
  return {
    async succeeded() {
      await app.limiter.clear(keys.pair);
      await app.limiter.refund(keys.account);
      await app.limiter.refund(keys.address);
    },
  };
}

/** Counts one reset link asked for this account, or answers 429 + Retry-After. */
export async function admitForgot(app: FastifyInstance, reply: FastifyReply, corporation: string, email: string): Promise<void> {
  const verdict = await app.limiter.hit(limitKey('forgot.account', accountOf(corporation, email)), forgotRule);
  if (!verdict.admitted) {
    refuse(reply, verdict.retryAfter, `Ya pediste varios enlaces para este correo. Espera ${waitText(verdict.retryAfter)} e inténtalo de nuevo`);
  }
}
