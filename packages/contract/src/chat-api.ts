import { z } from 'zod';
import { type ChatMessageKind, chatMessageKinds, chatMessageStatuses, outboundMessageKinds } from './channels.js';
import { zInboxView } from './assignment.js';
import { syncRunOut } from './ecommerce-api.js';
import { bulkRunOut, marketplaceSyncRunOut } from './marketplace-api.js';
import { sendOut } from './sending-api.js';
import { gravityEntryStatuses, gravitySyncOut } from './gravity-forms-api.js';
import { mailchimpSyncOut } from './mailchimp-api.js';
import { audienceSendOut } from './audience-api.js';
import { googleSyncOut } from './google-people-api.js';
import { notificationOut } from './notifications.js';
import { chatAnalysisOut } from './analysis.js';
import { chatCsatOut, csatStyles } from './csat.js';
import { platforms } from './constants.js';
import { zId, zOptionalText, zUrl } from './fields.js';
import { CHAT_LIST_LIMIT } from './list-query.js';
import { chatProductsContent, productsPreview } from './chat-products.js';
import { chatStatuses } from './resources/chats.js';
import { leadStatuses } from './resources/leads.js';

/**
 * The chat calls (SPEC §7 Chats, issue 4 "Chat"). Everything under /api/chats, scoped to
 * the caller's company. Paths (the spec's names where it gives them):
 *
 *   GET    /chats/get_chats                 the inbox: chatInboxQuery → Page<ChatSummary>
 *   GET    /chats/recent_chats              { limit (10) } → { payload: ChatSummary[] }
 *   GET    /chats/get_all_by_lead_id        { leadId, platform, before?, limit? } → ChatThread
 *   GET    /chats/get_all_by_cleanlead_id   { cleanLeadId } → { payload: ChatSummary[] } (every chat of the person)
 *   GET    /chats/:id/messages              { before?, limit? } → ChatThread
 *   POST   /chats/:id/messages              sendMessageInput → 201 ChatMessage
 *   POST   /chats/:id/read                  → ChatSummary (unreadCount 0)
 *   DELETE /chats/:id/messages/:messageId   → { status: 200, _id } (the message becomes isActive false)
 *   GET    /chats/media/:messageId          the media bytes (downloaded from the provider by its media id)
 *   POST   /chats/send_massive_message      massiveMessageInput → MassiveMessageResult
 *   GET    /events                          Server-Sent Events: RealtimeEvent (see below)
 */

/** WhatsApp's customer-service window (Cloud API): after 24 h without a customer message only templates may be sent. */
export const WHATSAPP_WINDOW_HOURS = 24;
export const chatMessages_es = {
  outsideWindow:
    'Pasaron más de 24 horas desde el último mensaje del cliente: WhatsApp solo permite escribirle con una plantilla aprobada.',
  noChannel: 'La compañía no tiene configurado este canal: configúralo en /whatsapp',
  sent: 'Mensajes enviados con éxito',
} as const;

/** The lead a chat belongs to, as the inbox and the side panel show it. */
export const chatLeadOut = z.object({
  _id: z.string(),
  name: z.string(),
  telefono: z.string().optional(),
  email: z.string().optional(),
  status: z.enum(leadStatuses).optional(),
  agenteId: z.string().optional(),
  mostradorLabels: z.array(z.string()).optional(),
  cleanLeadId: z.string().optional(),
});

