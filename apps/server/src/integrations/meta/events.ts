import { createHash } from 'node:crypto';
import type { ChatMessageKind, MessageContactCard, MessageContent, MessageReferral } from '@mostrador/contract';
import { z } from 'zod';
import { graphErrorReason, reasonOf } from './error-reasons.js';

/**
 * Webhook payloads of the WhatsApp Cloud API and of the Messenger Platform (Messenger and
 * Instagram), turned into one event per provider item: each inbound message, each status
 * change. Every kind a customer can send is kept as what it is (decision 0020): its kind, its
 * text, its media and a `content` with its specifics (location, contact cards, order, ad
 * referral, reply, reaction…). Unknown fields pass; an item this code cannot read is kept as an
 * `other` event with its raw JSON (the payload is signed by Meta: a strange item is a new
 * feature, not an attack), never dropped.
 */
export type Provider = 'whatsapp' | 'messenger' | 'instagram';

export interface InboundMessage {
  /** The person's id on the platform: WhatsApp wa_id (their number), Messenger PSID, Instagram IGSID. */
  from: string;
  name?: string;
  /** WhatsApp only: the number the person writes from (wa_id, digits with code). */
  phone?: string;
  messageId: string;
  /** ISO 8601 UTC. */
  timestamp: string;
  kind: ChatMessageKind;
  text?: string;
  mediaId?: string;
  mediaUrl?: string;
  mimeType?: string;
  /** The kind's specifics (the contract's messageContent). A reaction is kind 'reaction' with content.reactionTo. */
  content?: MessageContent;
  /** An echo of the page's own message…: stored, no effect. */
  ignore?: string;
  /** Instagram: the person unsent this message (`is_deleted`): it becomes inactive, as a deleted message. */
  unsent?: boolean;
  /**
   * Mostrador's own note in the person's thread (an order placed on the digital catalogue,
   * modules/orders): stored like an inbound message, but the person did not write on WhatsApp,
   * so it does not open the 24-hour window.
   */
  internal?: boolean;
}

export interface StatusUpdate {
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: string;
  recipientId?: string;
  error?: string;
  /** What the send carried as `biz_opaque_callback_data` (the engine's outbox id, decision 0041). */
  callbackData?: string;
}

/** Messenger/Instagram read receipt: the person has read every message the page sent up to `watermark`. */
export interface ReadReceipt {
  from: string;
  watermark: string;
}

export type ProviderEvent = { provider: Provider; eventId: string; accountId: string } & (
  | { type: 'message'; data: InboundMessage }
  | { type: 'status'; data: StatusUpdate }
  | { type: 'read'; data: ReadReceipt }
  | { type: 'template_status'; data: TemplateStatusUpdate }
  | { type: 'comment'; data: PageComment }
  | { type: 'other'; data: { raw: unknown } }
);

/**
 * A comment on the page's posts or ads, from the page's `feed` webhook (`changes[].value` with
 * `item: 'comment'`, decision 0049): added, edited or removed. `fromId` is the author's id at
 * Facebook (not their Messenger id: that comes back from a private reply).
 */
export interface PageComment {
  verb: 'add' | 'edited' | 'remove';
  commentId: string;
  postId: string;
  /** The comment this one answers in a thread (its post's id when it is a top-level comment). */
  parentId?: string;
  fromId?: string;
  fromName?: string;
  message?: string;
  /** ISO 8601 UTC. */
  createdTime: string;
  permalinkUrl?: string;
}

/**
 * A WhatsApp template's review or quality changed (`message_template_status_update`, decision
 * 0038): the event is addressed to the WhatsApp Business Account (`accountId` = the WABA id).
 */
export interface TemplateStatusUpdate {
  templateId: string;
  name?: string;
  language?: string;
  /** APPROVED, REJECTED, PENDING, PAUSED, DISABLED, FLAGGED, REINSTATED, IN_APPEAL, PENDING_DELETION… */
  event: string;
  reason?: string;
}

