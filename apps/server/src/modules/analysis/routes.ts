import { chatDetailOut, latestAnalysisOut, zId } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import { onRead } from '../../resources/crud.js';
import { chatSummary } from '../chats/queries.js';
import { csatOfChat } from '../csat/report.js';
import { analysisOfChat, analysisOfCleanLead, analysisOfLead } from './shown.js';

const idParams = z.object({ id: zId() }).strict();
const analysis = { analysis: latestAnalysisOut.optional() };

// a person's (GET /clean-leads/:id, the standard GET): their latest analysed chat
onRead('clean-leads', {
  shape: analysis,
  add: async (db, companyId, record) => {
    const found = await analysisOfCleanLead(db, companyId, String(record._id));
    return found ? { analysis: found } : {};
  },
});
// a lead's (GET /leads/:id, the standard GET): its latest analysed chat's
onRead('leads', {
  shape: analysis,
  add: async (db, companyId, record) => {
    const found = await analysisOfLead(db, companyId, String(record._id));
    return found ? { analysis: found } : {};
  },
});

/**
 * What the analysis says about one chat (issue 31, decision 0092): GET /chats/:id answers the
 * chat as the inbox lists it with its latest analysis (GET /leads/:id and /clean-leads/:id add
 * theirs to the standard GET above; the lists never carry it). The caller's company only: another company's chat
 * or lead is a 404; a chat never analysed has no `analysis`.
 */
export const analysisRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.get(
    '/chats/:id',
    { config: { permission: { module: 'chats', action: 'read' } }, schema: { tags: ['chats'], params: idParams, response: { 200: chatDetailOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const chat = await chatSummary(db, companyId, request.params.id);
      // beside the analysis' quality, the score the customer gave (the chat's latest CSAT survey, decision 0100)
      const [found, csat] = await Promise.all([analysisOfChat(db, companyId, chat._id), csatOfChat(db, companyId, chat._id)]);
      return { ...chat, ...(found ? { analysis: found } : {}), ...(csat ? { csat } : {}) };
    },
  );
};
