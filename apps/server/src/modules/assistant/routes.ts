import { contactLeadParams, replySuggestionOut } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { suggestReply } from './suggestion.js';

/**
 * POST /chats/:id/messages/:messageId/suggestion (issue 30, decision 0087): «Sugerir respuesta»
 * on a customer's message — the catalogue's products it mentions and a draft the agent edits and
 * sends. Needs chats.read; another company's message, an outbound one or none is a 404. Sends nothing.
 */
export const assistantRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  app.post(
    '/chats/:id/messages/:messageId/suggestion',
    {
      config: { permission: { module: 'chats', action: 'read' } },
      schema: { tags: ['chats'], params: contactLeadParams, response: { 200: replySuggestionOut } },
    },
    async (request) => suggestReply(db, app.secrets, tenantOf(request), request.params.id, request.params.messageId),
  );
};
