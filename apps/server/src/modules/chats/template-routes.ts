import { chatMessageOut, chatTemplatesOut, templateSendInput, zId } from '@mostrador/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyKeyOf } from '../../lib/idempotency.js';
import { stableId } from '../../lib/stable-id.js';
import { tenantOf } from '../../plugins/auth.js';
import { createTemplateService } from '../whatsapp-templates/service.js';
import type { ChatService } from './service.js';

const chatParams = z.object({ id: zId() }).strict();

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
    { config: { permission: { module: 'chats' as const, action: 'read' as const } }, schema: { tags: chatTags, params: chatParams, response: { 200: chatTemplatesOut } } },
    (request) => {
      const tenant = tenantOf(request);
      return service.forChat(tenant.companyId, request.params.id, tenant.userId);
    },
  );

  app.post(
    '/chats/:id/template',
    { config: { permission: { module: 'chats' as const, action: 'create' as const } }, schema: { tags: chatTags, params: chatParams, body: templateSendInput, response: { 201: chatMessageOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const key = idempotencyKeyOf(request);
      const prepared = await service.prepareSend(tenant.companyId, request.body);
      // the same key sends once: it names the message, and a message that exists is answered as it is
      const messageId = key ? stableId(tenant.companyId, request.params.id, key) : undefined;
      const message = await chats.send(tenant.companyId, request.params.id, { kind: 'text', text: prepared.text, template: prepared.payload }, { sentBy: tenant.userId, messageId });
      return reply.status(201).send(message);
    },
  );
}
