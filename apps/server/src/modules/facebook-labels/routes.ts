import { facebookLabelSyncOut } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { createFacebookLabelSync } from './sync.js';

/**
 * POST /facebook-labels/sync (decision 0057): /etiquetas-facebook's «Sincronizar con Facebook»,
 * beside the standard facebook-labels resource; the leads module's permission to update.
 */
export const facebookLabelRoutes: FastifyPluginAsyncZod = async (app) => {
  const labels = createFacebookLabelSync({ db: app.database.db, secrets: app.secrets, config: app.settings });
  app.post(
    '/facebook-labels/sync',
    { config: { permission: { module: 'leads' as const, action: 'update' as const } }, schema: { tags: ['facebook-labels'], response: { 200: facebookLabelSyncOut } } },
    async (request) => labels.sync(tenantOf(request).companyId),
  );
};
