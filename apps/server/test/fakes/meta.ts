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

/** The envelope of a WhatsApp Cloud API `messages` webhook: one line, one sender, these messages. */
export function whatsappEnvelope(phoneNumberId: string, from: string, name: string, messages: object[]) {
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
              messages,
            },
          },
        ],
      },
    ],
  };
}

/** A WhatsApp Cloud API `messages` webhook with one text message. */
export function whatsappText({ phoneNumberId, from, name = 'Cliente', id = wamid(), text = 'Hola', at = new Date() }: WaText) {
  return whatsappEnvelope(phoneNumberId, from, name, [{ from, id, timestamp: unix(at), type: 'text', text: { body: text } }]);
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

/** One request the fake Graph API received. */
export interface GraphRequest {
  method: string;
  /** Path and query, e.g. /v21.0/109000000000001/messages. */
  path: string;
  authorization?: string;
  body?: unknown;
}

export interface FakeGraph {
  /** GRAPH_API_URL for the app under test: http://127.0.0.1:<port>/v21.0 */
  url: string;
  requests: GraphRequest[];
  /** Media the fake serves: GET /v21.0/{media-id} → {url}, GET url → the bytes. */
  media: Map<string, { bytes: Buffer; mimeType: string }>;
  /** The next POST …/messages answers this Graph error (status and body) instead of accepting. */
  failNext(status: number, error: { message: string; type?: string; code?: number; error_subcode?: number }): void;
  close(): Promise<void>;
}

/**
 * A fake of Meta's Graph API on 127.0.0.1 (tests never reach the internet), answering in the
 * documented shapes: the WhatsApp Cloud API (`POST /{phone-number-id}/messages` →
 * `{messaging_product, contacts, messages:[{id}]}`), the Messenger Send API (`POST
 * /{page-id}/messages` → `{recipient_id, message_id}`), media (`GET /{media-id}` →
 * `{url, mime_type, …}`, then the bytes at that url) and errors (`{error:{message, type,
 * code, error_subcode, fbtrace_id}}`). Every call must carry `Authorization: Bearer <token>`.
 */
/** More of the Graph API on the same fake (fakes/meta-templates.ts): answers and returns true when the call is its. */
export type FakeGraphRoute = (
  call: { method: string; path: string; body: unknown; headers: Record<string, string | string[] | undefined> },
  answer: { json: (status: number, value: object) => void; graphError: (status: number, error: object) => void },
) => boolean;

export async function startFakeGraph(token: string, extra?: FakeGraphRoute): Promise<FakeGraph> {
  const { createServer } = await import('node:http');
  const requests: GraphRequest[] = [];
  const media = new Map<string, { bytes: Buffer; mimeType: string }>();
  const failures: Array<{ status: number; error: object }> = [];
  let origin = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? 'GET', path, authorization: req.headers.authorization, body });
      const json = (status: number, value: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const graphError = (status: number, error: object) => json(status, { error: { type: 'OAuthException', fbtrace_id: 'AbCdEfGh123', ...error } });
      // the extra routes check the token themselves (an upload session takes `OAuth <token>`)
      if (extra?.({ method: req.method ?? 'GET', path, body, headers: req.headers }, { json, graphError })) return;
      if (req.headers.authorization !== `Bearer ${token}`) {
        return graphError(401, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
      }
      const download = path.match(/^\/lookaside\/([^/?]+)/);
      if (req.method === 'GET' && download) {
        const m = media.get(decodeURIComponent(download[1]));
        if (!m) return graphError(404, { message: 'Not found', code: 100 });
        res.writeHead(200, { 'content-type': m.mimeType, 'content-length': String(m.bytes.length) });
        return res.end(m.bytes);
      }
      const send = path.match(/^\/v21\.0\/(\d+)\/messages$/);
      if (req.method === 'POST' && send) {
        const failure = failures.shift();
        if (failure) return graphError(failure.status, failure.error);
        const b = body as { messaging_product?: string; to?: string; recipient?: { id?: string } };
        if (b?.messaging_product === 'whatsapp') {
          return json(200, { messaging_product: 'whatsapp', contacts: [{ input: b.to, wa_id: b.to }], messages: [{ id: wamid() }] });
        }
        return json(200, { recipient_id: b?.recipient?.id, message_id: mid() });
      }
      const object = path.match(/^\/v21\.0\/([^/?]+)$/);
      if (req.method === 'GET' && object) {
        const id = decodeURIComponent(object[1]);
        const m = media.get(id);
        if (!m) {
          return graphError(400, {
            message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
            type: 'GraphMethodException',
            code: 100,
            error_subcode: 33,
          });
        }
        return json(200, { url: `${origin}/lookaside/${encodeURIComponent(id)}?ext=1&hash=abc`, mime_type: m.mimeType, sha256: 'abc', file_size: m.bytes.length, id, messaging_product: 'whatsapp' });
      }
      return graphError(400, { message: `Unknown path components: ${path}`, code: 2500 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  origin = `http://127.0.0.1:${address.port}`;
  return {
    url: `${origin}/v21.0`,
    requests,
    media,
    failNext(status, error) {
      failures.push({ status, error });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
