import { z } from 'zod';

/**
 * The product's domain events (issue 27, decision 0068): what happened, written in the same
 * transaction as the change that caused it (the `domain_events` outbox), and delivered at least
 * once, in order per aggregate, to the listeners of apps/server/src/spine/listeners.ts. The
 * automation rules, outbound webhooks and audit log of later issues are listeners too.
 *
 * Each type names its aggregate (what it is ordered by) and a versioned payload. A payload
 * changes only by adding optional fields; anything else is a new version, and the dispatcher
 * refuses a payload its version's schema does not accept (the listener never sees it).
 */

/** Who caused an event: a person, an integrator's key, an automation rule, a provider's webhook, or the product itself. */
export const actorTypes = ['user', 'api_key', 'rule', 'provider', 'system'] as const;
export const domainActor = z.object({
  type: z.enum(actorTypes),
  /** The user's, key's or rule's id; the provider's name (whatsapp, messenger, instagram, woocommerce…); absent for the system. */
  id: z.string().max(200).optional(),
});
export type DomainActor = z.infer<typeof domainActor>;

export const aggregateTypes = ['chat', 'lead', 'person', 'order', 'store_order', 'send', 'sync', 'comment', 'form_entry', 'webhook_subscription'] as const;
export type AggregateType = (typeof aggregateTypes)[number];

const id = z.string().min(1).max(200);
const chatRef = { chatId: id, leadId: id.nullable() };

