import { commentAnswerOut, commentRepliesQuery, commentReplyInput, commentReplyList, commentRuleParams, commentUnansweredParams } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';

/**
 * Facebook comments (decision 0049), besides the standard resources comment-rules,
 * comments-facebook and comments-without-responses: a rule's reply log (its /comment-to-msn/{id}
 * detail) and a person's answer to a comment of /comentarios-sin-respuesta, public or private.
 * The chats module's permissions, as the resources.
 */
export const commentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ['comment-rules'];
  const may = (action: 'read' | 'update') => ({ permission: { module: 'chats' as const, action } });
  const service = app.comments;

  app.get(
    '/comment-rules/:id/replies',
    { config: may('read'), schema: { tags, params: commentRuleParams, querystring: commentRepliesQuery, response: { 200: commentReplyList } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const [rule] = await rowsOf(db, sql`select id from comment_rules where company_id = ${companyId} and id = ${request.params.id}`);
      if (!rule) throw new AppError('NOT_FOUND', 'Regla de comentarios no encontrada');
      return service.replies(companyId, request.params.id, { page: request.query.page, limit: request.query.limit });
    },
  );

  app.post(
    '/comments-without-responses/:id/reply',
    { config: may('update'), schema: { tags: ['comments-without-responses'], params: commentUnansweredParams, body: commentReplyInput, response: { 200: commentAnswerOut } } },
    async (request) => {
      const { companyId, userId } = tenantOf(request);
      return service.answer(companyId, userId, request.params.id, request.body);
    },
  );
};