/** A chat in the inbox: the chats record plus its lead and the WhatsApp window. */
export const chatSummaryOut = z.object({
  _id: z.string(),
  contactName: z.string(),
  platform: z.enum(platforms),
  status: z.enum(chatStatuses),
  unreadCount: z.number().int(),
  lastMessageAt: z.string().optional(),
  lastMessagePreview: z.string().optional(),
  lead: chatLeadOut.optional(),
  /** Until when a free-form message may be sent (WhatsApp: last customer message + 24 h); absent when there is no customer message. */
  windowOpenUntil: z.string().optional(),
  /** A Dialogflow bot answers the chat, or handed it to a person (decision 0053). */
  bot: z.object({ name: z.string(), state: z.enum(['answering', 'handed_over']), reason: z.string().optional(), at: z.string().optional() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChatSummary = z.infer<typeof chatSummaryOut>;

/**
 * GET /chats/:id: one chat, as the inbox lists it, with its latest analysis (issue 31, decision
 * 0092) — absent while the chat was never analysed. The inbox's lists never carry it.
 */
export const chatDetailOut = chatSummaryOut.extend({
  analysis: chatAnalysisOut.optional(),
  /** The chat's latest CSAT survey (decision 0100): absent while none was asked. */
  csat: chatCsatOut.optional(),
});
export type ChatDetail = z.infer<typeof chatDetailOut>;

const zs = () => z.string().optional();

/**
 * A click-to-WhatsApp / click-to-Messenger ad (or post) the customer came from (decision 0020).
 * WhatsApp: source_url, source_id, source_type, headline, body, media_type, image_url,
 * video_url, thumbnail_url, ctwa_clid. Messenger/Instagram: ref, source, type, ad_id and
 * ads_context_data (ad_title, photo_url, video_url, post_id, product_id).
 */
export const messageReferral = z.object({
  sourceUrl: zs(),
  sourceId: zs(),
  sourceType: zs(),
  headline: zs(),
  body: zs(),
  mediaType: zs(),
  imageUrl: zs(),
  videoUrl: zs(),
  thumbnailUrl: zs(),
  ctwaClid: zs(),
  ref: zs(),
  source: zs(),
  type: zs(),
  adId: zs(),
  postId: zs(),
  productId: zs(),
});
export type MessageReferral = z.infer<typeof messageReferral>;

/** A contact card a customer shared (WhatsApp `contacts`): its name and phones. */
export const messageContactCard = z.object({
  name: z.string(),
  phones: z.array(z.object({ phone: z.string(), waId: zs(), type: zs() })),
  emails: z.array(z.string()).optional(),
  org: zs(),
});
export type MessageContactCard = z.infer<typeof messageContactCard>;

/** One line of a catalogue order (WhatsApp `order.product_items[]`). */
export const messageOrderItem = z.object({ productRetailerId: z.string(), quantity: z.number(), itemPrice: z.number().optional(), currency: zs() });

/**
 * What a message carries besides its kind, text and media (decision 0020): each field is
 * present only for the kinds that have it. Stored as jsonb on the message.
 */
export const messageContent = z.object({
  /** The message answers another one (WhatsApp `context.id`, Messenger `reply_to.mid`); the thread adds what the original said. */
  replyTo: z
    .object({ mid: z.string(), found: z.boolean().optional(), kind: z.enum(chatMessageKinds).optional(), text: zs(), direction: z.enum(['in', 'out']).optional() })
    .optional(),
  forwarded: z.boolean().optional(),
  /** The customer's reaction to this message (an emoji); gone when they remove it. */
  reaction: zs(),
  /** A reaction whose message is not in Mostrador (kind reaction). */
  reactionTo: z.object({ mid: z.string(), emoji: z.string() }).optional(),
  /** Document: its file name. */
  fileName: zs(),
  /** Audio recorded as a voice note. */
  voice: z.boolean().optional(),
  animated: z.boolean().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: zs(), address: zs(), url: zs() }).optional(),
  contacts: z.array(messageContactCard).optional(),
  /** A tap: WhatsApp button_reply / list_reply / template quick-reply `button`, Messenger postback / quick_reply. */
  interactive: z.object({ type: z.string(), id: zs(), title: z.string(), description: zs(), payload: zs() }).optional(),
  order: z.object({ catalogId: zs(), text: zs(), items: z.array(messageOrderItem), total: z.number().optional(), currency: zs() }).optional(),
  referral: messageReferral.optional(),
  /** Every attachment of a Messenger/Instagram message (the first is also the message's media). */
  attachments: z.array(z.object({ type: z.string(), url: zs(), title: zs() })).optional(),
  /** Instagram: an answer to the page's story, or a mention of the page in the customer's story. */
  story: z.object({ type: z.enum(['reply', 'mention']), url: zs(), id: zs() }).optional(),
  /**
   * Mostrador's note. `unverified`: written by someone who proved nothing — an order placed on the
   * public catalogue names any phone, so it is not the customer speaking (decision 0061).
   */
  system: z.object({ type: zs(), body: zs(), newWaId: zs(), unverified: z.boolean().optional() }).optional(),
  /** Why the provider could not deliver it as it is (WhatsApp errors[]: code, title, message, error_data.details). */
  error: z.object({ code: z.number().optional(), title: zs(), message: zs(), details: zs() }).optional(),
  /** The provider's type when it is one Mostrador does not know. */
  providerType: zs(),
  /** An approved WhatsApp template sent from the chat (decision 0038): the text is its rendered copy. */
  template: z.object({ name: z.string(), language: z.string() }).optional(),
  /** Sent by a Dialogflow bot (decision 0053): its name, the intent it matched, whether it handed the chat over. */
  bot: z.object({ name: z.string(), intent: zs(), handoff: z.boolean().optional() }).optional(),
  /** Products sent from the chat (issue 30, decision 0085): WhatsApp product / product_list, a Messenger/Instagram carousel. */
  products: chatProductsContent.optional(),
  /** Reply buttons or a list the company sent (a CSAT survey, decision 0100): the options the customer may tap. */
  choices: z.object({ style: z.enum(csatStyles), options: z.array(z.object({ id: z.string(), title: z.string() })) }).optional(),
});
export type MessageContent = z.infer<typeof messageContent>;

/** A map link for a shared location. */
export const mapLinkOf = (l: { latitude: number; longitude: number }) => `https://www.google.com/maps?q=${l.latitude},${l.longitude}`;

/** One message of a thread (SPEC §3 Chat: mid and isActive). Text is plain text, never HTML. */
export const chatMessageOut = z.object({
  _id: z.string(),
  chatId: z.string(),
  /** The provider's message id (WhatsApp wamid, Messenger mid). */
  mid: z.string().optional(),
  direction: z.enum(['in', 'out']),
  kind: z.enum(chatMessageKinds),
  text: z.string().optional(),
  /** A link to the media (sent by link, or the provider's link); inbound provider media is served by GET /chats/media/:_id. */
  mediaUrl: z.string().optional(),
  /** The message has media stored at the provider (download through /chats/media/:_id). */
  hasMedia: z.boolean(),
  mimeType: z.string().optional(),
  /** The kind's specifics (location, contacts, order, referral, reply, reaction…), decision 0020. */
  content: messageContent.optional(),
  status: z.enum(chatMessageStatuses),
  /** The provider's reason when status is failed. */
  statusError: z.string().optional(),
  isActive: z.boolean(),
  /** The user who sent it (outbound). */
  sentBy: z.string().optional(),
  sentAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageOut>;

/** A thread: its chat and a page of messages, oldest first; `hasMore` when older ones exist (ask with before=<oldest sentAt>). */
export const chatThreadOut = z.object({
  chat: chatSummaryOut,
  payload: z.array(chatMessageOut),
  hasMore: z.boolean(),
});
export type ChatThread = z.infer<typeof chatThreadOut>;

const zBool = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'Debe ser true o false' })
    .transform((v) => v === true || v === 'true' || v === '1');

/** GET /chats/get_chats: the inbox, newest activity first. */
export const chatInboxQuery = z
  .object({
    page: z.coerce.number({ error: 'La página debe ser un número' }).int('La página debe ser un entero').min(1, 'La página empieza en 1').default(1),
    limit: z.coerce.number({ error: 'El límite debe ser un número' }).int().min(1, 'El límite mínimo es 1').max(100, 'El límite máximo es 100').default(CHAT_LIST_LIMIT),
    /** Search in the contact's name, phone and the last message. */
    filter: z.string().trim().max(200, 'La búsqueda es demasiado larga').optional(),
    platform: z.enum(platforms, { error: 'Canal desconocido' }).optional(),
    status: z.enum(chatStatuses, { error: 'Estado desconocido' }).optional(),
    leadStatus: z.enum(leadStatuses, { error: 'Estado de lead desconocido' }).optional(),
    agenteId: zId().optional(),
    mostradorLabelId: zId().optional(),
    /** A chat group (SPEC §7 chat groups): chats whose lead carries one of its labels or is assigned to one of its agents. */
    chatGroupId: zId().optional(),
    /** The inbox tab (decision 0025): mine (the caller's agent's chats), unassigned (nobody's), all (default: every chat the caller may see). */
    view: zInboxView().optional(),
    unread: zBool().optional(),
  })
  .strict();
export type ChatInboxQuery = z.input<typeof chatInboxQuery>;

export const recentChatsQuery = z
  .object({ limit: z.coerce.number({ error: 'El límite debe ser un número' }).int().min(1, 'El límite mínimo es 1').max(50, 'El límite máximo es 50').default(CHAT_LIST_LIMIT) })
  .strict();

export const threadQuery = z
  .object({
    before: z.iso.datetime({ offset: true, error: 'Fecha inválida' }).optional(),
    limit: z.coerce.number({ error: 'El límite debe ser un número' }).int().min(1, 'El límite mínimo es 1').max(200, 'El límite máximo es 200').default(50),
  })
  .strict();

export const threadByLeadQuery = threadQuery.extend({ leadId: zId(), platform: z.enum(platforms, { error: 'Canal desconocido' }) }).strict();
export const chatsByCleanLeadQuery = z.object({ cleanLeadId: zId() }).strict();

/** POST /chats/:id/messages: text, or media by link (SPEC §5 kinds) with an optional caption. */
export const sendMessageInput = z
  .object({
    kind: z.enum(outboundMessageKinds, { error: 'Tipo de mensaje desconocido' }).default('text'),
    text: zOptionalText(4096).optional(),
    mediaUrl: zUrl().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === 'text' && !v.text) ctx.addIssue({ code: 'custom', path: ['text'], message: 'Escribe un mensaje' });
    if (v.kind !== 'text' && !v.mediaUrl) ctx.addIssue({ code: 'custom', path: ['mediaUrl'], message: 'Falta el enlace del archivo' });
  });
export type SendMessageInput = z.input<typeof sendMessageInput>;

/** POST /chats/send_massive_message: one text to many chats, sent through the queue. */
export const massiveMessageInput = z
  .object({
    chatIds: z.array(zId(), { error: 'Debe ser una lista' }).min(1, 'Elige al menos un chat').max(1000, 'Como máximo 1000 chats por envío'),
    text: z.string({ error: 'Este campo es requerido' }).trim().min(1, 'Este campo es requerido').max(4096, 'El mensaje es demasiado largo'),
  })
  .strict();
export const massiveMessageResult = z.object({
  msg: z.string(),
  queued: z.number().int(),
  /** Chats not sent to, with the reason (outside the WhatsApp window, no channel, unknown chat). */
  skipped: z.array(z.object({ chatId: z.string(), contactName: z.string().optional(), reason: z.string() })),
});
export type MassiveMessageResult = z.infer<typeof massiveMessageResult>;

/**
 * What GET /api/events streams to every open browser of the company (SSE, `event: <type>`,
 * `data: <json>`). A `ping` comment keeps the connection open.
 */
export const realtimeEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message.created'), chat: chatSummaryOut, message: chatMessageOut }),
  z.object({ type: z.literal('message.updated'), chatId: z.string(), message: chatMessageOut }),
  z.object({ type: z.literal('chat.updated'), chat: chatSummaryOut }),
  z.object({ type: z.literal('lead.updated'), leadId: z.string() }),
  /**
   * An order of the company's catalogue was placed (`created`: on the digital catalogue or
   * through WhatsApp's) or moved (modules/orders), published after its transaction committed.
   */
  z.object({ type: z.literal('order.updated'), orderId: z.string(), code: z.string(), status: z.string(), created: z.boolean() }),
  /** A WooCommerce store sync moved on (modules/ecommerce, decision 0034): the run as GET /ecommerces/sync-runs shows it. */
  z.object({ type: z.literal('sync.progress'), run: syncRunOut }),
  /** A marketplace account's sync moved on (modules/marketplace, decision 0035). */
  z.object({ type: z.literal('marketplace.sync'), run: marketplaceSyncRunOut }),
  /** A bulk update of marketplace prices and stock moved on (its counts; the rows are read with GET …/bulk/{id}). */
  z.object({ type: z.literal('marketplace.bulk'), run: bulkRunOut }),
  /** A campaign chunk or massive send moved on (modules/sending, decision 0041): its status and counts. */
  z.object({ type: z.literal('send.progress'), send: sendOut }),
  /** A Mailchimp sync (labels to tags, or an audience's pull) moved on (modules/mailchimp, decision 0051). */
  z.object({ type: z.literal('mailchimp.sync'), sync: mailchimpSyncOut }),
  /** An upload to a Facebook custom audience moved on (a batch accepted, finished, failed; decision 0048). */
  z.object({ type: z.literal('audience.progress'), send: audienceSendOut }),
  /** A form's «Sincronizar entradas» moved on (modules/gravity-forms, decision 0050). */
  z.object({ type: z.literal('gravity.sync'), sync: gravitySyncOut }),
  /**
   * A form's entry was settled (modules/gravity-forms, decision 0050): a lead made or joined, or
   * rejected with its reason. The form's screen reads its entries and counts again.
   */
  z.object({ type: z.literal('gravity.entry'), formId: z.string(), entryId: z.number().int(), status: z.enum(gravityEntryStatuses) }),
  /** A phone's «Sincronizar con Google» moved on (modules/google-people, decision 0052). */
  z.object({ type: z.literal('google.sync'), sync: googleSyncOut }),
  /**
   * A notice for one person of the company (modules/notifications, decision 0075): only that
   * person's streams hear it (GET /events drops it for the others).
   */
  z.object({ type: z.literal('notification.created'), userId: z.string(), notification: notificationOut }),
]);
export type RealtimeEvent = z.infer<typeof realtimeEvent>;

