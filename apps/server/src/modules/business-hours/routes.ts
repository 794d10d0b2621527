import { businessHoursIn, businessHoursOut } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { createBusinessHoursService } from './service.js';

const tags = ['business-hours'];

/** The company's business hours (decision 0078): module `settings`, like the rest of /configuracion. */
export const businessHoursRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createBusinessHoursService(app.database.db);
  app.get('/business-hours', { config: { permission: { module: 'settings', action: 'read' } }, schema: { tags, response: { 200: businessHoursOut } } }, (request) =>
    service.get(tenantOf(request).companyId),
  );
  app.put(
    '/business-hours',
    { config: { permission: { module: 'settings', action: 'update' } }, schema: { tags, body: businessHoursIn, response: { 200: businessHoursOut } } },
    (request) => service.put(tenantOf(request).companyId, request.body),
  );
};
