import { healthResponse, versionResponse } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { tags: ['system'], response: { 200: healthResponse, 503: z.object({ status: z.literal('error'), database: z.literal('unreachable') }) } },
    },
    async (_request, reply) => {
      try {
        await app.database.pool.query('select 1');
        return { status: 'ok' as const, database: 'ok' as const };
      } catch {
        return reply.status(503).send({ status: 'error' as const, database: 'unreachable' as const });
      }
    },
  );

  app.get('/version', { config: { public: true }, schema: { tags: ['system'], response: { 200: versionResponse } } }, async () => ({
    version: app.settings.version,
    database: app.database.kind,
    time: new Date().toISOString(),
  }));
};
