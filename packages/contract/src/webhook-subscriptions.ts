import { z } from 'zod';
import { type DomainEventType, domainEventTypes } from './domain-events.js';
import { zUrl } from './fields.js';
import { formMessages } from './messages-es.js';

/**
 * Outbound webhooks (issue 28, decision 0073): a company's systems are told when something happens.
 * Owner only (module `api`), all under /api:
 *
 *   POST   /webhook-subscriptions                     webhookSubscriptionIn → 201 {…, secret} (shown once)
 *   GET    /webhook-subscriptions                     the company's subscriptions
 *   GET    /webhook-subscriptions/{id}                one, with its delivery figures
 *   PUT    /webhook-subscriptions/{id}                webhookSubscriptionUpdate (url, events, description, status)
 *   DELETE /webhook-subscriptions/{id}
 *   GET    /webhook-subscriptions/{id}/deliveries     newest first, with every attempt
 *   POST   /webhook-subscriptions/{id}/deliveries/{deliveryId}/redeliver
 *
 * Each delivery is a POST of `{id, type, createdAt, companyId, data}` (the spine's event: its id,
 * type, when it happened, the company and its payload) with `Mostrador-Event-Id`,
 * `Mostrador-Event-Type` and `Mostrador-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>" keyed by the secret>` — Stripe's scheme.
 */

/** What a subscription's secret starts with. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The signature's header, and the others a delivery carries. */
export const webhookHeaders = { signature: 'mostrador-signature', eventId: 'mostrador-event-id', eventType: 'mostrador-event-type' } as const;
/** How long a delivery is retried after its first attempt (3 days). */
export const WEBHOOK_RETRY_HOURS = 72;
/** A subscription whose deliveries have failed this long without one success is paused. */
export const WEBHOOK_PAUSE_AFTER_HOURS = 24;

/** The events a subscription may listen to, in Spanish (the screen's checklist). */
export const webhookEventLabels: Record<DomainEventType, string> = {
  'message.received': 'Un cliente escribió',
  'message.sent': 'Se envió un mensaje',
  'message.status': 'Cambió el estado de un mensaje (entregado, leído, fallido)',
  'message.updated': 'Cambió un mensaje',
  'chat.created': 'Se abrió un chat nuevo',
  'chat.assigned': 'Se asignó un chat',
  'chat.resolved': 'Se resolvió un chat',
  'chat.reopened': 'Se reabrió un chat',
  'chat.snoozed': 'Se pospuso un chat',
  'lead.created': 'Se creó un lead',
  'lead.updated': 'Se editó un lead',
  'lead.status_changed': 'Cambió el estado de un lead',
  'lead.labelled': 'Se etiquetó un lead',
  'lead.unlabelled': 'Se quitó una etiqueta a un lead',
  'person.merged': 'Se unieron dos personas',
  'person.labelled': 'Se etiquetó una persona',
  'person.unlabelled': 'Se quitó una etiqueta a una persona',
  'order.created': 'Se hizo un pedido',
  'order.status_changed': 'Cambió el estado de un pedido',
  'order.paid': 'Se pagó un pedido',
  'store_order.arrived': 'Llegó o cambió una orden de la tienda o del marketplace',
  'send.finished': 'Terminó un envío masivo',
  'campaign.chunk_finished': 'Terminó un tramo de campaña',
  'sync.finished': 'Terminó una sincronización',
  'comment.received': 'Comentaron una publicación de Facebook',
  'form.entry_received': 'Llegó una entrada de formulario',
  'webhook_subscription.paused': 'Se pausó una suscripción de webhooks',
};

const eventType = z.enum(domainEventTypes as [DomainEventType, ...DomainEventType[]], { error: 'Ese evento no existe: elige uno de la lista' });
const events = z
  .array(eventType)
  .min(1, 'Elige al menos un evento')
  .max(domainEventTypes.length)
  .transform((list) => [...new Set(list)]);
const description = z.string().trim().max(300, formMessages.tooLong);

export const webhookSubscriptionIn = z.object({
  url: zUrl(2000),
  events,
  description: description.optional(),
});
export type WebhookSubscriptionIn = z.input<typeof webhookSubscriptionIn>;

export const webhookSubscriptionStatuses = ['active', 'paused'] as const;
export const webhookSubscriptionUpdate = z.object({
  url: zUrl(2000).optional(),
  events: events.optional(),
  description: description.optional(),
  /** `active` resumes a paused subscription (what failed while it was paused is not sent again). */
  status: z.enum(webhookSubscriptionStatuses, { error: 'El estado es active o paused' }).optional(),
});
export type WebhookSubscriptionUpdate = z.input<typeof webhookSubscriptionUpdate>;

export const webhookSubscriptionOut = z.object({
  _id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.enum(webhookSubscriptionStatuses),
  /** Why it is paused (24 h of failures, or its owner paused it). */
  pausedReason: z.string().nullable(),
  pausedAt: z.string().nullable(),
  /** Since when its deliveries fail without a success (null: the last one arrived). */
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  /** Its deliveries: waiting or retrying, delivered, given up. */
  counts: z.object({ pending: z.number(), delivered: z.number(), failed: z.number() }),
  lastDeliveryAt: z.string().nullable(),
});
export type WebhookSubscriptionOut = z.infer<typeof webhookSubscriptionOut>;
export const webhookSubscriptionList = z.object({ payload: z.array(webhookSubscriptionOut) });
export const webhookSubscriptionCreated = webhookSubscriptionOut.extend({ secret: z.string() });
export type WebhookSubscriptionCreated = z.infer<typeof webhookSubscriptionCreated>;

export const webhookAttemptOut = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null: no answer (refused, timed out). */
  status: z.number().nullable(),
  latencyMs: z.number(),
  error: z.string().nullable(),
  /** The first characters of the receiver's answer. */
  excerpt: z.string().nullable(),
});
export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export const webhookDeliveryOut = z.object({
  _id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.array(webhookAttemptOut),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDeliveryOut = z.infer<typeof webhookDeliveryOut>;
export const webhookDeliveryList = z.object({ payload: z.array(webhookDeliveryOut) });
export const webhookDeliveryQuery = z.object({
  status: z.enum(webhookDeliveryStatuses, { error: 'El estado es pending, delivered o failed' }).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
