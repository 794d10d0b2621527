import { auditPage, auditQuery } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../db/audit.js';
import { sendCsv } from '../../lib/csv-response.js';
import { tenantOf } from '../../plugins/auth.js';
import { auditLogJobs } from './jobs.js';
import { auditCsv, auditLogPage } from './service.js';

const tags = ['audit-log'];
const config = { permission: { module: 'audit' as const, action: 'list' as const } };

/**
 * The company's audit log (issue 28, decision 0072): read only, owner only (module `audit`).
 * No route writes, edits or deletes it: the rows are written by the changes themselves.
 */
export const auditLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(auditLogJobs);

  app.get('/audit-log', { config, schema: { tags, querystring: auditQuery, response: { 200: auditPage } } }, async (request) =>
    auditLogPage(db, tenantOf(request), request.query),
  );

  app.get('/audit-log.csv', { config, schema: { tags, querystring: auditQuery } }, async (request, reply) => {
    const { limit: _limit, cursor: _cursor, ...filters } = request.query;
    const tenant = tenantOf(request);
    // taking the log away as a file is itself in the log
    await audit(db, { companyId: tenant.companyId, action: 'export', entity: 'audit_log', changes: { filters: { from: null, to: filters } } });
    return sendCsv(request, reply, auditCsv(db, tenant, filters), 'auditoria');
  });
};
