import {
  templateSendMessages,
  templateSyncOut,
  whatsappTemplateInput,
  whatsappTemplateList,
  whatsappTemplateListQuery,
  whatsappTemplateOut,
  zId,
} from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import { SANDBOX_REVIEW_SECONDS } from '../../integrations/sandbox/templates.js';
import { SANDBOX_REVIEW_QUEUE, whatsappTemplateJobs } from './jobs.js';
import { createTemplateService } from './service.js';

const idParams = z.object({ id: zId() }).strict();
const tags = ['whatsapp-templates'];
const may = (action: 'list' | 'read' | 'create' | 'update' | 'delete') => ({ permission: { module: 'messaging' as const, action } });

/**
 * /api/whatsapp-templates (issue 13, decision 0038; contract whatsapp-templates.ts): the
 * company's WhatsApp message templates of its line, under the messaging module's permissions.
 */
export const whatsappTemplateRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createTemplateService({ db: app.database.db, secrets: app.secrets, config: app.settings });
  await app.register(whatsappTemplateJobs, { service });

  app.get(
    '/whatsapp-templates',
    { config: may('list'), schema: { tags, querystring: whatsappTemplateListQuery, response: { 200: whatsappTemplateList } } },
    (request) => service.list(tenantOf(request).companyId, request.query),
  );

  app.post(
    '/whatsapp-templates/sync',
    { config: may('update'), schema: { tags, response: { 200: templateSyncOut } } },
    (request) => service.sync(tenantOf(request).companyId),
  );

  app.get(
    '/whatsapp-templates/:id',
    { config: may('read'), schema: { tags, params: idParams, response: { 200: whatsappTemplateOut } } },
    (request) => service.get(tenantOf(request).companyId, request.params.id),
  );

  app.post(
    '/whatsapp-templates',
    { config: may('create'), schema: { tags, body: whatsappTemplateInput, response: { 201: whatsappTemplateOut } } },
    async (request, reply) => {
      const { companyId } = tenantOf(request);
      const created = await service.create(companyId, request.body);
      if (service.client.name === 'sandbox') {
        await app.jobs.send(SANDBOX_REVIEW_QUEUE, { companyId }, { startAfter: SANDBOX_REVIEW_SECONDS + 1 }).catch((error: unknown) => {
          app.log.warn({ err: error }, 'no se pudo programar la revisión del sandbox');
        });
      }
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/whatsapp-templates/:id',
    { config: may('delete'), schema: { tags, params: idParams, response: { 200: z.object({ msg: z.string() }) } } },
    async (request) => {
      await service.remove(tenantOf(request).companyId, request.params.id);
      return { msg: templateSendMessages.deleted };
    },
  );
};
