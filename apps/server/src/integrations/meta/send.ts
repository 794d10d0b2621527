import { type ChannelKind, type ChatProductsContent, type MessagingTier, messagingTiers, type OutboundMessageKind } from '@mostrador/contract';
import { sanitizeJson } from '../../lib/third-party-text.js';
import { reasonOf } from './error-reasons.js';
import { whatsappChoicesInteractive } from './interactive.js';
import { messengerProductMessage, whatsappProductInteractive } from './products.js';

/**
 * Outbound messages through Meta's Graph API (issue 4 "Chat", decision 0014):
 *
 * - WhatsApp Cloud API: `POST {GRAPH_API_URL}/{phone-number-id}/messages` with
 *   `{messaging_product:'whatsapp', recipient_type:'individual', to, type, text|image|video|audio|document}`,
 *   answering `{messages:[{id:'wamid…'}]}`.
 * - Messenger and Instagram (Messenger Platform Send API): `POST {GRAPH_API_URL}/{page-id}/messages`
 *   with `{recipient:{id}, messaging_type:'RESPONSE', message:{text}|{attachment}}`, answering
 *   `{recipient_id, message_id}`.
 * - Media of inbound WhatsApp messages: `GET {GRAPH_API_URL}/{media-id}` → `{url, mime_type}`,
 *   then `GET url`, both with the channel's bearer token.
 *
 * Errors come back as `{error:{message, type, code, error_subcode, error_user_msg?}}`: they
 * become a ProviderError whose `reason` is Spanish-prefixed text kept as the message's
 * statusError.
 */

/** What to send: text, or media by link with an optional caption (SPEC §5 kinds). */
export interface OutboundContent {
  kind: OutboundMessageKind;
  text?: string;
  mediaUrl?: string;
  /** A document's name as WhatsApp shows it, when the link's last segment is not the name (a signed link of Drive's bucket). */
  fileName?: string;
  /** WhatsApp only: an approved template (`type: template`); `text` is then its rendered copy, never sent (decision 0038). */
  template?: TemplatePayload;
  /** WhatsApp: `biz_opaque_callback_data`, echoed in the message's status webhooks (the outbox id; decision 0041). */
  callbackData?: string;
  /** Products from the chat (decision 0085): WhatsApp `interactive` product / product_list, a Messenger/Instagram generic template; `text` is its body. */
  products?: ChatProductsContent;
  /** WhatsApp reply buttons (at most 3) or a list (at most 10 rows) — a CSAT survey (decision 0100); `text` is its body. */
  choices?: OutboundChoices;
}

/** What the customer may tap: each option's id comes back in the button_reply / list_reply webhook. */
export interface OutboundChoices {
  style: 'buttons' | 'list';
  options: Array<{ id: string; title: string }>;
  /** The list's button (≤ 20 characters). */
  button?: string;
}

/** The `template` object of a Cloud API send: name, language code and the components' parameters. */
export interface TemplatePayload {
  name: string;
  language: { code: string };
  components?: Array<{ type: 'header' | 'body' | 'button'; sub_type?: string; index?: string; parameters: object[] }>;
}

/** Where to send it: the company's channel and the person on it. */
export interface SendTarget {
  channel: ChannelKind;
  /** WhatsApp: the phone number id; Messenger and Instagram: the page id. */
  accountId: string;
  /** The channel's access token, opened from its sealed value (absent: sandbox only). */
  accessToken?: string;
  /** WhatsApp wa_id, Messenger PSID, Instagram IGSID. */
  to: string;
}

/** A status the provider will report later (the sandbox says which; Meta sends webhooks). */
export interface FollowUpStatus {
  status: 'delivered' | 'read' | 'failed';
  afterSeconds: number;
  error?: string;
}

export interface SendResult {
  /** The provider's message id (wamid, mid). */
  messageId: string;
  followUps?: FollowUpStatus[];
}

export interface MediaDownload {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  contentLength?: string;
}

/** A channel client: the Graph API one below, or the sandbox (integrations/sandbox/send.ts). */
export interface MessageClient {
  readonly name: 'graph' | 'sandbox';
  send(target: SendTarget, content: OutboundContent): Promise<SendResult>;
  media(accessToken: string | undefined, mediaId: string): Promise<MediaDownload>;
  /**
   * The messaging limit of the line's business portfolio (unique people reached outside their
   * window per moving 24 h): Meta's `whatsapp_business_manager_messaging_limit` of the phone
   * number; null when Meta does not say.
   */
  messagingLimit(target: { accountId: string; accessToken?: string }): Promise<MessagingTier | null>;
}

