import {
  automationRuleIn,
  automationRuleList,
  automationRuleOut,
  automationRunList,
  automationSettingsIn,
  automationSettingsOut,
  automationTestIn,
  automationTestOut,
  zId,
} from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import { engineDepsOf } from './deps.js';
import { createAutomationService } from './service.js';
import { createAutomationSettingsService } from './settings.js';
import { fireTimers } from './timers.js';

/** The timers' job (jobs/catalogue.ts): every minute, and at once when a worker starts. */
export const AUTOMATION_TIMERS_QUEUE = 'automation.timers';

const tags = ['automation-rules'];
const permission = (action: 'list' | 'read' | 'create' | 'update' | 'delete') => ({ permission: { module: 'automation' as const, action } });
const idParams = z.object({ id: zId() });
/** PUT is the whole rule, and may move it in the company's order. */
const ruleUpdate = automationRuleIn.extend({ position: z.number({ error: 'La posición no es válida' }).int().min(1).max(100_000).optional() });

/** Automation rules (issue 29, decision 0077): module `automation` (owners and supervisors by default). */
export const automationRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createAutomationService(app.database.db);
  const settings = createAutomationSettingsService(app.database.db);
  const deps = engineDepsOf(app);
  app.jobs.define(AUTOMATION_TIMERS_QUEUE, async () => {
    await fireTimers(deps, { leaseSeconds: app.settings.automation.timerLeaseSeconds });
  });
  app.jobs.every(AUTOMATION_TIMERS_QUEUE);
  // the company's settings (decision 0080), before /:id: «settings» is no rule's id
  app.get('/automation-rules/settings', { config: permission('read'), schema: { tags, response: { 200: automationSettingsOut } } }, (request) =>
    settings.get(tenantOf(request).companyId),
  );
  app.put('/automation-rules/settings', { config: permission('update'), schema: { tags, body: automationSettingsIn, response: { 200: automationSettingsOut } } }, (request) =>
    settings.put(tenantOf(request).companyId, request.body),
  );
  app.get('/automation-rules', { config: permission('list'), schema: { tags, response: { 200: automationRuleList } } }, async (request) => ({
    payload: await service.list(tenantOf(request)),
  }));
  app.post('/automation-rules', { config: permission('create'), schema: { tags, body: automationRuleIn, response: { 201: automationRuleOut } } }, async (request, reply) =>
    reply.status(201).send(await service.create(tenantOf(request), request.body)),
  );
  app.get('/automation-rules/:id', { config: permission('read'), schema: { tags, params: idParams, response: { 200: automationRuleOut } } }, (request) =>
    service.one(tenantOf(request), request.params.id),
  );
  app.put('/automation-rules/:id', { config: permission('update'), schema: { tags, params: idParams, body: ruleUpdate, response: { 200: automationRuleOut } } }, (request) =>
    service.update(tenantOf(request), request.params.id, request.body),
  );
  app.delete('/automation-rules/:id', { config: permission('delete'), schema: { tags, params: idParams } }, async (request, reply) => {
    await service.remove(tenantOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.get('/automation-rules/:id/runs', { config: permission('read'), schema: { tags, params: idParams, response: { 200: automationRunList } } }, async (request) => ({
    payload: await service.runs(tenantOf(request), request.params.id),
  }));
  app.post(
    '/automation-rules/:id/test',
    { config: permission('read'), schema: { tags, params: idParams, body: automationTestIn, response: { 200: automationTestOut } } },
    (request) => service.test(tenantOf(request), request.params.id, request.body.chatId),
  );
};
