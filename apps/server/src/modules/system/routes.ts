import { healthResponse, notReadyResponse, readyResponse, versionResponse } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { storageOf } from '../drive/storage-of.js';
import { readiness } from './readiness.js';

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

  // readiness beside liveness (decision 0066): /health says the process answers, /health/ready
  // that it can do its work; public like /health, and it names states only
  app.get(
    '/health/ready',
    { config: { public: true }, schema: { tags: ['system'], response: { 200: readyResponse, 503: notReadyResponse } } },
    async (_request, reply) => {
      const { checks, failing } = await readiness(app.database, app.jobs, storageOf(app.settings, app.log));
      reply.header('cache-control', 'no-store');
      if (!failing.length) return { status: 'ok' as const, checks };
      return reply.status(503).send({ status: 'error' as const, checks, errors: { msg: `El servidor no está listo: ${failing.join('; ')}` } });
    },
  );

  // which database and version run is for admins only (it helps an attacker pick an exploit)
  app.get('/version', { schema: { tags: ['system'], response: { 200: versionResponse } } }, async (request) => {
    if (tenantOf(request).role !== 'admin') throw new AppError('FORBIDDEN', 'Solo un administrador ve la versión del servidor');
    return { version: app.settings.version, database: app.database.kind, time: new Date().toISOString() };
  });
};
