import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import { addressOf, createLimiter, type LimitRule, type Limiter, limitKey } from '../lib/rate-limit.js';

/** The kinds of anonymous route, each with its default per-address limit (RATE_LIMIT_* settings). */
export type LimitKind = 'read' | 'write' | 'webhook';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The per-address limit of an anonymous route (`public`): a kind's default, shared by every
     * route of that kind, or the route's own rule (then its own count and, if given, its message).
     * Without it: `webhook` for the routes tagged `webhooks`, `read` for GET/HEAD, `write` otherwise.
     */
    rateLimit?: LimitKind | (LimitRule & { name: string; msg?: string });
  }
  interface FastifyInstance {
    /** The one rate limiter (lib/rate-limit.ts): this plugin's per-address limits and the keyed rules of login and forgot. */
    limiter: Limiter;
  }
}

/** "30 segundos", "1 minuto", "15 minutos": how long a refused client waits, as the message says it. */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 segundo' : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`;
}

/** A 429 with Retry-After (whole seconds) and a Spanish message saying how long to wait. */
export function refuse(reply: FastifyReply, retryAfter: number, msg = `Demasiadas solicitudes desde esta conexión. Espera ${waitText(retryAfter)} e inténtalo de nuevo`): never {
  reply.header('retry-after', String(retryAfter));
  throw new AppError('RATE_LIMITED', msg);
}

/**
 * Per-address limits on every anonymous route, in one place (decision 0004): a hook before the
 * body is read counts the hit through the one limiter and answers 429 + Retry-After past the
 * route's limit. Authenticated routes are not counted here: a token is needed to reach them.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance) => {
  const limiter = createLimiter(app.database.pool, app.log);
  app.decorate('limiter', limiter);
  const perMinute = (points: number): LimitRule => ({ points, windowSeconds: 60 });
  const kinds: Record<LimitKind, LimitRule> = {
    read: perMinute(app.settings.rateLimits.publicReads),
    write: perMinute(app.settings.rateLimits.publicWrites),
    webhook: perMinute(app.settings.rateLimits.webhooks),
  };

  app.addHook('onRequest', async (request, reply) => {
    const options = request.routeOptions;
    if (!options.url?.startsWith('/api') || !options.config.public) return;
    const declared = options.config.rateLimit;
    const tags = (options.schema as { tags?: string[] } | undefined)?.tags ?? [];
    const kind: LimitKind = typeof declared === 'string' ? declared : tags.includes('webhooks') ? 'webhook' : request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
    const rule = typeof declared === 'object' ? declared : kinds[kind];
    const bucket = typeof declared === 'object' ? `route:${declared.name}` : `kind:${kind}`;
    const verdict = await limiter.hit(limitKey('address', bucket, addressOf(request.ip)), rule);
    if (!verdict.admitted) refuse(reply, verdict.retryAfter, typeof declared === 'object' ? declared.msg?.replace('{wait}', waitText(verdict.retryAfter)) : undefined);
  });
});
