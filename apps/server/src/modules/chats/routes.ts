import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  chatInboxQuery,
  chatMessageOut,
  chatsByCleanLeadQuery,
  chatSummaryOut,
  chatThreadOut,
  cursorParam,
  inboxCountsOut,
  massiveMessageInput,
  massiveMessageResult,
  pageOf,
  recentChatsQuery,
  sendMessageInput,
  threadByLeadQuery,
  threadQuery,
  zId,
} from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProviderError } from '../../integrations/meta/send.js';
import { AppError } from '../../lib/errors.js';
import { trustedPage } from '../../lib/list.js';
import { tenantOf } from '../../plugins/auth.js';
import { inboxScope } from '../../resources/owned-rows.js';
import { chatIdOfLead, chatMessage, chatsOfCleanLead, chatSummary, inboxCounts, inboxPage, recentChats, thread } from './queries.js';
import { chatJobs } from './jobs.js';
import { createChatService } from './service.js';
import { composerRoutes } from './composer-routes.js';
import { chatTemplateRoutes } from './template-routes.js';
import { chatProductRoutes } from './product-routes.js';
import { createScheduledMessages, scheduledMessageRoutes } from './scheduled.js';
import { createTemplateService } from '../whatsapp-templates/service.js';

const chatParams = z.object({ id: zId() }).strict();
const messageParams = z.object({ id: zId(), messageId: zId() }).strict();
const mediaParams = z.object({ messageId: zId() }).strict();
const deleted = z.object({ status: z.number(), _id: z.string() });
/** The inbox query with keyset paging: `cursor` is a page's `nextCursor` (decision 0023). */
const inboxQuery = chatInboxQuery.extend({ cursor: cursorParam });

