import { z } from 'zod';
import { formMessages } from './messages-es.js';
import { requiredOr, zId, zOptionalText, zPhone } from './fields.js';

/**
 * Channel settings of a company (issue 4 "Channels in", the /whatsapp screen): its WhatsApp
 * Cloud API line and its Facebook page (Messenger) with, optionally, the Instagram account
 * linked to it. Provider events reach the company through these ids, so an id belongs to one
 * company only. The access token is stored sealed and never returned: responses say
 * `accessTokenSet` and show its last four characters.
 */
export const channelKinds = ['whatsapp', 'messenger', 'instagram'] as const;
export type ChannelKind = (typeof channelKinds)[number];
export const channelKindLabels: Record<ChannelKind, string> = { whatsapp: 'WhatsApp', messenger: 'Messenger', instagram: 'Instagram' };

/** A Graph API id (phone number id, WhatsApp business account id, page id, Instagram account id): digits. */
export const zGraphId = () =>
  z
    .string({ error: requiredOr(formMessages.invalid) })
    .trim()
    .min(1, formMessages.required)
    .max(40, formMessages.tooLong)
    .regex(/^\d+$/, 'Solo dígitos: el identificador que muestra Meta');

/** An access token: kept when left out, replaced when given. */
const zAccessToken = () =>
  z
    .string({ error: formMessages.invalid })
    .trim()
    .min(20, 'El token de acceso parece incompleto')
    .max(4000, formMessages.tooLong)
    .regex(/^\S+$/, 'El token de acceso no lleva espacios');

/** PUT /api/channels/whatsapp: the company's WhatsApp Cloud API line. */
export const whatsappChannelInput = z
  .object({
    phoneNumberId: zGraphId(),
    businessAccountId: zGraphId().optional(),
    /** The line's number as customers see it (digits with country code). */
    displayPhoneNumber: zPhone().optional(),
    accessToken: zAccessToken().optional(),
  })
  .strict();
export type WhatsappChannelInput = z.infer<typeof whatsappChannelInput>;

/** PUT /api/channels/meta: the company's Facebook page (Messenger) and its Instagram account. */
export const metaChannelInput = z
  .object({
    pageId: zGraphId(),
    pageName: zOptionalText(120).optional(),
    /** The Instagram professional account linked to the page; null disconnects Instagram. */
    instagramAccountId: zGraphId().nullable().optional(),
    accessToken: zAccessToken().optional(),
  })
  .strict();
export type MetaChannelInput = z.infer<typeof metaChannelInput>;