const str = z.union([z.string(), z.number()]).transform(String);
/** An item this code cannot read: kept once (by content) with its raw JSON, nothing done. */
const otherEvent = (provider: Provider, accountId: string, item: unknown): ProviderEvent => ({
  provider,
  eventId: `other:${createHash('sha256').update(JSON.stringify(item) ?? 'null').digest('hex')}`,
  accountId,
  type: 'other',
  data: { raw: item },
});
const isoOf = (value: string | number | undefined, unit: 'seconds' | 'milliseconds') => {
  const n = Number(value);
  const date = Number.isFinite(n) && n > 0 ? new Date(unit === 'seconds' ? n * 1000 : n) : new Date();
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
};

const num = z.union([z.number(), z.string()]).transform(Number).pipe(z.number());
const optStr = z.union([z.string(), z.number()]).transform(String).optional().catch(undefined);
const waMedia = z.looseObject({
  id: str.optional(),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  link: z.string().optional(),
  filename: z.string().optional(),
  voice: z.boolean().optional().catch(undefined),
  animated: z.boolean().optional().catch(undefined),
});
const waError = z.looseObject({
  code: z.number().optional().catch(undefined),
  title: optStr,
  message: optStr,
  error_data: z.looseObject({ details: optStr }).optional().catch(undefined),
});
const waReferral = z.looseObject({
  source_url: optStr,
  source_id: optStr,
  source_type: optStr,
  headline: optStr,
  body: optStr,
  media_type: optStr,
  image_url: optStr,
  video_url: optStr,
  thumbnail_url: optStr,
  ctwa_clid: optStr,
});
const waContactCard = z.looseObject({
  name: z.looseObject({ formatted_name: optStr, first_name: optStr, last_name: optStr }).optional().catch(undefined),
  phones: z.array(z.looseObject({ phone: optStr, wa_id: optStr, type: optStr })).optional().catch(undefined),
  emails: z.array(z.looseObject({ email: optStr })).optional().catch(undefined),
  org: z.looseObject({ company: optStr }).optional().catch(undefined),
});
const waMessage = z.looseObject({
  from: str,
  id: z.string().min(1),
  timestamp: str.optional(),
  type: z.string(),
  context: z.looseObject({ id: optStr, forwarded: z.boolean().optional().catch(undefined), frequently_forwarded: z.boolean().optional().catch(undefined) }).optional().catch(undefined),
  text: z.looseObject({ body: z.string() }).optional().catch(undefined),
  image: waMedia.optional().catch(undefined),
  video: waMedia.optional().catch(undefined),
  audio: waMedia.optional().catch(undefined),
  document: waMedia.optional().catch(undefined),
  sticker: waMedia.optional().catch(undefined),
  button: z.looseObject({ text: optStr, payload: optStr }).optional().catch(undefined),
  interactive: z
    .looseObject({
      type: optStr,
      button_reply: z.looseObject({ id: optStr, title: optStr }).optional().catch(undefined),
      list_reply: z.looseObject({ id: optStr, title: optStr, description: optStr }).optional().catch(undefined),
      nfm_reply: z.looseObject({ name: optStr, body: optStr, response_json: optStr }).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  location: z.looseObject({ latitude: num, longitude: num, name: optStr, address: optStr, url: optStr }).optional().catch(undefined),
  contacts: z.array(waContactCard).optional().catch(undefined),
  reaction: z.looseObject({ message_id: optStr, emoji: optStr }).optional().catch(undefined),
  order: z
    .looseObject({
      catalog_id: optStr,
      text: optStr,
      product_items: z
        .array(z.looseObject({ product_retailer_id: str, quantity: num.catch(0), item_price: num.optional().catch(undefined), currency: optStr }))
        .default([])
        .catch([]),
    })
    .optional()
    .catch(undefined),
  referral: waReferral.optional().catch(undefined),
  system: z.looseObject({ body: optStr, type: optStr, new_wa_id: optStr, wa_id: optStr }).optional().catch(undefined),
  errors: z.array(waError).optional().catch(undefined),
});
const waStatus = z.looseObject({
  id: z.string().min(1),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  timestamp: str.optional(),
  recipient_id: str.optional(),
  biz_opaque_callback_data: z.string().max(512).optional().catch(undefined),
  errors: z.array(waError).optional().catch(undefined),
});
const waValue = z.looseObject({
  metadata: z.looseObject({ phone_number_id: str, display_phone_number: z.string().optional() }),
  contacts: z.array(z.looseObject({ wa_id: str.optional(), profile: z.looseObject({ name: z.string().optional() }).optional() })).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});
const waPayload = z.looseObject({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.looseObject({ id: str.optional(), time: str.optional(), changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })).default([]) }),
  ),
});
const waTemplateStatus = z.looseObject({
  event: z.string().min(1),
  message_template_id: str,
  message_template_name: z.string().optional(),
  message_template_language: z.string().optional(),
  reason: z.string().nullish(),
});

