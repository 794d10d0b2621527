import { createHmac } from 'node:crypto';
import type { TestApp } from '../helpers.js';

/**
 * A fake of Meta's side of the webhooks (WhatsApp Cloud API, Messenger Platform): builds
 * payloads in the providers' documented shapes and delivers them signed with the app secret,
 * as Meta does. Tests never reach the internet.
 */
export const DEMO_APP_SECRET = 'mostrador-demo-app-secret';
export const DEMO_VERIFY_TOKEN = 'mostrador-demo-verify-token';

export const sign = (body: string, secret = DEMO_APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

let seq = 0;
export const wamid = () => `wamid.HBgLNTE5ODc2NTQzMjEVAgASGBQz${Date.now().toString(36)}${(seq++).toString(36)}`.toUpperCase();
export const mid = () => `m_${Date.now().toString(36)}${(seq++).toString(36)}`;

const unix = (at: Date) => String(Math.floor(at.getTime() / 1000));

export interface WaText {
  phoneNumberId: string;
  from: string;
  name?: string;
  id?: string;
  text?: string;
  at?: Date;
}

/** A WhatsApp Cloud API `messages` webhook with one text message. */
export function whatsappText({ phoneNumberId, from, name = 'Cliente', id = wamid(), text = 'Hola', at = new Date() }: WaText) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '51987000000', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name }, wa_id: from }],
              messages: [{ from, id, timestamp: unix(at), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  };
}

/** A WhatsApp Cloud API `messages` webhook with one image. */
export function whatsappImage({ phoneNumberId, from, id = wamid(), caption }: { phoneNumberId: string; from: string; id?: string; caption?: string }) {
  const body = whatsappText({ phoneNumberId, from, id });
  const value = body.entry[0].changes[0].value as Record<string, unknown>;
  value.messages = [{ from, id, timestamp: unix(new Date()), type: 'image', image: { id: '1479537139650973', mime_type: 'image/jpeg', sha256: 'abc', caption } }];
  return body;
}

/** A WhatsApp Cloud API status webhook (sent, delivered, read, failed) of a message the business sent. */
export function whatsappStatus({ phoneNumberId, id, status, recipient = '51987654321' }: { phoneNumberId: string; id: string; status: string; recipient?: string }) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '51987000000', phone_number_id: phoneNumberId },
              statuses: [
                {
                  id,
                  status,
                  timestamp: unix(new Date()),
                  recipient_id: recipient,
                  ...(status === 'failed' ? { errors: [{ code: 131047, title: 'Re-engagement message', message: 'Más de 24 horas desde la última respuesta' }] } : {}),
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

/** A Messenger (`page`) or Instagram (`instagram`) webhook with one message. */
export function metaMessage({
  object = 'page',
  pageId,
  sender,
  id = mid(),
  text,
  attachment,
}: {
  object?: 'page' | 'instagram';
  pageId: string;
  sender: string;
  id?: string;
  text?: string;
  attachment?: { type: string; url: string };
}) {
  const now = Date.now();
  return {
    object,
    entry: [
      {
        id: pageId,
        time: now,
        messaging: [
          {
            sender: { id: sender },
            recipient: { id: pageId },
            timestamp: now,
            message: { mid: id, ...(text ? { text } : {}), ...(attachment ? { attachments: [{ type: attachment.type, payload: { url: attachment.url } }] } : {}) },
          },
        ],
      },
    ],
  };
}

/** Delivers a payload to a webhook path as Meta does: raw JSON, signed (or tampered / unsigned). */
export function deliver(
  t: TestApp,
  path: '/api/webhooks/whatsapp' | '/api/webhooks/meta',
  payload: object,
  { signature, secret }: { signature?: string | null; secret?: string } = {},
) {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const sig = signature === undefined ? sign(body, secret) : signature;
  if (sig !== null) headers['x-hub-signature-256'] = sig;
  return t.app.inject({ method: 'POST', url: path, headers, payload: body });
}
