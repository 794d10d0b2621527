import { boardColumnPage, boardMoveInput, boardMoveResult, boardOut, boardQuery, columnParams, columnQuery, funnelOut, funnelQuery } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tenantOf } from '../../plugins/auth.js';
import { readBoard, readColumn } from './board.js';
import { readFunnel } from './funnel.js';
import { createMover } from './move.js';

const tags = ['lead-board'];
const permission = (action: 'list' | 'update') => ({ permission: { module: 'leads' as const, action } });

/**
 * The pipeline board (issue 31, decision 0099; contract lead-board.ts), under the leads
 * module's permissions: reading is listing leads, moving one is updating it. The company's
 * stages are the standard resource lead-stages (resources/, no routes here).
 */
export const leadBoardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const move = createMover(db, app.secrets);

  app.get('/lead-board', { config: permission('list'), schema: { tags, querystring: boardQuery, response: { 200: boardOut } } }, (request) => {
    const { limit, ...filters } = request.query;
    return readBoard(db, tenantOf(request), filters, limit);
  });

  app.get(
    '/lead-board/columns/:stage',
    { config: permission('list'), schema: { tags, params: columnParams, querystring: columnQuery, response: { 200: boardColumnPage } } },
    (request) => {
      const { limit, cursor, ...filters } = request.query;
      return readColumn(db, tenantOf(request), request.params.stage, filters, limit, cursor);
    },
  );

  app.post('/lead-board/move', { config: permission('update'), schema: { tags, body: boardMoveInput, response: { 200: boardMoveResult } } }, (request) =>
    move(tenantOf(request), request.body),
  );

  app.get('/lead-board/funnel', { config: permission('list'), schema: { tags, querystring: funnelQuery, response: { 200: funnelOut } } }, (request) =>
    readFunnel(db, tenantOf(request), request.query),
  );
};