/**
 * The chat calls (packages/contract chat-api.ts; SPEC §7 Chats), under /api/chats. The
 * company is always the request's tenant; a chat, message, lead or clean lead of another
 * company is a 404. Permissions are the `chats` module's: agents list, read, send and mark
 * read ('work'), deleting a message is a delete.
 */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const service = createChatService({
    db,
    secrets: app.secrets,
    realtime: app.realtime,
    jobs: app.jobs,
    config: app.settings,
    log: app.log,
  });
  await app.register(chatJobs, { service });
  app.addHook('onReady', async () => {
    try {
      const failed = await service.failInterrupted();
      if (failed) app.log.warn({ failed }, 'mensajes con el envío interrumpido marcados como fallidos');
    } catch (error) {
      app.log.warn({ err: error }, 'no se pudieron revisar los envíos interrumpidos');
    }
  });

  // answering on every channel (issue 11): state, notes, retry, resolve / snooze, unread count
  await composerRoutes(app, service);
  // approved WhatsApp templates from the composer (decision 0038)
  await chatTemplateRoutes(app, service);
  // products in the conversation (issue 30, decision 0085)
  await chatProductRoutes(app, service);
  // «Enviar más tarde» (decision 0079): scheduled messages and the minute job that sends them
  await scheduledMessageRoutes(
    app,
    createScheduledMessages({
      db,
      chats: service,
      templates: createTemplateService({ db, secrets: app.secrets, config: app.settings }),
      realtime: app.realtime,
      log: app.log,
    }),
  );

  const tags = ['chats'];
  const may = (action: 'list' | 'read' | 'create' | 'update' | 'delete') => ({ permission: { module: 'chats' as const, action } });

  app.get(
    '/chats/get_chats',
    { config: may('list'), schema: { tags, querystring: inboxQuery, response: { 200: pageOf(chatSummaryOut) } }, ...trustedPage },
    (request) => inboxPage(db, tenantOf(request).companyId, request.query, inboxScope(tenantOf(request))),
  );

  // the inbox tabs' counts (Mías, Sin asignar, Todas) with the other filters (decision 0025), and
  // the tab's (`view`) per status, with the filters but the status (decision 0076)
  app.get(
    '/chats/counts',
    { config: may('list'), schema: { tags, querystring: chatInboxQuery.omit({ page: true, limit: true }), response: { 200: inboxCountsOut } } },
    (request) => inboxCounts(db, tenantOf(request).companyId, request.query, inboxScope(tenantOf(request))),
  );

  app.get(
    '/chats/recent_chats',
    { config: may('list'), schema: { tags, querystring: recentChatsQuery, response: { 200: z.object({ payload: z.array(chatSummaryOut) }) } } },
    async (request) => ({ payload: await recentChats(db, tenantOf(request).companyId, request.query.limit, inboxScope(tenantOf(request))) }),
  );

  app.get(
    '/chats/get_all_by_lead_id',
    { config: may('read'), schema: { tags, querystring: threadByLeadQuery, response: { 200: chatThreadOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { leadId, platform, ...page } = request.query;
      return thread(db, companyId, await chatIdOfLead(db, companyId, leadId, platform), page);
    },
  );

  app.get(
    '/chats/get_all_by_cleanlead_id',
    { config: may('list'), schema: { tags, querystring: chatsByCleanLeadQuery, response: { 200: z.object({ payload: z.array(chatSummaryOut) }) } } },
    async (request) => ({ payload: await chatsOfCleanLead(db, tenantOf(request).companyId, request.query.cleanLeadId, inboxScope(tenantOf(request))) }),
  );

  app.get(
    '/chats/:id/messages',
    { config: may('read'), schema: { tags, params: chatParams, querystring: threadQuery, response: { 200: chatThreadOut } } },
    (request) => thread(db, tenantOf(request).companyId, request.params.id, request.query),
  );

  app.post(
    '/chats/:id/messages',
    { config: may('create'), schema: { tags, params: chatParams, body: sendMessageInput, response: { 201: chatMessageOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { kind, text, mediaUrl } = request.body;
      const message = await service.send(tenant.companyId, request.params.id, { kind, text: text || undefined, mediaUrl }, { sentBy: tenant.userId });
      return reply.status(201).send(message);
    },
  );

  app.post(
    '/chats/:id/read',
    { config: may('update'), schema: { tags, params: chatParams, response: { 200: chatSummaryOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      await service.markRead(companyId, request.params.id);
      return chatSummary(db, companyId, request.params.id);
    },
  );

  app.delete(
    '/chats/:id/messages/:messageId',
    { config: may('delete'), schema: { tags, params: messageParams, response: { 200: deleted } } },
    async (request) => {
      await service.deleteMessage(tenantOf(request).companyId, request.params.id, request.params.messageId);
      return { status: 200, _id: request.params.messageId };
    },
  );

  app.post(
    '/chats/send_massive_message',
    { config: may('create'), schema: { tags, body: massiveMessageInput, response: { 200: massiveMessageResult } } },
    (request) => {
      const tenant = tenantOf(request);
      return service.sendMassive(tenant.companyId, tenant.userId, request.body);
    },
  );

  /**
   * The bytes of a message's media. Provider media (an inbound WhatsApp media id) is
   * downloaded through the Graph API with the channel's token and streamed with its type; a
   * message that only has a link (Messenger's CDN, a file sent by link) redirects to it.
   */
  app.get('/chats/media/:messageId', { config: may('read'), schema: { tags, params: mediaParams } }, async (request, reply) => {
    const { companyId } = tenantOf(request);
    const message = await chatMessage(db, companyId, request.params.messageId);
    if (!message.mediaId) {
      if (message.mediaUrl && /^https?:\/\//i.test(message.mediaUrl)) return reply.redirect(message.mediaUrl, 302);
      throw new AppError('NOT_FOUND', 'Este mensaje no tiene archivo');
    }
    const { platform } = await chatSummary(db, companyId, message.chatId);
    const channel = await service.mediaChannel(companyId, platform);
    if (!channel) throw new AppError('NOT_FOUND', 'El canal del chat ya no está configurado: no se puede descargar el archivo');
    if (service.client.name === 'graph' && !channel.accessToken) {
      throw new AppError('CONFLICT', 'El canal no tiene token de acceso: configúralo en /whatsapp para descargar el archivo');
    }
    let media: Awaited<ReturnType<typeof service.client.media>>;
    try {
      media = await service.client.media(channel.accessToken, message.mediaId);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.details.notFound) throw new AppError('NOT_FOUND', `El archivo no está disponible: ${error.reason}`);
      throw new AppError('PROVIDER_ERROR', `No se pudo descargar el archivo: ${error.reason}`);
    }
    reply.header('content-type', media.contentType);
    if (media.contentLength) reply.header('content-length', media.contentLength);
    reply.header('cache-control', 'private, max-age=300');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'none'; sandbox");
    return reply.send(Readable.fromWeb(media.body as WebReadableStream));
  });
};
