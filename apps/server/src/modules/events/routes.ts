import type { RealtimeEvent } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { realtimeFilter } from '../../resources/owned-rows.js';

/** How often an idle stream sends a comment, so proxies keep it open (and a dead client is noticed). */
export const HEARTBEAT_MS = 25_000;

/**
 * GET /api/events: Server-Sent Events with the company's real-time events (new messages,
 * statuses, chats, leads) to this browser. Authenticated like every call (bearer token and
 * company header): the web reads it with fetch, not EventSource, so the headers go along.
 * Scoped to the caller's company by the one tenant of the request.
 */
export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Open streams, ended as the server starts closing: preClose runs before Fastify waits for the
   * connections in flight, so a stop never waits for a browser to hang up (onClose ran after it).
   */
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  app.get('/events', { config: { permission: { module: 'chats', action: 'list' } }, schema: { tags: ['events'] } }, async (request, reply) => {
    const tenant = tenantOf(request);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': conectado\n\n');
    // a person's notice reaches that person's screens only (decision 0075): not another person's, nor an API key's (its tenant names its creator)
    const person = request.auth?.apiKeyId ? undefined : tenant.userId;
    const write = (event: RealtimeEvent) => {
      if (event.type === 'notification.created' && event.userId !== person) return;
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    // a caller who sees only their own and unassigned chats hears only of those (decision 0026), in order
    const visible = realtimeFilter(app.database.db, tenant);
    let pending = Promise.resolve();
    const send = visible
      ? (event: RealtimeEvent) => {
          pending = pending.then(async () => {
            if (await visible(event).catch(() => false)) write(event);
          });
        }
      : write;
    const unsubscribe = app.realtime.subscribe(tenant.companyId, send);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    const close = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
    };
    const end = () => {
      close();
      res.end();
    };
    open.add(end);
    request.raw.once('close', close);
  });
};
