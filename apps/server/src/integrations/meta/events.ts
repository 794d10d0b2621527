import { createHash } from 'node:crypto';
import type { ChatMessageKind } from '@mostrador/contract';
import { z } from 'zod';

/**
 * Webhook payloads of the WhatsApp Cloud API and of the Messenger Platform (Messenger and
 * Instagram), turned into one event per provider item: each inbound message, each status
 * change. Only the fields the product uses are read; unknown fields pass, malformed items are
 * skipped (the payload is signed by Meta, so a strange item is a new feature, not an attack).
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
  /** A reaction, an echo of the page's own message…: stored, no effect. */
  ignore?: string;
}

export interface StatusUpdate {
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: string;
  recipientId?: string;
  error?: string;
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
  | { type: 'other'; data: { raw: unknown } }
);

const str = z.union([z.string(), z.number()]).transform(String);
const isoOf = (value: string | number | undefined, unit: 'seconds' | 'milliseconds') => {
  const n = Number(value);
  const date = Number.isFinite(n) && n > 0 ? new Date(unit === 'seconds' ? n * 1000 : n) : new Date();
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
};

const waMedia = z.looseObject({ id: str.optional(), mime_type: z.string().optional(), caption: z.string().optional(), link: z.string().optional() });
const waMessage = z.looseObject({
  from: str,
  id: z.string().min(1),
  timestamp: str.optional(),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  image: waMedia.optional(),
  video: waMedia.optional(),
  audio: waMedia.optional(),
  document: waMedia.extend({ filename: z.string().optional() }).optional(),
  sticker: waMedia.optional(),
  button: z.looseObject({ text: z.string().optional() }).optional(),
  interactive: z
    .looseObject({
      button_reply: z.looseObject({ title: z.string().optional() }).optional(),
      list_reply: z.looseObject({ title: z.string().optional() }).optional(),
    })
    .optional(),
  location: z.looseObject({ latitude: z.number().optional(), longitude: z.number().optional(), name: z.string().optional() }).optional(),
});
const waStatus = z.looseObject({
  id: z.string().min(1),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  timestamp: str.optional(),
  recipient_id: str.optional(),
  errors: z.array(z.looseObject({ code: z.number().optional(), title: z.string().optional(), message: z.string().optional() })).optional(),
});
const waValue = z.looseObject({
  metadata: z.looseObject({ phone_number_id: str, display_phone_number: z.string().optional() }),
  contacts: z.array(z.looseObject({ wa_id: str.optional(), profile: z.looseObject({ name: z.string().optional() }).optional() })).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});
const waPayload = z.looseObject({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(z.looseObject({ changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })).default([]) })),
});

function waInbound(m: z.infer<typeof waMessage>, contacts: z.infer<typeof waValue>['contacts']): InboundMessage {
  const contact = contacts?.find((c) => c.wa_id === m.from) ?? contacts?.[0];
  const base = { from: m.from, phone: m.from, name: contact?.profile?.name?.trim() || undefined, messageId: m.id, timestamp: isoOf(m.timestamp, 'seconds') };
  const media = (kind: ChatMessageKind, x: z.infer<typeof waMedia> | undefined) => ({
    ...base,
    kind,
    text: x?.caption,
    mediaId: x?.id,
    mediaUrl: x?.link,
    mimeType: x?.mime_type,
  });
  switch (m.type) {
    case 'text':
      return { ...base, kind: 'text', text: m.text?.body ?? '' };
    case 'image':
      return media('image', m.image);
    case 'video':
      return media('video', m.video);
    case 'audio':
      return media('audio', m.audio);
    case 'document':
      return { ...media('document', m.document), text: m.document?.caption ?? m.document?.filename };
    case 'sticker':
      return media('image', m.sticker);
    case 'button':
      return { ...base, kind: 'text', text: m.button?.text ?? '' };
    case 'interactive':
      return { ...base, kind: 'text', text: m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title ?? '' };
    case 'location': {
      const l = m.location;
      return { ...base, kind: 'text', text: `Ubicación: ${l?.latitude ?? '?'}, ${l?.longitude ?? '?'}${l?.name ? ` (${l.name})` : ''}` };
    }
    case 'reaction':
      return { ...base, kind: 'text', ignore: 'reacción' };
    default:
      return { ...base, kind: 'text', text: `[Mensaje de tipo ${m.type} no soportado]` };
  }
}

