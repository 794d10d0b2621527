import { csatReportOut, csatReportQuery, csatSettingsIn, csatSettingsOut } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { csatReport } from './report.js';
import { createCsatSettings } from './settings.js';

const tags = ['csat'];

/**
 * CSAT (decision 0100): the survey's settings (module `settings`, as the rest of /configuracion) and
 * the report per agent (module `metrics`), both of the caller's company.
 */
export const csatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const settings = createCsatSettings(db);
  app.get('/csat/settings', { config: { permission: { module: 'settings', action: 'read' } }, schema: { tags, response: { 200: csatSettingsOut } } }, (request) =>
    settings.get(tenantOf(request).companyId),
  );
  app.put(
    '/csat/settings',
    { config: { permission: { module: 'settings', action: 'update' } }, schema: { tags, body: csatSettingsIn, response: { 200: csatSettingsOut } } },
    (request) => settings.put(tenantOf(request).companyId, request.body),
  );
  app.get(
    '/metrics/csat',
    { config: { permission: { module: 'metrics', action: 'read' } }, schema: { tags, querystring: csatReportQuery, response: { 200: csatReportOut } } },
    (request) => csatReport(db, tenantOf(request).companyId, request.query),
  );
};
