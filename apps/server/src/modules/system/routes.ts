import { healthResponse, versionResponse } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';

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

  // which database and version run is for admins only (it helps an attacker pick an exploit)
  app.get('/version', { schema: { tags: ['system'], response: { 200: versionResponse } } }, async (request) => {
    if (tenantOf(request).role !== 'admin') throw new AppError('FORBIDDEN', 'Solo un administrador ve la versión del servidor');
    return { version: app.settings.version, database: app.database.kind, time: new Date().toISOString() };
  });
};
