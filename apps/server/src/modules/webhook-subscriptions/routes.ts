import {
  webhookDeliveryList,
  webhookDeliveryQuery,
  webhookSubscriptionCreated,
  webhookSubscriptionIn,
  webhookSubscriptionList,
  webhookSubscriptionOut,
  webhookSubscriptionUpdate,
  zId,
} from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantOf } from '../../plugins/auth.js';
import { WEBHOOK_DELIVER_QUEUE } from './jobs.js';
import { createSubscriptionService } from './service.js';

const tags = ['webhook-subscriptions'];
const permission = (action: 'list' | 'create' | 'update' | 'delete') => ({ permission: { module: 'api' as const, action } });
const idParams = z.object({ id: zId() });

/** Outbound webhooks' subscriptions and their deliveries (issue 28, decision 0073): owner only (module `api`). */
export const webhookSubscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createSubscriptionService(app.database, app.secrets);
  // the minute's sweep: retries come due, a claim of a dead worker expires, another process's rows
  app.jobs.define(WEBHOOK_DELIVER_QUEUE, () => app.webhookDeliverer.wake());
  app.jobs.every(WEBHOOK_DELIVER_QUEUE);

  app.get('/webhook-subscriptions', { config: permission('list'), schema: { tags, response: { 200: webhookSubscriptionList } } }, async (request) => ({
    payload: await service.list(tenantOf(request)),
  }));
  app.post(
    '/webhook-subscriptions',
    { config: permission('create'), schema: { tags, body: webhookSubscriptionIn, response: { 201: webhookSubscriptionCreated } } },
    async (request, reply) => reply.status(201).send(await service.create(tenantOf(request), request.body)),
  );
  app.get('/webhook-subscriptions/:id', { config: permission('list'), schema: { tags, params: idParams, response: { 200: webhookSubscriptionOut } } }, (request) =>
    service.one(tenantOf(request), request.params.id),
  );
  app.put(
    '/webhook-subscriptions/:id',
    { config: permission('update'), schema: { tags, params: idParams, body: webhookSubscriptionUpdate, response: { 200: webhookSubscriptionOut } } },
    async (request) => {
      const updated = await service.update(tenantOf(request), request.params.id, request.body);
      // resumed: what waited while it was paused goes now
      if (request.body.status === 'active') void app.webhookDeliverer.wake();
      return updated;
    },
  );
  app.delete('/webhook-subscriptions/:id', { config: permission('delete'), schema: { tags, params: idParams } }, async (request, reply) => {
    await service.remove(tenantOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.get(
    '/webhook-subscriptions/:id/deliveries',
    { config: permission('list'), schema: { tags, params: idParams, querystring: webhookDeliveryQuery, response: { 200: webhookDeliveryList } } },
    async (request) => ({ payload: await service.deliveries(tenantOf(request), request.params.id, request.query) }),
  );
  app.post(
    '/webhook-subscriptions/:id/deliveries/:deliveryId/redeliver',
    { config: permission('update'), schema: { tags, params: z.object({ id: zId(), deliveryId: zId() }) } },
    async (request, reply) => {
      await service.redeliver(tenantOf(request), request.params.id, request.params.deliveryId);
      void app.webhookDeliverer.wake();
      return reply.status(202).send({ msg: 'Entrega en cola: sale en unos segundos' });
    },
  );
};
