import { facebookLabelPeopleOut, facebookLabelRetryOut, facebookLabelSyncOut } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { facebookLabelJobs } from './jobs.js';
import { createLabelPeople } from './people.js';
import { createFacebookLabelSync } from './sync.js';

/**
 * POST /facebook-labels/sync (decision 0057): /etiquetas-facebook's «Sincronizar con Facebook»,
 * beside the standard facebook-labels resource; the leads module's permission to update. The
 * page labels on people: their job (each minute, and woken by the writes that leave some due:
 * facebookLabelWake), how many each label is on and the last refusals, and «Reintentar».
 */
export const facebookLabelRoutes: FastifyPluginAsyncZod = async (app) => {
  const labels = createFacebookLabelSync({ db: app.database.db, secrets: app.secrets, config: app.settings });
  app.post(
    '/facebook-labels/sync',
    { config: { permission: { module: 'leads' as const, action: 'update' as const } }, schema: { tags: ['facebook-labels'], response: { 200: facebookLabelSyncOut } } },
    async (request) => labels.sync(tenantOf(request).companyId),
  );

  const people = createLabelPeople({ db: app.database.db, secrets: app.secrets, config: app.settings });
  await app.register(facebookLabelJobs, { people });
  app.get(
    '/facebook-labels/people',
    { config: { permission: { module: 'leads' as const, action: 'list' as const } }, schema: { tags: ['facebook-labels'], response: { 200: facebookLabelPeopleOut } } },
    async (request) => people.status(tenantOf(request).companyId),
  );
  app.post(
    '/facebook-labels/people/retry',
    { config: { permission: { module: 'leads' as const, action: 'update' as const } }, schema: { tags: ['facebook-labels'], response: { 200: facebookLabelRetryOut } } },
    async (request) => {
      const retried = await people.retry(tenantOf(request).companyId);
      return { msg: retried ? `Se reintentarán ${retried} etiquetas en personas de Facebook` : 'No hay etiquetas rechazadas para reintentar', retried };
    },
  );
};
