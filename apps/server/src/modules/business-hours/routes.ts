import { businessHoursIn, businessHoursOut, teamHoursOut, teamHoursParams } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { createBusinessHoursService } from './service.js';

const tags = ['business-hours'];

/** The company's business hours (decision 0078) and its teams' own (decision 0081): module `settings`, like the rest of /configuracion. */
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
  app.get(
    '/business-hours/teams/:teamId',
    { config: { permission: { module: 'settings', action: 'read' } }, schema: { tags, params: teamHoursParams, response: { 200: teamHoursOut } } },
    (request) => service.getTeam(tenantOf(request).companyId, request.params.teamId),
  );
  app.put(
    '/business-hours/teams/:teamId',
    { config: { permission: { module: 'settings', action: 'update' } }, schema: { tags, params: teamHoursParams, body: businessHoursIn, response: { 200: teamHoursOut } } },
    (request) => service.putTeam(tenantOf(request).companyId, request.params.teamId, request.body),
  );
  app.delete(
    '/business-hours/teams/:teamId',
    { config: { permission: { module: 'settings', action: 'update' } }, schema: { tags, params: teamHoursParams, response: { 200: teamHoursOut } } },
    (request) => service.removeTeam(tenantOf(request).companyId, request.params.teamId),
  );
};