/** Drops undefined fields, so the stored jsonb holds only what came. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;
}

const referralOfWa = (r: z.infer<typeof waReferral>): MessageReferral =>
  compact({
    sourceUrl: r.source_url,
    sourceId: r.source_id,
    sourceType: r.source_type,
    headline: r.headline,
    body: r.body,
    mediaType: r.media_type,
    imageUrl: r.image_url,
    videoUrl: r.video_url,
    thumbnailUrl: r.thumbnail_url,
    ctwaClid: r.ctwa_clid,
  });

const errorOf = (e: z.infer<typeof waError> | undefined): MessageContent['error'] =>
  e ? compact({ code: e.code, title: e.title, message: e.message, details: e.error_data?.details }) : undefined;

const contactCardOf = (c: z.infer<typeof waContactCard>): MessageContactCard => {
  const phones = (c.phones ?? []).filter((p) => p.phone || p.wa_id).map((p) => compact({ phone: (p.phone || p.wa_id) as string, waId: p.wa_id, type: p.type }));
  const name = c.name?.formatted_name || [c.name?.first_name, c.name?.last_name].filter(Boolean).join(' ') || phones[0]?.phone || 'Contacto';
  const emails = (c.emails ?? []).map((e) => e.email).filter((e): e is string => Boolean(e));
  return compact({ name, phones, emails: emails.length ? emails : undefined, org: c.org?.company });
};

function waInbound(m: z.infer<typeof waMessage>, contacts: z.infer<typeof waValue>['contacts']): InboundMessage {
  const contact = contacts?.find((c) => c.wa_id === m.from) ?? contacts?.[0];
  // what every kind may carry: the message it answers, and the ad the customer came from
  const common: MessageContent = compact({
    replyTo: m.context?.id ? { mid: m.context.id } : undefined,
    forwarded: m.context?.forwarded || m.context?.frequently_forwarded || undefined,
    referral: m.referral ? referralOfWa(m.referral) : undefined,
  });
  const base = { from: m.from, phone: m.from, name: contact?.profile?.name?.trim() || undefined, messageId: m.id, timestamp: isoOf(m.timestamp, 'seconds') };
  const withContent = (message: Omit<InboundMessage, keyof typeof base>, extra: MessageContent = {}): InboundMessage => {
    const content = compact({ ...common, ...extra });
    return { ...base, ...message, content: Object.keys(content).length ? content : undefined };
  };
  const media = (kind: ChatMessageKind, x: z.infer<typeof waMedia> | undefined, extra: MessageContent = {}) =>
    withContent({ kind, text: x?.caption, mediaId: x?.id, mediaUrl: x?.link, mimeType: x?.mime_type }, extra);
  switch (m.type) {
    case 'text':
      return withContent({ kind: m.referral && !m.text?.body ? 'referral' : 'text', text: m.text?.body ?? '' });
    case 'image':
      return media('image', m.image);
    case 'video':
      return media('video', m.video);
    case 'audio':
    case 'voice':
      return media('audio', m.audio ?? (m as { voice?: z.infer<typeof waMedia> }).voice, { voice: m.audio?.voice || m.type === 'voice' || undefined });
    case 'document':
      return media('document', m.document, { fileName: m.document?.filename });
    case 'sticker':
      return media('sticker', m.sticker, { animated: m.sticker?.animated || undefined });
    case 'button': {
      const title = m.button?.text ?? m.button?.payload ?? '';
      return withContent({ kind: 'interactive', text: title }, { interactive: compact({ type: 'button', title, payload: m.button?.payload }) });
    }
    case 'interactive': {
      const i = m.interactive;
      const reply = i?.button_reply ?? i?.list_reply;
      if (reply) {
        const title = reply.title ?? reply.id ?? '';
        const type = i?.button_reply ? 'button_reply' : 'list_reply';
        return withContent(
          { kind: 'interactive', text: title },
          { interactive: compact({ type, id: reply.id, title, description: (reply as { description?: string }).description }) },
        );
      }
      if (i?.nfm_reply) {
        const title = i.nfm_reply.body || i.nfm_reply.name || 'Formulario enviado';
        return withContent({ kind: 'interactive', text: title }, { interactive: compact({ type: 'nfm_reply', title, payload: i.nfm_reply.response_json }) });
      }
      return withContent({ kind: 'unsupported' }, { providerType: `interactive ${i?.type ?? ''}`.trim() });
    }
    case 'location': {
      const l = m.location;
      if (!l) return withContent({ kind: 'unsupported' }, { providerType: 'location' });
      return withContent({ kind: 'location' }, { location: compact({ latitude: l.latitude, longitude: l.longitude, name: l.name, address: l.address, url: l.url }) });
    }
    case 'contacts':
      return withContent({ kind: 'contacts' }, { contacts: (m.contacts ?? []).map(contactCardOf) });
    case 'reaction':
      return withContent({ kind: 'reaction' }, { reactionTo: { mid: m.reaction?.message_id ?? '', emoji: m.reaction?.emoji ?? '' } });
    case 'order': {
      const o = m.order;
      const items = (o?.product_items ?? []).map((i) => compact({ productRetailerId: i.product_retailer_id, quantity: i.quantity, itemPrice: i.item_price, currency: i.currency }));
      const priced = items.every((i) => typeof i.itemPrice === 'number');
      const total = priced && items.length ? Math.round(items.reduce((n, i) => n + (i.itemPrice ?? 0) * i.quantity, 0) * 100) / 100 : undefined;
      return withContent({ kind: 'order', text: o?.text }, { order: compact({ catalogId: o?.catalog_id, text: o?.text, items, total, currency: items[0]?.currency }) });
    }
    case 'system':
      return withContent(
        { kind: 'system', text: m.system?.body },
        { system: compact({ type: m.system?.type, body: m.system?.body, newWaId: m.system?.new_wa_id ?? m.system?.wa_id }) },
      );
    default:
      // unsupported (the provider says why in errors[]) or a type newer than this code
      return withContent({ kind: 'unsupported' }, { providerType: m.type, error: errorOf(m.errors?.[0]) });
  }
}

/** Events of a WhatsApp Cloud API webhook body (`object: whatsapp_business_account`). */
export function whatsappEvents(body: unknown): ProviderEvent[] {
  const parsed = waPayload.safeParse(body);
  if (!parsed.success) return [];
  const events: ProviderEvent[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field === 'message_template_status_update' && entry.id) {
        const t = waTemplateStatus.safeParse(change.value);
        if (!t.success) continue;
        events.push({
          provider: 'whatsapp',
          // the same template may go PAUSED → APPROVED → PAUSED: each change is its own event
          eventId: `template:${t.data.message_template_id}:${t.data.event}:${entry.time ?? ''}`,
          accountId: entry.id,
          type: 'template_status',
          data: compact({
            templateId: t.data.message_template_id,
            name: t.data.message_template_name,
            language: t.data.message_template_language,
            event: t.data.event,
            reason: t.data.reason ?? undefined,
          }),
        });
        continue;
      }
      if (change.field !== 'messages') continue;
      const value = waValue.safeParse(change.value);
      if (!value.success) continue;
      const accountId = value.data.metadata.phone_number_id;
      for (const item of value.data.messages ?? []) {
        const m = waMessage.safeParse(item);
        if (m.success) events.push({ provider: 'whatsapp', eventId: m.data.id, accountId, type: 'message', data: waInbound(m.data, value.data.contacts) });
        else events.push(otherEvent('whatsapp', accountId, item));
      }
      for (const item of value.data.statuses ?? []) {
        const s = waStatus.safeParse(item);
        if (!s.success) continue;
        const e = s.data.errors?.[0];
        events.push({
          provider: 'whatsapp',
          // one message has one event per status: sent, delivered, read are distinct events
          eventId: `${s.data.id}:${s.data.status}`,
          accountId,
          type: 'status',
          data: {
            messageId: s.data.id,
            status: s.data.status,
            timestamp: isoOf(s.data.timestamp, 'seconds'),
            recipientId: s.data.recipient_id,
            callbackData: s.data.biz_opaque_callback_data,
            // a known code reads as Spanish (error-reasons.ts), else the provider's own words
            error: e
              ? e.code !== undefined && graphErrorReason(e.code)
                ? reasonOf(e.code, '')
                : [...new Set([e.code, e.title, e.message, e.error_data?.details].filter(Boolean))].join(' · ')
              : undefined,
          },
        });
      }
    }
  }
  return events;
}

