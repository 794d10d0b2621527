import { recoveryFollowupsOut, recoveryRunOut, recoverySettingsIn, recoverySettingsOut } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { engineDepsOf } from '../automation/deps.js';
import { recoveryMatcher } from './matcher.js';
import { recoveryJobs } from './jobs.js';
import { createRecovery } from './service.js';

const tags = ['recovery'];
const permission = (action: 'read' | 'update') => ({ permission: { module: 'automation' as const, action } });

/**
 * Sales that would have been lost (issue 30, decision 0089), under the automation module's
 * permission (owners and supervisors by default): the company's follow-up settings, the latest
 * follow-ups and what each brought, and «Revisar ahora». The sweep's job is recovery.sweep.
 */
export const recoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const send = engineDepsOf(app);
  const recovery = createRecovery({
    db: app.database.db,
    publicUrl: app.settings.publicUrl,
    match: recoveryMatcher(),
    sendText: send.sendText,
    sendTemplate: send.sendTemplate,
    notifyAgent: send.notifyAgent,
  });
  await recoveryJobs(app, { recovery });

  app.get('/recovery/settings', { config: permission('read'), schema: { tags, response: { 200: recoverySettingsOut } } }, (request) =>
    recovery.get(tenantOf(request).companyId),
  );
  app.put('/recovery/settings', { config: permission('update'), schema: { tags, body: recoverySettingsIn, response: { 200: recoverySettingsOut } } }, (request) =>
    recovery.put(tenantOf(request).companyId, request.body),
  );
  app.get('/recovery/followups', { config: permission('read'), schema: { tags, response: { 200: recoveryFollowupsOut } } }, async (request) => ({
    payload: await recovery.list(tenantOf(request).companyId),
  }));
  app.post('/recovery/run', { config: permission('update'), schema: { tags, response: { 200: recoveryRunOut } } }, (request) =>
    recovery.sweep(tenantOf(request).companyId),
  );
};
