import type { WebhookDeliveryOut, WebhookSubscriptionCreated, WebhookSubscriptionIn, WebhookSubscriptionOut, WebhookSubscriptionUpdate } from '@mostrador/contract';
import { api } from '../../lib/api-client';

/** Outbound webhooks' subscriptions and deliveries (apps/server/src/modules/webhook-subscriptions, decision 0073). */
export const webhookSubscriptionsApi = {
  list: () => api.get<{ payload: WebhookSubscriptionOut[] }>('/webhook-subscriptions', { overlay: false }),
  create: (input: WebhookSubscriptionIn) => api.post<WebhookSubscriptionCreated>('/webhook-subscriptions', input, { overlay: false }),
  update: (id: string, input: WebhookSubscriptionUpdate) =>
    api.put<WebhookSubscriptionOut>(`/webhook-subscriptions/${encodeURIComponent(id)}`, input, { overlay: false, success: input.status === 'active' ? 'Suscripción reanudada' : input.status === 'paused' ? 'Suscripción pausada' : true }),
  remove: (id: string) => api.delete<void>(`/webhook-subscriptions/${encodeURIComponent(id)}`, { overlay: false, success: 'Suscripción eliminada' }),
  deliveries: (id: string) => api.get<{ payload: WebhookDeliveryOut[] }>(`/webhook-subscriptions/${encodeURIComponent(id)}/deliveries`, { overlay: false }),
  redeliver: (id: string, deliveryId: string) =>
    api.post<{ msg: string }>(`/webhook-subscriptions/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, undefined, { overlay: false, success: true }),
};