/** Meta's tier words, old and new, to the tiers we show (TIER_1K was the old second tier, now 2K). */
export function messagingTierOf(value: unknown): MessagingTier | null {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).max_daily_conversations_per_business ?? (value as Record<string, unknown>).tier : value;
  if (typeof v === 'number') return v < 0 ? 'TIER_UNLIMITED' : v >= 100_000 ? 'TIER_100K' : v >= 10_000 ? 'TIER_10K' : v >= 1000 ? 'TIER_2K' : 'TIER_250';
  if (typeof v !== 'string') return null;
  const word = v.toUpperCase();
  if ((messagingTiers as readonly string[]).includes(word)) return word as MessagingTier;
  if (word === 'TIER_1K') return 'TIER_2K';
  if (word === 'TIER_50') return 'TIER_250';
  if (word === 'UNLIMITED') return 'TIER_UNLIMITED';
  return null;
}

/** The provider refused or could not be reached. `reason` is the Spanish text users read. */
export class ProviderError extends Error {
  constructor(
    readonly reason: string,
    readonly details: { httpStatus?: number; code?: number; subcode?: number; notFound?: boolean; messageId?: string; type?: string; fbtraceId?: string } = {},
  ) {
    super(reason);
  }
}

const TIMEOUT_MS = 20_000;
const hasLink = (text: string) => /https?:\/\/\S/i.test(text);

/** A document's file name as WhatsApp shows it: the link's last path segment. */
function fileNameOf(link: string): string | undefined {
  try {
    const last = decodeURIComponent(new URL(link).pathname.split('/').pop() ?? '');
    return /\.[a-z0-9]{1,5}$/i.test(last) ? last.slice(0, 240) : undefined;
  } catch {
    return undefined;
  }
}

/** The Graph API request bodies of one message: a second one carries a caption the first kind cannot. */
export function whatsappBodies(to: string, content: OutboundContent): object[] {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...(content.callbackData ? { biz_opaque_callback_data: content.callbackData } : {}) };
  if (content.template) return [{ ...base, type: 'template', template: content.template }];
  if (content.products) return [{ ...base, type: 'interactive', interactive: whatsappProductInteractive(content.products, content.text) }];
  if (content.choices) return [{ ...base, type: 'interactive', interactive: whatsappChoicesInteractive(content.choices, content.text ?? '') }];
  const textBody = (body: string) => ({ ...base, type: 'text', text: { body, preview_url: hasLink(body) } });
  if (content.kind === 'text') return [textBody(content.text ?? '')];
  const caption = content.text?.trim() || undefined;
  // WhatsApp audio has no caption: the text goes as its own message after it
  if (content.kind === 'audio') {
    return [{ ...base, type: 'audio', audio: { link: content.mediaUrl } }, ...(caption ? [textBody(caption)] : [])];
  }
  const filename = content.kind === 'document' && content.mediaUrl ? (content.fileName?.slice(0, 240) ?? fileNameOf(content.mediaUrl)) : undefined;
  const media = { link: content.mediaUrl, ...(caption ? { caption } : {}), ...(filename ? { filename } : {}) };
  return [{ ...base, type: content.kind, [content.kind]: media }];
}

/** Messenger/Instagram attachments carry no caption: the text goes as its own message after it. */
export function messengerBodies(to: string, content: OutboundContent): object[] {
  const base = { recipient: { id: to }, messaging_type: 'RESPONSE' };
  if (content.products) {
    const intro = content.text?.trim();
    return [{ ...base, message: messengerProductMessage(content.products) }, ...(intro ? [{ ...base, message: { text: intro } }] : [])];
  }
  if (content.kind === 'text') return [{ ...base, message: { text: content.text ?? '' } }];
  const type = content.kind === 'document' ? 'file' : content.kind;
  const caption = content.text?.trim();
  return [
    { ...base, message: { attachment: { type, payload: { url: content.mediaUrl, is_reusable: true } } } },
    ...(caption ? [{ ...base, message: { text: caption } }] : []),
  ];
}

type GraphErrorBody = { error?: { message?: string; error_user_msg?: string; code?: number; error_subcode?: number; type?: string; fbtrace_id?: string } };

export function graphFailure(httpStatus: number, body: unknown, prefix: string): ProviderError {
  const e = (body as GraphErrorBody | undefined)?.error;
  const text = (e?.error_user_msg || e?.message || `HTTP ${httpStatus}`).replace(/\s+/g, ' ').trim().slice(0, 500);
  const code = typeof e?.code === 'number' ? e.code : undefined;
  const subcode = typeof e?.error_subcode === 'number' ? e.error_subcode : undefined;
  // code 100 / subcode 33: the object (a media id) does not exist or is no longer readable
  const notFound = httpStatus === 404 || (code === 100 && subcode === 33);
  // a known code reads as Spanish (integrations/meta/error-reasons.ts), else the provider's words
  const type = typeof e?.type === 'string' ? e.type.slice(0, 100) : undefined;
  const fbtraceId = typeof e?.fbtrace_id === 'string' ? e.fbtrace_id.slice(0, 100) : undefined;
  return new ProviderError(reasonOf(code, text, subcode, prefix), { httpStatus, code, subcode, notFound, ...(type ? { type } : {}), ...(fbtraceId ? { fbtraceId } : {}) });
}

