import {
  chatMessageOut,
  chatTemplatesOut,
  templateSendInput,
  templateSendMessages,
  templateSyncOut,
  whatsappTemplateInput,
  whatsappTemplateList,
  whatsappTemplateListQuery,
  whatsappTemplateOut,
  zId,
} from '@mostrador/contract';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import type { ChatService } from '../chats/service.js';
import { SANDBOX_REVIEW_SECONDS } from '../../integrations/sandbox/templates.js';
import { SANDBOX_REVIEW_QUEUE, whatsappTemplateJobs } from './jobs.js';
import { createTemplateService } from './service.js';

const idParams = z.object({ id: zId() }).strict();
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._-]{8,200}$/;
/** A UUID named by a text (its SHA-256), so one Idempotency-Key is one message. */
const keyedId = (text: string) => {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
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

/**
 * The composer's template calls, under /api/chats and the chats module's permissions (decision
 * 0038): the approved templates of the chat's line with the lead's values, and a template sent
 * (the window may be closed: that is what templates are for).
 */
export async function chatTemplateRoutes(parent: FastifyInstance, chats: ChatService): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const service = createTemplateService({ db: app.database.db, secrets: app.secrets, config: app.settings });
  const chatTags = ['chats'];

  app.get(
    '/chats/:id/templates',
    { config: { permission: { module: 'chats' as const, action: 'read' as const } }, schema: { tags: chatTags, params: idParams, response: { 200: chatTemplatesOut } } },
    (request) => {
      const tenant = tenantOf(request);
      return service.forChat(tenant.companyId, request.params.id, tenant.userId);
    },
  );

  app.post(
    '/chats/:id/template',
    { config: { permission: { module: 'chats' as const, action: 'create' as const } }, schema: { tags: chatTags, params: idParams, body: templateSendInput, response: { 201: chatMessageOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const key = request.headers['idempotency-key'];
      if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key))) {
        throw new AppError('VALIDATION', 'El encabezado Idempotency-Key no es válido (de 8 a 200 letras, números, guiones o puntos)', [
          { path: 'Idempotency-Key', msg: 'No es válido' },
        ]);
      }
      const prepared = await service.prepareSend(tenant.companyId, request.body);
      // the same key sends once: it names the message, and a message that exists is answered as it is
      const messageId = key ? keyedId(`${tenant.companyId}:${request.params.id}:${key}`) : undefined;
      const message = await chats.send(tenant.companyId, request.params.id, { kind: 'text', text: prepared.text, template: prepared.payload }, { sentBy: tenant.userId, messageId });
      return reply.status(201).send(message);
    },
  );
}
