import { z } from 'zod';
import { zEnum, zText } from './fields.js';

/**
 * Answers to Facebook comments (SPEC §2 /comment-to-msn, /ads-messenger,
 * /comentarios-sin-respuesta; issue 15, decision 0049).
 *
 * - A private reply (`private`) reaches the author in Messenger: Facebook allows one per comment,
 *   within 7 days of it; the author becomes a lead with a Messenger chat.
 * - A public reply (`public`) is a comment under theirs, on the post.
 */
export const commentReplyModes = ['private', 'public'] as const;
export type CommentReplyMode = (typeof commentReplyModes)[number];
export const commentReplyModeLabels: Record<CommentReplyMode, string> = { private: 'Privada (Messenger)', public: 'Pública (comentario)' };

export const commentReplyStatuses = ['pending', 'sent', 'failed'] as const;
export type CommentReplyStatus = (typeof commentReplyStatuses)[number];
export const commentReplyStatusLabels: Record<CommentReplyStatus, string> = { pending: 'Enviando', sent: 'Enviada', failed: 'Fallida' };

/** POST /comments-without-responses/{id}/reply: answer a comment from the list. */
export const commentReplyInput = z
  .object({
    mode: zEnum(commentReplyModes),
    text: zText(2000),
  })
  .strict();
export type CommentReplyInput = z.infer<typeof commentReplyInput>;

/** One reply of the log (a rule's detail, and the answer to POST …/reply). */
export const commentReplyOut = z.object({
  _id: z.string(),
  ruleId: z.string().optional(),
  commentId: z.string(),
  postId: z.string(),
  authorName: z.string(),
  commentText: z.string().optional(),
  mode: z.enum(commentReplyModes),
  /** A rule sent it, or a person from the list. */
  by: z.enum(['rule', 'user']),
  text: z.string(),
  status: z.enum(commentReplyStatuses),
  /** Why Facebook refused it, in Spanish. */
  reason: z.string().optional(),
  /** The Messenger chat the private reply opened (/chat). */
  chatId: z.string().optional(),
  leadId: z.string().optional(),
  createdAt: z.string(),
  sentAt: z.string().optional(),
});
export type CommentReply = z.infer<typeof commentReplyOut>;
export const commentReplyList = z.object({ payload: z.array(commentReplyOut), total: z.number().int() });

/** The answer to POST …/reply: the reply, and the message the screen shows instead of the generic one. */
export const commentAnswerOut = z.object({ reply: commentReplyOut, msg: z.string() });
export type CommentAnswer = z.infer<typeof commentAnswerOut>;

export const commentRuleParams = z.object({ id: z.uuid({ error: 'La regla no existe' }) }).strict();
export const commentUnansweredParams = z.object({ id: z.uuid({ error: 'El comentario no existe' }) }).strict();
/** GET /comment-rules/{id}/replies: newest first, in pages. */
export const commentRepliesQuery = z
  .object({
    page: z.coerce.number({ error: 'La página debe ser un número' }).int('La página debe ser un número entero').min(1, 'La página empieza en 1').max(100000, 'Página demasiado alta').optional(),
    limit: z.coerce.number({ error: 'El límite debe ser un número' }).int('El límite debe ser un número entero').min(1, 'El límite es al menos 1').max(200, 'El límite es de 200 como máximo').optional(),
  })
  .strict();

/**
 * POST /facebook-labels/sync (/etiquetas-facebook «Sincronizar con Facebook», decision 0057): the
 * page's Messenger labels and ours made one list. A page label becomes a row (or is linked to
 * ours of the same name), one of ours without its Facebook id is created at the page; a row
 * whose label the page no longer has loses its id.
 */
export const facebookLabelSyncOut = z.object({
  msg: z.string(),
  /** Page labels new here. */
  created: z.number().int(),
  /** Ours of the same name, linked to the page's label. */
  linked: z.number().int(),
  /** Renamed here to the page's name. */
  renamed: z.number().int(),
  /** Ours created at the page. */
  pushed: z.number().int(),
  /** Ours whose label was deleted at the page (removed here too). */
  missing: z.number().int(),
  pageLabels: z.number().int(),
});
export type FacebookLabelSyncOut = z.infer<typeof facebookLabelSyncOut>;

/**
 * GET /facebook-labels/people (/etiquetas-facebook, decision 0057): each page label on people at
 * Facebook — how many it is on, how many changes wait to be sent — and the last refusals with
 * Facebook's reason in Spanish (whether it is tried again by itself).
 */
export const facebookLabelPeopleOut = z.object({
  labels: z.array(
    z.object({
      /** The page label's id at Facebook. */
      facebookLabelId: z.string(),
      /** People it is on at Facebook (put by Mostrador). */
      applied: z.number().int(),
      /** Puts and removals waiting to be sent (a refusal being retried included). */
      pending: z.number().int(),
      /** Refused for good (until the label changes again or «Reintentar»). */
      failed: z.number().int(),
    }),
  ),
  failures: z.array(
    z.object({
      facebookLabelId: z.string(),
      leadId: z.string().optional(),
      leadName: z.string().optional(),
      /** put: the label was being put on the person; remove: taken off. */
      action: z.enum(['put', 'remove']),
      reason: z.string(),
      at: z.string(),
      /** Tried again by itself later (token, permission, throttling, no answer). */
      retrying: z.boolean(),
    }),
  ),
});
export type FacebookLabelPeopleOut = z.infer<typeof facebookLabelPeopleOut>;

/** POST /facebook-labels/people/retry: the refused puts and removals tried again now. */
export const facebookLabelRetryOut = z.object({ msg: z.string(), retried: z.number().int() });
export type FacebookLabelRetryOut = z.infer<typeof facebookLabelRetryOut>;