/** The kind of a Messenger/Instagram message by its first attachment that has one. */
const attachmentKind: Record<string, ChatMessageKind> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  file: 'document',
  story_mention: 'story',
  location: 'location',
};
const mediaAttachment = new Set(['image', 'video', 'audio', 'file', 'story_mention']);
const mAttachment = z.looseObject({
  type: z.string(),
  title: optStr,
  url: optStr,
  payload: z
    .looseObject({
      url: optStr,
      title: optStr,
      sticker_id: optStr,
      coordinates: z.looseObject({ lat: num, long: num }).optional().catch(undefined),
    })
    .nullish()
    .catch(undefined),
});
const mReferral = z.looseObject({
  ref: optStr,
  source: optStr,
  type: optStr,
  ad_id: optStr,
  ads_context_data: z.looseObject({ ad_title: optStr, photo_url: optStr, video_url: optStr, post_id: optStr, product_id: optStr }).optional().catch(undefined),
});
const mMessaging = z.looseObject({
  sender: z.looseObject({ id: str }),
  recipient: z.looseObject({ id: str }).optional(),
  timestamp: z.union([z.number(), z.string()]).optional(),
  message: z
    .looseObject({
      mid: z.string().min(1),
      text: z.string().optional().catch(undefined),
      is_echo: z.boolean().optional().catch(undefined),
      quick_reply: z.looseObject({ payload: optStr }).optional().catch(undefined),
      reply_to: z.looseObject({ mid: optStr, story: z.looseObject({ url: optStr, id: optStr }).optional().catch(undefined) }).optional().catch(undefined),
      attachments: z.array(z.unknown()).optional().catch(undefined),
      referral: mReferral.optional().catch(undefined),
      is_unsupported: z.boolean().optional().catch(undefined),
      is_deleted: z.boolean().optional().catch(undefined),
    })
    .optional(),
  postback: z.looseObject({ mid: optStr, title: optStr, payload: optStr, referral: mReferral.optional().catch(undefined) }).optional().catch(undefined),
  referral: mReferral.optional().catch(undefined),
  reaction: z.looseObject({ mid: optStr, action: optStr, reaction: optStr, emoji: optStr }).optional().catch(undefined),
  delivery: z.looseObject({ mids: z.array(z.string()).optional() }).optional(),
  read: z.looseObject({ watermark: z.union([z.number(), z.string()]) }).optional(),
});
const metaPayload = z.looseObject({
  object: z.enum(['page', 'instagram']),
  entry: z.array(
    z.looseObject({
      id: str,
      messaging: z.array(z.unknown()).default([]).catch([]),
      changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })).default([]).catch([]),
    }),
  ),
});
/** A `feed` change about a comment (Graph API Webhooks, Page feed). */
const feedComment = z.looseObject({
  item: z.literal('comment'),
  verb: z.enum(['add', 'edited', 'edit', 'remove', 'hide', 'unhide']),
  comment_id: str,
  post_id: str,
  parent_id: optStr,
  from: z.looseObject({ id: optStr, name: optStr }).optional().catch(undefined),
  message: optStr,
  created_time: z.union([z.number(), z.string()]).optional(),
  post: z.looseObject({ permalink_url: optStr }).optional().catch(undefined),
});