/** A channel as the API returns it (never the token). */
export const channelOut = z.object({
  _id: z.string(),
  kind: z.enum(channelKinds),
  /** The provider's id events carry: phone number id (WhatsApp), page id (Messenger), Instagram account id. */
  providerId: z.string(),
  businessAccountId: z.string().optional(),
  displayPhoneNumber: z.string().optional(),
  /** Page name (Messenger) or the page an Instagram account belongs to. */
  name: z.string().optional(),
  pageId: z.string().optional(),
  accessTokenSet: z.boolean(),
  /** The token's last four characters, so a user can tell which one is stored. */
  accessTokenLast4: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Channel = z.infer<typeof channelOut>;
/**
 * What a user pastes in Meta's dashboard to subscribe the webhooks (GET /channels, the
 * /whatsapp screen): the callback URLs under the server's PUBLIC_URL, and whether the server
 * is set up for them (the verify token's value is the server's WEBHOOK_VERIFY_TOKEN, never sent).
 */
export const channelWebhooks = z.object({
  whatsappUrl: z.string(),
  metaUrl: z.string(),
  /** The server has WEBHOOK_VERIFY_TOKEN and META_APP_SECRET (without them the webhooks answer 503). */
  configured: z.boolean(),
  /** Outside production the server uses a known demo verify token: shown so a demo can be wired. */
  demoVerifyToken: z.string().optional(),
});
export type ChannelWebhooks = z.infer<typeof channelWebhooks>;
export const channelList = z.object({ payload: z.array(channelOut), webhooks: channelWebhooks.optional() });

/** What a failed test of the page's token points at: the token (expired, of another page), its permissions, or Facebook itself. */
export const pageTestProblems = ['token', 'permissions', 'page', 'network', 'facebook'] as const;
/** POST /api/channels/meta/test: the stored page token asked to Graph («Probar conexión», decision 0061). */
export const pageTestOut = z.object({
  ok: z.boolean(),
  msg: z.string(),
  problem: z.enum(pageTestProblems).optional(),
  /** The page the token is of, as Graph names it. */
  page: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type PageTestOut = z.infer<typeof pageTestOut>;
export const channelKindParams = z.object({ kind: z.enum(channelKinds, { error: 'Canal desconocido' }) }).strict();

/**
 * Kinds of a chat message and its delivery statuses (issue 4). A message the company sends is
 * one of the outbound kinds (SPEC §5 media kinds); a customer's message keeps what it is
 * (issue 10, decision 0020): sticker, location, contact cards, a button or list answer,
 * a reaction whose target is unknown, a catalogue order, an ad referral without text, an
 * Instagram story mention, a system notice, or a message the provider could not deliver
 * (unsupported, with its reason). The specifics of each kind are in the message's `content`.
 */
export const outboundMessageKinds = ['text', 'image', 'video', 'audio', 'document'] as const;
export type OutboundMessageKind = (typeof outboundMessageKinds)[number];
export const chatMessageKinds = [
  ...outboundMessageKinds,
  'sticker',
  'location',
  'contacts',
  'interactive',
  'reaction',
  'order',
  'referral',
  'story',
  'system',
  'unsupported',
  // an internal note of the company's staff on the chat (issue 11, decision 0027): never sent to the customer
  'note',
] as const;
export type ChatMessageKind = (typeof chatMessageKinds)[number];
export const chatMessageStatuses = ['received', 'pending', 'sent', 'delivered', 'read', 'failed'] as const;
export type ChatMessageStatus = (typeof chatMessageStatuses)[number];
export const chatMessageStatusLabels: Record<ChatMessageStatus, string> = {
  received: 'Recibido',
  pending: 'Pendiente',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  failed: 'Fallido',
};

/**
 * A provider event that could not be stored as it came or kept failing after the queue's
 * retries (decision 0020): GET /api/webhooks/dead-letters lists the company's, newest first;
 * POST /api/webhooks/dead-letters/:id/replay puts one back in the queue.
 */
export const webhookDeadLetterOut = z.object({
  _id: z.string(),
  /** A channel, or `gravity-forms` for a form entry (decision 0050). */
  provider: z.enum([...channelKinds, 'gravity-forms']),
  /** message, status, read, other. */
  type: z.string(),
  eventId: z.string(),
  /** pending after a replay, processed / ignored once done, failed while it fails. */
  status: z.enum(['pending', 'processed', 'ignored', 'failed']),
  error: z.string().optional(),
  attempts: z.number().int(),
  /** Who wrote and what (a message's preview), when the event says it. */
  summary: z.string().optional(),
  receivedAt: z.string(),
});
export type WebhookDeadLetter = z.infer<typeof webhookDeadLetterOut>;
export const webhookDeadLetterList = z.object({ payload: z.array(webhookDeadLetterOut) });
export const webhookDeadLetterParams = z.object({ id: zId() }).strict();
export const webhookEventTypeLabels: Record<string, string> = { message: 'Mensaje', status: 'Estado de entrega', read: 'Lectura', other: 'Otro', entry: 'Entrada de formulario' };
/** Who sent a dead letter: a channel's name, or the form plugin's. */
export const webhookProviderLabels: Record<WebhookDeadLetter['provider'], string> = { ...channelKindLabels, 'gravity-forms': 'Gravity Forms' };