/** Each event type: its aggregate and its payload per version. */
export const domainEventCatalogue = {
  'message.received': {
    aggregate: 'chat',
    summary: 'A customer wrote in a chat',
    versions: { 1: z.object({ ...chatRef, messageId: id, channel: z.string(), kind: z.string() }) },
  },
  'message.sent': {
    aggregate: 'chat',
    summary: 'A message left the company in a chat (an agent, a campaign, a bot, a rule)',
    versions: { 1: z.object({ ...chatRef, messageId: id, channel: z.string(), kind: z.string(), sentBy: id.nullable() }) },
  },
  'message.status': {
    aggregate: 'chat',
    summary: "A message's delivery status moved (sent, delivered, read, failed)",
    versions: { 1: z.object({ chatId: id, messageId: id, status: z.string(), previous: z.string() }) },
  },
  'message.updated': {
    aggregate: 'chat',
    summary: 'A message changed otherwise: deleted by its author, reacted to, its content completed',
    versions: { 1: z.object({ chatId: id, messageId: id }) },
  },
  'chat.created': {
    aggregate: 'chat',
    summary: 'A conversation began with a person on a channel',
    versions: { 1: z.object({ ...chatRef, channel: z.string() }) },
  },
  'chat.assigned': {
    aggregate: 'chat',
    summary: "The chat's lead got another agent, or none",
    versions: { 1: z.object({ ...chatRef, agentId: id.nullable(), previousAgentId: id.nullable() }) },
  },
  'chat.resolved': {
    aggregate: 'chat',
    summary: 'The chat was marked resolved',
    versions: { 1: z.object({ ...chatRef }) },
  },
  'chat.reopened': {
    aggregate: 'chat',
    summary: 'A resolved or snoozed chat is open again',
    versions: { 1: z.object({ ...chatRef, from: z.string() }) },
  },
  'chat.snoozed': {
    aggregate: 'chat',
    summary: 'The chat was snoozed until a time (it opens again then, or when the customer writes)',
    versions: { 1: z.object({ ...chatRef, until: z.string(), from: z.string() }) },
  },
  'lead.created': {
    aggregate: 'lead',
    summary: 'A lead was created (a first message, a form, an import, a person)',
    versions: { 1: z.object({ leadId: id, platform: z.string().nullable(), status: z.string().nullable() }) },
  },
  'lead.updated': {
    aggregate: 'lead',
    summary: "A lead's data changed (name, phone, e-mail, details)",
    versions: { 1: z.object({ leadId: id }) },
  },
  'lead.status_changed': {
    aggregate: 'lead',
    summary: "A lead's status moved",
    versions: { 1: z.object({ leadId: id, status: z.string().nullable(), previous: z.string().nullable() }) },
  },
  'lead.labelled': {
    aggregate: 'lead',
    summary: 'Labels were put on a lead',
    versions: { 1: z.object({ leadId: id, platform: z.string().nullable(), labels: z.array(z.string()) }) },
  },
  'lead.unlabelled': {
    aggregate: 'lead',
    summary: 'Labels were taken off a lead',
    versions: { 1: z.object({ leadId: id, platform: z.string().nullable(), labels: z.array(z.string()) }) },
  },
  'person.merged': {
    aggregate: 'person',
    summary: 'Two people (clean leads) were merged into one',
    versions: { 1: z.object({ keptId: id, duplicateId: id }) },
  },
  'person.labelled': {
    aggregate: 'person',
    summary: 'Labels were put on a person (a clean lead: massive labels, the person screen)',
    versions: { 1: z.object({ personId: id, labels: z.array(z.string()) }) },
  },
  'person.unlabelled': {
    aggregate: 'person',
    summary: 'Labels were taken off a person',
    versions: { 1: z.object({ personId: id, labels: z.array(z.string()) }) },
  },
  'order.created': {
    aggregate: 'order',
    summary: 'An order was placed (the digital catalogue, a WhatsApp cart, an agent)',
    versions: { 1: z.object({ orderId: id, code: z.string(), status: z.string(), source: z.string().nullable(), total: z.number(), currency: z.string().nullable(), chatId: id.nullable(), leadId: id.nullable() }) },
  },
  'order.status_changed': {
    aggregate: 'order',
    summary: "An order's status moved",
    versions: { 1: z.object({ orderId: id, code: z.string(), status: z.string(), previous: z.string() }) },
  },
  'order.paid': {
    aggregate: 'order',
    summary: 'An order was paid',
    versions: { 1: z.object({ orderId: id, code: z.string(), total: z.number(), currency: z.string().nullable() }) },
  },
  'store_order.arrived': {
    aggregate: 'store_order',
    summary: 'An order from a store (WooCommerce) or a marketplace arrived or changed (a sync, a webhook)',
    versions: {
      1: z.object({
        kind: z.enum(['ecommerce', 'marketplace']),
        orderId: id,
        status: z.string(),
        country: z.string(),
        /** Paid and not cancelled (decision 0037): what Genial invoices. */
        invoiceable: z.boolean(),
        /** The customer's document, when the source gave one. */
        customerTaxId: z.string().max(40).nullable(),
      }),
    },
  },
  'send.finished': {
    aggregate: 'send',
    summary: 'A massive send or campaign chunk ended (sent, with some errors, error, stopped)',
    versions: { 1: z.object({ sendId: id, kind: z.string(), status: z.string(), campaignId: id.nullable() }) },
  },
  'campaign.chunk_finished': {
    aggregate: 'send',
    summary: "A marketing campaign's chunk ended",
    versions: { 1: z.object({ sendId: id, campaignId: id, chunkPage: z.number().int().nullable(), status: z.string() }) },
  },
  'sync.finished': {
    aggregate: 'sync',
    summary: 'A sync with a store, a marketplace, Mailchimp or Google ended (done or failed)',
    versions: { 1: z.object({ syncId: id, kind: z.enum(['woocommerce', 'marketplace', 'mailchimp', 'google_contacts']), status: z.string() }) },
  },
  'comment.received': {
    aggregate: 'comment',
    summary: "Someone commented on one of the company's Facebook posts",
    versions: { 1: z.object({ commentId: id, pageId: z.string(), postId: z.string().nullable() }) },
  },
  'form.entry_received': {
    aggregate: 'form_entry',
    summary: 'A Gravity Forms entry arrived',
    versions: { 1: z.object({ entryId: id, formId: id, status: z.string() }) },
  },
  'webhook_subscription.paused': {
    aggregate: 'webhook_subscription',
    summary: "An outbound webhook subscription paused itself: its deliveries failed for 24 hours (decision 0073); its owners are told in the product (decision 0075)",
    versions: { 1: z.object({ subscriptionId: id, url: z.string(), reason: z.string() }) },
  },
} as const satisfies Record<string, { aggregate: AggregateType; summary: string; versions: Record<number, z.ZodType> }>;

export type DomainEventType = keyof typeof domainEventCatalogue;
export const domainEventTypes = Object.keys(domainEventCatalogue) as DomainEventType[];

type Catalogue = typeof domainEventCatalogue;
/** The payload of a type's current version. */
export type DomainEventPayload<T extends DomainEventType> = z.infer<Catalogue[T]['versions'][1]>;

/** An event as listeners receive it. */
export interface DomainEvent<T extends DomainEventType = DomainEventType> {
  /** Its global position: the order of the outbox. */
  position: number;
  /** Its public id (uuid): what a listener keys its idempotence on, what an outbound webhook sends. */
  id: string;
  type: T;
  version: number;
  companyId: string;
  aggregate: { type: AggregateType; id: string };
  actor: DomainActor;
  payload: DomainEventPayload<T>;
  occurredAt: string;
}

/** The newest version of a type (what the product writes now). */
export function currentVersion(type: DomainEventType): number {
  return Math.max(...Object.keys(domainEventCatalogue[type].versions).map(Number));
}

/** The schema of a type's version, or undefined for a type or version the catalogue does not have. */
export function payloadSchema(type: string, version: number): z.ZodType | undefined {
  const entry = (domainEventCatalogue as Record<string, { versions: Record<number, z.ZodType> }>)[type];
  return entry?.versions[version];
}
