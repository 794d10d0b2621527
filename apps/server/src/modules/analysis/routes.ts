import { chatDetailOut, latestAnalysisOut, resources, zId } from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import { onRead, repositoryOf } from '../../resources/crud.js';
import { chatSummary } from '../chats/queries.js';
import { csatOfChat } from '../csat/report.js';
import { analysisOfChat, analysisOfCleanLead, analysisOfLead } from './shown.js';

const idParams = z.object({ id: zId() }).strict();
const analysis = { analysis: latestAnalysisOut.optional() };
const leadOut = resources.leads.entity.extend(analysis);

// a person's (GET /clean-leads/:id, the standard GET): their latest analysed chat
onRead('clean-leads', {
  shape: analysis,
  add: async (db, companyId, record) => {
    const found = await analysisOfCleanLead(db, companyId, String(record._id));
    return found ? { analysis: found } : {};
  },
});

/**
 * What the analysis says about one chat (issue 31, decision 0092): GET /chats/:id answers the
 * chat as the inbox lists it with its latest analysis, GET /leads/:id the lead with its latest
 * analysed chat's (the lists never carry it). The caller's company only: another company's chat
 * or lead is a 404; a chat never analysed has no `analysis`.
 */
export const analysisRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const leads = repositoryOf(resources.leads, app.secrets);

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

  app.get(
    '/leads/:id',
    {
      config: { permission: { module: 'leads', action: 'read' } },
      schema: { tags: ['leads'], params: idParams, response: { 200: leadOut } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      // the repository answers the lead's wire record (the resource's entity), untyped
      const lead = (await leads.get(db, tenant, request.params.id)) as z.infer<typeof leadOut>;
      const found = await analysisOfLead(db, tenant.companyId, request.params.id);
      return found ? { ...lead, analysis: found } : lead;
    },
  );
};