const referralOfMeta = (r: z.infer<typeof mReferral>): MessageReferral =>
  compact({
    ref: r.ref,
    source: r.source,
    type: r.type,
    adId: r.ad_id,
    headline: r.ads_context_data?.ad_title,
    imageUrl: r.ads_context_data?.photo_url,
    videoUrl: r.ads_context_data?.video_url,
    postId: r.ads_context_data?.post_id,
    productId: r.ads_context_data?.product_id,
  });

/** A Messenger/Instagram message: its text, every attachment, the reply, the quick reply, the ad. */
function metaInbound(m: z.infer<typeof mMessaging>, message: NonNullable<z.infer<typeof mMessaging>['message']>, timestamp: string): InboundMessage {
  const attachments = (message.attachments ?? []).flatMap((a) => {
    const r = mAttachment.safeParse(a);
    return r.success ? [r.data] : [];
  });
  const first = attachments.find((a) => attachmentKind[a.type]) ?? attachments[0];
  const sticker = first?.type === 'image' && first.payload?.sticker_id;
  const kind: ChatMessageKind = message.is_unsupported ? 'unsupported' : first ? (sticker ? 'sticker' : (attachmentKind[first.type] ?? 'text')) : 'text';
  const media = attachments.find((a) => mediaAttachment.has(a.type) && a.payload?.url);
  const coordinates = attachments.find((a) => a.type === 'location')?.payload?.coordinates;
  const locationAttachment = attachments.find((a) => a.type === 'location');
  const story = message.reply_to?.story
    ? { type: 'reply' as const, url: message.reply_to.story.url, id: message.reply_to.story.id }
    : first?.type === 'story_mention'
      ? { type: 'mention' as const, url: first.payload?.url }
      : undefined;
  const content = compact<MessageContent>({
    replyTo: message.reply_to?.mid ? { mid: message.reply_to.mid } : undefined,
    attachments: attachments.length ? attachments.map((a) => compact({ type: a.type, url: a.payload?.url ?? a.url, title: a.payload?.title ?? a.title })) : undefined,
    interactive: message.quick_reply?.payload ? { type: 'quick_reply', title: message.text ?? message.quick_reply.payload, payload: message.quick_reply.payload } : undefined,
    referral: message.referral ? referralOfMeta(message.referral) : undefined,
    story: story ? compact(story) : undefined,
    location: coordinates
      ? compact({ latitude: coordinates.lat, longitude: coordinates.long, name: locationAttachment?.payload?.title ?? locationAttachment?.title, url: locationAttachment?.url })
      : undefined,
    error: message.is_unsupported ? { message: 'Meta no entrega el contenido de este mensaje' } : undefined,
  });
  return {
    from: m.sender.id,
    messageId: message.mid,
    timestamp,
    kind: kind === 'text' && story ? 'story' : kind === 'text' && message.quick_reply?.payload ? 'interactive' : kind === 'location' && !coordinates ? 'text' : kind,
    text: message.text,
    mediaUrl: media?.payload?.url,
    content: Object.keys(content).length ? content : undefined,
    // the page's own messages come back as echoes: the send path stores them
    ignore: message.is_echo ? 'eco de un mensaje de la página' : undefined,
  };
}

