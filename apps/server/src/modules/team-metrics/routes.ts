import { teamMetricsOut, teamMetricsQuery, teamSlaSettingsIn, teamSlaSettingsOut } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { saveSlaSettings, slaSettingsOf, teamReport } from './report.js';

const tags = ['metrics'];

/**
 * How the team answers (issue 31, decision 0094): the report under the metrics module's reading
 * permission; the company's targets read with it and changed under `settings.update` (an admin's,
 * like the business hours they are measured in).
 */
export const teamMetricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.get('/metrics/team', { config: { permission: { module: 'metrics', action: 'read' } }, schema: { tags, querystring: teamMetricsQuery, response: { 200: teamMetricsOut } } }, (request) =>
    teamReport(db, tenantOf(request).companyId, request.query),
  );
  app.get('/metrics/team/settings', { config: { permission: { module: 'metrics', action: 'read' } }, schema: { tags, response: { 200: teamSlaSettingsOut } } }, (request) =>
    slaSettingsOf(db, tenantOf(request).companyId),
  );
  app.put(
    '/metrics/team/settings',
    { config: { permission: { module: 'settings', action: 'update' } }, schema: { tags, body: teamSlaSettingsIn, response: { 200: teamSlaSettingsOut } } },
    (request) => saveSlaSettings(db, tenantOf(request).companyId, request.body),
  );
};
