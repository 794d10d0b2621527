import { notificationList, notificationOut, notificationsReadAll, zId } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import { createNotificationService } from './service.js';

const tags = ['notifications'];
/**
 * Every person has their profile (module `profile`), and an API key never does: the notices are
 * a person's, read with their session only.
 */
const permission = (action: 'read' | 'update') => ({ permission: { module: 'profile' as const, action } });

/** The bell's calls (decision 0075): the caller's own notices in the request's company. */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createNotificationService(app.database, app.realtime);
  app.get('/notifications', { config: permission('read'), schema: { tags, response: { 200: notificationList } } }, (request) => service.list(tenantOf(request)));
  app.post('/notifications/read-all', { config: permission('update'), schema: { tags, response: { 200: notificationsReadAll } } }, (request) =>
    service.readAll(tenantOf(request)),
  );
  app.post('/notifications/:id/read', { config: permission('update'), schema: { tags, params: z.object({ id: zId() }), response: { 200: notificationOut } } }, (request) =>
    service.read(tenantOf(request), request.params.id),
  );
};