/** Events of a WhatsApp Cloud API webhook body (`object: whatsapp_business_account`). */
export function whatsappEvents(body: unknown): ProviderEvent[] {
  const parsed = waPayload.safeParse(body);
  if (!parsed.success) return [];
  const events: ProviderEvent[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      const value = waValue.safeParse(change.value);
      if (!value.success) continue;
      const accountId = value.data.metadata.phone_number_id;
      for (const item of value.data.messages ?? []) {
        const m = waMessage.safeParse(item);
        if (m.success) events.push({ provider: 'whatsapp', eventId: m.data.id, accountId, type: 'message', data: waInbound(m.data, value.data.contacts) });
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
            error: e ? [e.code, e.title, e.message].filter(Boolean).join(' · ') : undefined,
          },
        });
      }
    }
  }
  return events;
}

const attachmentKind: Record<string, ChatMessageKind> = { image: 'image', video: 'video', audio: 'audio', file: 'document' };
const mMessaging = z.looseObject({
  sender: z.looseObject({ id: str }),
  recipient: z.looseObject({ id: str }).optional(),
  timestamp: z.union([z.number(), z.string()]).optional(),
  message: z
    .looseObject({
      mid: z.string().min(1),
      text: z.string().optional(),
      is_echo: z.boolean().optional(),
      attachments: z.array(z.looseObject({ type: z.string(), payload: z.looseObject({ url: z.string().optional() }).nullish() })).optional(),
    })
    .optional(),
  delivery: z.looseObject({ mids: z.array(z.string()).optional() }).optional(),
  read: z.looseObject({ watermark: z.union([z.number(), z.string()]) }).optional(),
});
const metaPayload = z.looseObject({
  object: z.enum(['page', 'instagram']),
  entry: z.array(z.looseObject({ id: str, messaging: z.array(z.unknown()).default([]) })),
});

/** Events of a Messenger Platform webhook body (`object: page` Messenger, `instagram` Instagram). */
export function metaEvents(body: unknown): ProviderEvent[] {
  const parsed = metaPayload.safeParse(body);
  if (!parsed.success) return [];
  const provider: Provider = parsed.data.object === 'page' ? 'messenger' : 'instagram';
  const events: ProviderEvent[] = [];
  for (const entry of parsed.data.entry) {
    for (const item of entry.messaging) {
      const r = mMessaging.safeParse(item);
      if (!r.success) continue;
      const m = r.data;
      const timestamp = isoOf(m.timestamp, 'milliseconds');
      if (m.message) {
        const attachment = m.message.attachments?.find((a) => attachmentKind[a.type]) ?? m.message.attachments?.[0];
        const kind = attachment ? (attachmentKind[attachment.type] ?? 'text') : 'text';
        events.push({
          provider,
          eventId: m.message.mid,
          accountId: entry.id,
          type: 'message',
          data: {
            from: m.sender.id,
            messageId: m.message.mid,
            timestamp,
            kind,
            text: m.message.text ?? (attachment && kind === 'text' ? `[Adjunto de tipo ${attachment.type}]` : undefined),
            mediaUrl: kind === 'text' ? undefined : (attachment?.payload?.url ?? undefined),
            // the page's own messages come back as echoes: the send path stores them
            ignore: m.message.is_echo ? 'eco de un mensaje de la página' : undefined,
          },
        });
      } else if (m.delivery?.mids?.length) {
        for (const mid of m.delivery.mids) {
          events.push({ provider, eventId: `${mid}:delivered`, accountId: entry.id, type: 'status', data: { messageId: mid, status: 'delivered', timestamp } });
        }
      } else if (m.read) {
        // one receipt per person and watermark: a replay is the same event
        const watermark = isoOf(m.read.watermark, 'milliseconds');
        events.push({ provider, eventId: `read:${m.sender.id}:${watermark}`, accountId: entry.id, type: 'read', data: { from: m.sender.id, watermark } });
      } else {
        // postbacks, referrals…: kept once (by content), nothing done yet
        const eventId = `other:${createHash('sha256').update(JSON.stringify(item)).digest('hex')}`;
        events.push({ provider, eventId, accountId: entry.id, type: 'other', data: { raw: item } });
      }
    }
  }
  return events;
}