/** Events of a Messenger Platform webhook body (`object: page` Messenger, `instagram` Instagram). */
export function metaEvents(body: unknown): ProviderEvent[] {
  const parsed = metaPayload.safeParse(body);
  if (!parsed.success) return [];
  const provider: Provider = parsed.data.object === 'page' ? 'messenger' : 'instagram';
  const events: ProviderEvent[] = [];
  const hash = (item: unknown) => createHash('sha256').update(JSON.stringify(item)).digest('hex');
  for (const entry of parsed.data.entry) {
    // the page's feed: comments on its posts and ads (decision 0049); likes, shares and the
    // page's other feed activity are not kept (nothing in the product uses them)
    for (const change of parsed.data.object === 'page' ? entry.changes : []) {
      if (change.field !== 'feed') continue;
      const c = feedComment.safeParse(change.value);
      if (!c.success) continue;
      const v = c.data;
      const verb = v.verb === 'remove' || v.verb === 'hide' ? 'remove' : v.verb === 'add' || v.verb === 'unhide' ? 'add' : 'edited';
      const createdTime = typeof v.created_time === 'string' && !/^\d+$/.test(v.created_time) ? new Date(v.created_time) : undefined;
      const data: PageComment = compact({
        verb,
        commentId: v.comment_id,
        postId: v.post_id,
        parentId: v.parent_id,
        fromId: v.from?.id,
        fromName: v.from?.name?.trim() || undefined,
        message: v.message,
        createdTime: createdTime && !Number.isNaN(createdTime.getTime()) ? createdTime.toISOString() : isoOf(v.created_time as number | string | undefined, 'seconds'),
        permalinkUrl: v.post?.permalink_url,
      });
      // one event per comment and verb; an edit is an event per new text
      const eventId = verb === 'edited' ? `comment:${v.comment_id}:edited:${hash(v.message ?? '')}` : `comment:${v.comment_id}:${verb}`;
      events.push({ provider, eventId, accountId: entry.id, type: 'comment', data });
    }
    for (const item of entry.messaging) {
      const r = mMessaging.safeParse(item);
      if (!r.success) {
        events.push(otherEvent(provider, entry.id, item));
        continue;
      }
      const m = r.data;
      const timestamp = isoOf(m.timestamp, 'milliseconds');
      const message = (data: InboundMessage, eventId = data.messageId) => events.push({ provider, eventId, accountId: entry.id, type: 'message', data });
      if (m.message?.is_deleted) {
        // its own event id: the message's mid is already the event that brought it
        message({ from: m.sender.id, messageId: m.message.mid, timestamp, kind: 'text', unsent: true }, `unsent:${m.message.mid}`);
      } else if (m.message) {
        message(metaInbound(m, m.message, timestamp));
      } else if (m.postback) {
        // a tap on a button of the page: its title is what the person "said"
        const title = m.postback.title || m.postback.payload || 'Botón';
        const messageId = m.postback.mid || `postback:${hash(item)}`;
        const referral = m.postback.referral ? referralOfMeta(m.postback.referral) : undefined;
        message({
          from: m.sender.id,
          messageId,
          timestamp,
          kind: 'interactive',
          text: title,
          content: compact({ interactive: compact({ type: 'postback', title, payload: m.postback.payload }), referral }),
        });
      } else if (m.referral) {
        // the person opened the conversation from an ad (or a link) without writing yet
        const messageId = `referral:${hash(item)}`;
        message({ from: m.sender.id, messageId, timestamp, kind: 'referral', content: { referral: referralOfMeta(m.referral) } });
      } else if (m.reaction?.mid) {
        const emoji = m.reaction.action === 'unreact' ? '' : (m.reaction.emoji ?? m.reaction.reaction ?? '');
        const messageId = `reaction:${hash(item)}`;
        message({ from: m.sender.id, messageId, timestamp, kind: 'reaction', content: { reactionTo: { mid: m.reaction.mid, emoji } } });
      } else if (m.delivery?.mids?.length) {
        for (const mid of m.delivery.mids) {
          events.push({ provider, eventId: `${mid}:delivered`, accountId: entry.id, type: 'status', data: { messageId: mid, status: 'delivered', timestamp } });
        }
      } else if (m.read) {
        // one receipt per person and watermark: a replay is the same event
        const watermark = isoOf(m.read.watermark, 'milliseconds');
        events.push({ provider, eventId: `read:${m.sender.id}:${watermark}`, accountId: entry.id, type: 'read', data: { from: m.sender.id, watermark } });
      } else {
        // optins, handovers…: kept once (by content), nothing done yet
        events.push(otherEvent(provider, entry.id, item));
      }
    }
  }
  return events;
}
