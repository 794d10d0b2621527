import {
  type Action,
  duplicateCandidateOut,
  duplicatesQuery,
  mergeInput,
  mergeResult,
  personOut,
  personParams,
  personPatch,
  personQuery,
} from '@mostrador/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import { publishChatEffect } from '../chats/events.js';
import type { ChatEffect } from '../conversations/effects.js';
import { createPeople } from './service.js';

/** Leads and clean leads are the `leads` module: reading a person needs leads · read, changing one leads · update. */
const permission = (action: Action) => ({ permission: { module: 'leads' as const, action } });

/**
 * The person behind a chat (contract person-api.ts, decision 0029): GET /people, PUT
 * /people/:id, GET /people/:id/duplicates, POST /people/:id/merge. After a change is
 * committed, the company's browsers hear it (lead.updated, chat.updated), best effort.
 */
export const peopleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const people = createPeople(app.secrets);

  async function announce(target: FastifyInstance, companyId: string, leadIds: string[], chatEffects: ChatEffect[]) {
    try {
      for (const leadId of leadIds) await target.realtime.publish(companyId, { type: 'lead.updated', leadId });
    } catch (error) {
      target.log.warn({ err: error }, 'no se pudo avisar del cambio de la persona');
    }
    for (const effect of chatEffects) await publishChatEffect(db, target.realtime, companyId, effect, target.log);
  }

  app.get(
    '/people',
    { config: permission('read'), schema: { tags: ['people'], querystring: personQuery, response: { 200: personOut } } },
    (request) => people.find(db, tenantOf(request), request.query),
  );

  app.put(
    '/people/:id',
    { config: permission('update'), schema: { tags: ['people'], params: personParams, body: personPatch, response: { 200: personOut } } },
    async (request) => {
      const tenant = tenantOf(request);
      const { person, leadIds, chatEffects } = await people.update(db, tenant, request.params.id, request.body);
      await announce(app, tenant.companyId, leadIds, chatEffects);
      return person;
    },
  );

  app.get(
    '/people/:id/duplicates',
    {
      config: permission('read'),
      schema: { tags: ['people'], params: personParams, querystring: duplicatesQuery, response: { 200: z.object({ payload: z.array(duplicateCandidateOut) }) } },
    },
    async (request) => ({ payload: await people.duplicates(db, tenantOf(request), request.params.id, request.query.filter || undefined) }),
  );

  app.post(
    '/people/:id/merge',
    { config: permission('update'), schema: { tags: ['people'], params: personParams, body: mergeInput, response: { 200: mergeResult } } },
    async (request) => {
      const tenant = tenantOf(request);
      const { leadIds, chatEffects, ...result } = await people.merge(db, tenant, request.params.id, request.body.duplicateId);
      await announce(app, tenant.companyId, leadIds, chatEffects);
      return result;
    },
  );
};
