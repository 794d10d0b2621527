import { chatMessageOut, chatStateOut, chatStatusInput, noteInput, unreadCountOut, zId } from '@mostrador/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import type { ChatService } from './service.js';

const chatParams = z.object({ id: zId() }).strict();
const messageParams = z.object({ id: zId(), messageId: zId() }).strict();

/**
 * The composer's calls (issue 11 "Answering on every channel", decision 0027; contract
 * chat-composer.ts), under /api/chats and the chats module's permissions: what the chat's
 * channel allows now, internal notes, a failed message sent again, a chat resolved or
 * snoozed, and the unread count of the tab title. Always the request's company.
 */
export async function composerRoutes(parent: FastifyInstance, service: ChatService): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const tags = ['chats'];
  const may = (action: 'list' | 'read' | 'create' | 'update') => ({ permission: { module: 'chats' as const, action } });

  // overdue snoozed chats open again by the minute sweep, also when a worker starts (chats/jobs.ts, decision 0076)

  app.get(
    '/chats/unread_count',
    { config: may('list'), schema: { tags, response: { 200: unreadCountOut } } },
    (request) => service.unreadCount(tenantOf(request)),
  );

  app.get(
    '/chats/:id/state',
    { config: may('read'), schema: { tags, params: chatParams, response: { 200: chatStateOut } } },
    (request) => service.state(tenantOf(request).companyId, request.params.id),
  );

  app.post(
    '/chats/:id/notes',
    { config: may('create'), schema: { tags, params: chatParams, body: noteInput, response: { 201: chatMessageOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      return reply.status(201).send(await service.addNote(tenant.companyId, request.params.id, request.body.text, tenant.userId));
    },
  );

  app.post(
    '/chats/:id/messages/:messageId/retry',
    { config: may('create'), schema: { tags, params: messageParams, response: { 200: chatMessageOut } } },
    (request) => service.retry(tenantOf(request).companyId, request.params.id, request.params.messageId),
  );

  app.post(
    '/chats/:id/status',
    { config: may('update'), schema: { tags, params: chatParams, body: chatStatusInput, response: { 200: chatStateOut } } },
    (request) => {
      const tenant = tenantOf(request);
      return service.setStatus(tenant.companyId, request.params.id, request.body, tenant.userId);
    },
  );
}
