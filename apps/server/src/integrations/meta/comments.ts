import { createHash, randomBytes } from 'node:crypto';
import { graphJson, ProviderError } from './send.js';

/**
 * A client of the Graph API's answers to page comments (decision 0049):
 *
 * - Private reply (Messenger Platform "Private Replies"): `POST /{page-id}/messages` with
 *   `{recipient: {comment_id}, message: {text}}` and the page token → `{recipient_id,
 *   message_id}`; `recipient_id` is the author's Messenger id (PSID), so their later messages
 *   reach the same chat. One per comment, within 7 days of it. (It replaced the old
 *   `POST /{comment-id}/private_replies`, deprecated since v3.3.)
 * - Public reply: `POST /{comment-id}/comments` with `{message}` → `{id}`.
 *
 * Refusals read as Spanish (commentFailureReason): an expired token (190), a comment already
 * answered (10900) or past its window (10903), throttling (HTTP 429, codes 4, 17, 32, 613).
 * The sandbox (the demo, SEND_PROVIDER=sandbox) answers without the internet.
 */
export const PRIVATE_REPLY_WINDOW_DAYS = 7;

export interface CommentTarget {
  pageId: string;
  /** The page access token, opened from its sealed value. */
  accessToken?: string;
}

export interface CommentClient {
  readonly name: 'graph' | 'sandbox';
  privateReply(target: CommentTarget, comment: { commentId: string; authorId?: string }, text: string): Promise<{ recipientId: string; messageId: string }>;
  publicReply(target: CommentTarget, commentId: string, text: string): Promise<{ id: string }>;
}

const THROTTLE = new Set([4, 17, 32, 613]);

const byCode: Record<number, string> = {
  190: 'El token de la página de Facebook venció o no es válido: un administrador debe guardar uno nuevo en Integraciones › WhatsApp (página de Facebook)',
  10900: 'Facebook ya tiene una respuesta privada para este comentario: solo permite una por comentario',
  10903: 'Facebook ya no permite responder en privado a este comentario: pasaron más de 7 días o el comentario no lo admite',
  10: 'La app de Meta no tiene permiso para responder comentarios de esta página (pages_messaging, pages_manage_engagement)',
  200: 'La app de Meta no tiene permiso para responder comentarios de esta página (pages_messaging, pages_manage_engagement)',
  551: 'Esta persona no está disponible para recibir mensajes de la página ahora',
  368: 'Facebook bloqueó temporalmente las respuestas de esta página por sus políticas',
};

/** Whether Facebook refused for throttling (worth trying later). */
export const isCommentThrottle = (e: unknown) =>
  e instanceof ProviderError && (e.details.httpStatus === 429 || (e.details.code !== undefined && THROTTLE.has(e.details.code)));

/** Facebook's refusal of a reply, in Spanish, with its code (what support looks up). */
export function commentFailureReason(error: unknown): string {
  if (!(error instanceof ProviderError)) return `No se pudo responder: ${error instanceof Error ? error.message : String(error)}`.slice(0, 1000);
  const { code, subcode, httpStatus } = error.details;
  const codes = code !== undefined ? ` (código ${code}${subcode ? `/${subcode}` : ''})` : httpStatus ? ` (HTTP ${httpStatus})` : '';
  if (isCommentThrottle(error)) return `Facebook limitó las llamadas de la página: vuelve a intentarlo en unos minutos${codes}`;
  if (code === 100 && subcode === 33) return `El comentario ya no existe en Facebook (lo borraron u ocultaron)${codes}`;
  if (code !== undefined && byCode[code]) return `${byCode[code]}${codes}`;
  if (code !== undefined && code >= 200 && code <= 299) return `${byCode[200]}${codes}`;
  // the client's own words (no connection, a missing id) or Facebook's unknown refusal
  return error.reason.slice(0, 1000);
}

/** The Graph API client. `baseUrl` includes the version (https://graph.facebook.com/v21.0). */
export function createCommentClient(baseUrl: string): CommentClient {
  const base = baseUrl.replace(/\/+$/, '');
  const enc = encodeURIComponent;
  const token = (target: CommentTarget) => {
    if (!target.accessToken) throw new ProviderError('La página de Facebook no tiene token de acceso: guárdalo en Integraciones › WhatsApp (página de Facebook)');
    return target.accessToken;
  };
  return {
    name: 'graph',
    async privateReply(target, comment, text) {
      const body = await graphJson<{ recipient_id?: string; message_id?: string }>(
        `${base}/${enc(target.pageId)}/messages`,
        token(target),
        { method: 'POST', body: { recipient: { comment_id: comment.commentId }, message: { text } } },
        'Facebook rechazó la respuesta privada',
      );
      if (!body?.message_id || !body.recipient_id) throw new ProviderError('Facebook aceptó la respuesta privada pero no devolvió el mensaje ni la persona');
      return { recipientId: String(body.recipient_id), messageId: String(body.message_id) };
    },
    async publicReply(target, commentId, text) {
      const body = await graphJson<{ id?: string }>(`${base}/${enc(commentId)}/comments`, token(target), { method: 'POST', body: { message: text } }, 'Facebook rechazó la respuesta pública');
      if (!body?.id) throw new ProviderError('Facebook aceptó la respuesta pública pero no devolvió su id');
      return { id: String(body.id) };
    },
  };
}

/** A reply whose text contains this word is refused by the sandbox as Facebook refuses a comment past its window. */
export const SANDBOX_COMMENT_FAIL_WORD = '#falla';

/**
 * The demo's Facebook (SEND_PROVIDER=sandbox): never reaches the internet. A private reply is
 * accepted once per comment with a Messenger id derived from the author (so one person is one
 * chat); a second one is refused as Facebook does (10900); '#falla' in the text is refused as a
 * comment past its window (10903).
 */
export function createSandboxCommentClient(): CommentClient {
  const replied = new Set<string>();
  const refuse = (code: number, message: string) => new ProviderError(commentFailureReason(new ProviderError(message, { code, httpStatus: 400 })), { code, httpStatus: 400 });
  return {
    name: 'sandbox',
    async privateReply(target, comment, text) {
      if (text.toLowerCase().includes(SANDBOX_COMMENT_FAIL_WORD)) throw refuse(10903, 'This activity can\u2019t be replied to');
      if (replied.has(comment.commentId)) throw refuse(10900, 'Activity already replied to');
      replied.add(comment.commentId);
      const seed = comment.authorId ?? comment.commentId;
      const digits = BigInt(`0x${createHash('sha256').update(`${target.pageId}:${seed}`).digest('hex').slice(0, 13)}`).toString().padStart(16, '7');
      return { recipientId: digits.slice(0, 16), messageId: `m_sandbox_${randomBytes(12).toString('hex')}` };
    },
    async publicReply(_target, commentId) {
      if (!/^\d+_\d+$/.test(commentId) && !/^\d+$/.test(commentId)) throw refuse(100, 'Invalid comment id');
      return { id: `${commentId.split('_')[0]}_${BigInt(`0x${randomBytes(6).toString('hex')}`).toString()}` };
    },
  };
}