async function request(url: string, accessToken: string, init: { method: 'GET' | 'POST' | 'DELETE'; body?: object }): Promise<Response> {
  try {
    return await fetch(url, {
      method: init.method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'follow',
    });
  } catch (error) {
    const cause = error instanceof Error && error.name === 'TimeoutError' ? 'no respondió a tiempo' : error instanceof Error ? error.message : String(error);
    throw new ProviderError(`No se pudo conectar con Meta: ${cause}`);
  }
}

export async function graphJson<T>(url: string, accessToken: string, init: { method: 'GET' | 'POST' | 'DELETE'; body?: object }, prefix = 'Meta rechazó el mensaje'): Promise<T> {
  const res = await request(url, accessToken, init);
  const text = await res.text();
  let body: unknown;
  try {
    // the provider's text reaches messages and errors: storable (no NUL, no lone surrogate)
    body = text ? sanitizeJson(JSON.parse(text)) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok || (body as GraphErrorBody | undefined)?.error) throw graphFailure(res.status, body, prefix);
  return body as T;
}

/** The Graph API client. `baseUrl` includes the version (https://graph.facebook.com/v21.0). */
export function createGraphClient(baseUrl: string): MessageClient {
  const base = baseUrl.replace(/\/+$/, '');
  const enc = encodeURIComponent;

  async function sendAll(url: string, accessToken: string, bodies: object[], idOf: (body: unknown) => string | undefined): Promise<SendResult> {
    let first: string | undefined;
    for (const [i, body] of bodies.entries()) {
      try {
        const id = idOf(await graphJson<unknown>(url, accessToken, { method: 'POST', body }));
        if (!id) throw new ProviderError('Meta aceptó el envío pero no devolvió el id del mensaje');
        first ??= id;
      } catch (error) {
        // the file went out, its caption did not: the message keeps the file's id
        if (i > 0 && error instanceof ProviderError) {
          throw new ProviderError(`Se envió el archivo, pero no el texto. ${error.reason}`, { ...error.details, messageId: first });
        }
        throw error;
      }
    }
    return { messageId: first as string };
  }

  return {
    name: 'graph',
    async messagingLimit(target) {
      if (!target.accessToken) throw new ProviderError('El canal no tiene token de acceso');
      const body = await graphJson<Record<string, unknown>>(`${base}/${enc(target.accountId)}?fields=whatsapp_business_manager_messaging_limit`, target.accessToken, { method: 'GET' }, 'Meta no dio el límite diario de la línea');
      return messagingTierOf(body.whatsapp_business_manager_messaging_limit);
    },
    async send(target, content) {
      if (!target.accessToken) throw new ProviderError('El canal no tiene token de acceso');
      if (target.channel === 'whatsapp') {
        return sendAll(`${base}/${enc(target.accountId)}/messages`, target.accessToken, whatsappBodies(target.to, content), (b) => {
          const id = (b as { messages?: Array<{ id?: string }> } | undefined)?.messages?.[0]?.id;
          return typeof id === 'string' ? id : undefined;
        });
      }
      return sendAll(`${base}/${enc(target.accountId)}/messages`, target.accessToken, messengerBodies(target.to, content), (b) => {
        const id = (b as { message_id?: string } | undefined)?.message_id;
        return typeof id === 'string' ? id : undefined;
      });
    },
    async media(accessToken, mediaId) {
      if (!accessToken) throw new ProviderError('El canal no tiene token de acceso');
      const info = await graphJson<{ url?: string; mime_type?: string }>(`${base}/${enc(mediaId)}`, accessToken, { method: 'GET' }, 'Meta no entregó el archivo');
      if (!info?.url) throw new ProviderError('Meta no devolvió el enlace del archivo', { notFound: true });
      // the download link (lookaside.fbsbx.com) needs the same bearer token; it expires in minutes
      const res = await request(info.url, accessToken, { method: 'GET' });
      if (!res.ok || !res.body) {
        await res.body?.cancel().catch(() => {});
        throw new ProviderError(`Meta no entregó el archivo (HTTP ${res.status})`, { httpStatus: res.status, notFound: res.status === 404 });
      }
      return {
        body: res.body,
        contentType: info.mime_type || res.headers.get('content-type') || 'application/octet-stream',
        contentLength: res.headers.get('content-length') ?? undefined,
      };
    },
  };
}