const mediaLabels: Record<'image' | 'video' | 'audio' | 'document' | 'sticker', string> = {
  image: 'Imagen',
  video: 'Video',
  audio: 'Audio',
  document: 'Documento',
  sticker: 'Sticker',
};

/** Why a message could not be shown as it is, in the provider's words. */
export const unsupportedReasonOf = (content: MessageContent | undefined) => {
  const e = content?.error;
  const reason = e?.details || e?.message || e?.title;
  return reason ? `${reason}${e?.code ? ` (${e.code})` : ''}` : content?.providerType ? `tipo ${content.providerType}` : 'tipo desconocido';
};

/**
 * A message on one line, as the inbox previews it and the lead's details keep it (server and
 * browser use this one function): its text, else what it is ("📍 Ubicación", "👤 Contacto: Ana",
 * "🛒 Pedido: 3 productos"…). At most 300 characters.
 */
export function messagePreview(m: { kind: ChatMessageKind; text?: string | null; content?: MessageContent | null }): string {
  const c = m.content ?? undefined;
  const text = m.text?.trim() ?? '';
  const described = (() => {
    switch (m.kind) {
      case 'location': {
        const l = c?.location;
        const place = l?.name || l?.address;
        return `📍 Ubicación${place ? `: ${place}` : ''}`;
      }
      case 'contacts': {
        const names = (c?.contacts ?? []).map((x) => x.name).filter(Boolean);
        return `👤 ${names.length > 1 ? 'Contactos' : 'Contacto'}${names.length ? `: ${names.join(', ')}` : ''}`;
      }
      case 'order': {
        const count = (c?.order?.items ?? []).reduce((n, i) => n + (i.quantity || 0), 0);
        return `🛒 Pedido: ${count} ${count === 1 ? 'producto' : 'productos'}`;
      }
      case 'reaction':
        return c?.reactionTo?.emoji ? `Reaccionó ${c.reactionTo.emoji} a un mensaje` : 'Quitó una reacción';
      case 'referral':
        return text || `📣 Llegó desde un anuncio${c?.referral?.headline ? `: ${c.referral.headline}` : ''}`;
      case 'story':
        return text || (c?.story?.type === 'mention' ? '📸 Te mencionó en su historia' : '📸 Respondió a tu historia');
      case 'system':
        return text || c?.system?.body || 'Aviso de WhatsApp';
      case 'unsupported':
        return `Mensaje no compatible: ${unsupportedReasonOf(c)}`;
      case 'interactive':
        return text || c?.interactive?.title || (c?.products ? productsPreview(c.products) : '');
      case 'document':
        return text || (c?.fileName ? `📄 ${c.fileName}` : `[${mediaLabels.document}]`);
      case 'audio':
        return text || (c?.voice ? '🎤 Nota de voz' : `[${mediaLabels.audio}]`);
      case 'image':
      case 'video':
      case 'sticker':
        return text || `[${mediaLabels[m.kind]}]`;
      default: {
        const link = c?.attachments?.find((a) => a.title || a.url);
        return text || (link ? `🔗 ${link.title || link.url}` : '');
      }
    }
  })();
  return described.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** POST /chats/:id/messages/:messageId/contact-lead: which contact card of the message (0 the first). */
export const contactLeadInput = z.object({ index: z.coerce.number({ error: 'Debe ser un número' }).int().min(0).max(50).default(0) }).strict();
export const contactLeadParams = z.object({ id: zId(), messageId: zId() }).strict();
/** The lead of the card's phone: found (created false) or new. */
export const contactLeadOut = z.object({ _id: z.string(), name: z.string(), telefono: z.string(), status: z.enum(leadStatuses).optional(), created: z.boolean() });
export type ContactLead = z.infer<typeof contactLeadOut>;
