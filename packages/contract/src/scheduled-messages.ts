import { z } from 'zod';
import { outboundMessageKinds } from './channels.js';
import { zId, zOptionalText, zUrl } from './fields.js';
import { formMessages } from './messages-es.js';
import { templateSendInput } from './whatsapp-templates.js';

/**
 * «Enviar más tarde» (issue 29, Timers; decision 0079): a message of the composer — a text, a
 * file by link, or an approved WhatsApp template with its values — kept to go at a date and time.
 * The `chat.scheduled-send` job sends it at its minute through the chat's one send path, with a
 * message id named by the scheduled message, so it goes once. Under /api (module `chats`):
 *
 *   POST   /chats/{id}/scheduled-messages                 scheduledMessageIn → 201 ScheduledMessage
 *   GET    /chats/{id}/scheduled-messages                 the chat's pending and failed ones (and the latest sent and cancelled)
 *   PUT    /chats/{id}/scheduled-messages/{scheduledId}   scheduledMessageIn (whole), only while pending
 *   DELETE /chats/{id}/scheduled-messages/{scheduledId}   cancels it, only while pending → the message, cancelled
 */

/** How far ahead a message may be scheduled. */
export const SCHEDULE_MAX_DAYS = 90;
export const scheduledMessageKinds = ['text', 'template', ...outboundMessageKinds.filter((k) => k !== 'text')] as const;
export type ScheduledMessageKind = (typeof scheduledMessageKinds)[number];
export const scheduledMessageStatuses = ['pending', 'sending', 'sent', 'failed', 'cancelled'] as const;
export type ScheduledMessageStatus = (typeof scheduledMessageStatuses)[number];

export const scheduledMessageTexts = {
  sendAtPast: 'Elige una fecha y hora futura',
  sendAtFar: `Solo se puede programar hasta ${SCHEDULE_MAX_DAYS} días por adelantado`,
  sendAt: 'Elige la fecha y la hora del envío',
  textMissing: 'Escribe un mensaje',
  mediaMissing: 'Falta el enlace del archivo',
  templateMissing: 'Elige una plantilla',
  notPending: {
    sending: 'El mensaje programado ya se está enviando: ya no se puede cambiar',
    sent: 'El mensaje programado ya se envió: ya no se puede cambiar',
    failed: 'El mensaje programado ya no se pudo enviar: programa uno nuevo',
    cancelled: 'El mensaje programado está cancelado: programa uno nuevo',
  },
  notFound: 'El mensaje programado no existe',
} as const;

/** The send time: an ISO instant, in the future and at most SCHEDULE_MAX_DAYS ahead (checked against the caller's now). */
const sendAt = z
  .string({ error: scheduledMessageTexts.sendAt })
  .trim()
  .pipe(z.iso.datetime({ offset: true, error: formMessages.datetime }))
  .superRefine((value, ctx) => {
    const at = new Date(value).getTime();
    const now = Date.now();
    if (at <= now) ctx.addIssue({ code: 'custom', message: scheduledMessageTexts.sendAtPast });
    else if (at > now + SCHEDULE_MAX_DAYS * 86_400_000) ctx.addIssue({ code: 'custom', message: scheduledMessageTexts.sendAtFar });
  });

/**
 * POST and PUT: what goes and when. `text` up to 4096 (the contract's limit of a message; the
 * server also checks the chat's channel, as a send does: Messenger 2000, Instagram 1000 bytes, a
 * WhatsApp caption 1024); `template` is the composer's template send (templateSendInput).
 */
export const scheduledMessageIn = z
  .object({
    kind: z.enum(scheduledMessageKinds, { error: formMessages.option }).default('text'),
    text: zOptionalText(4096).optional(),
    mediaUrl: zUrl().optional(),
    template: templateSendInput.optional(),
    sendAt,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === 'text' && !v.text) ctx.addIssue({ code: 'custom', path: ['text'], message: scheduledMessageTexts.textMissing });
    if (v.kind === 'template' && !v.template) ctx.addIssue({ code: 'custom', path: ['template'], message: scheduledMessageTexts.templateMissing });
    if (v.kind !== 'text' && v.kind !== 'template' && !v.mediaUrl) ctx.addIssue({ code: 'custom', path: ['mediaUrl'], message: scheduledMessageTexts.mediaMissing });
  });
export type ScheduledMessageIn = z.input<typeof scheduledMessageIn>;

export const scheduledMessageOut = z.object({
  _id: z.string(),
  chatId: z.string(),
  kind: z.enum(scheduledMessageKinds),
  text: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  template: templateSendInput.nullable(),
  sendAt: z.string(),
  status: z.enum(scheduledMessageStatuses),
  /** Why it did not go (the send's refusal or the provider's reason, Spanish). */
  error: z.string().nullable(),
  /** The chat message it became. */
  messageId: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  sentAt: z.string().nullable(),
});
export type ScheduledMessageOut = z.infer<typeof scheduledMessageOut>;
export const scheduledMessageList = z.object({ payload: z.array(scheduledMessageOut) });
export const scheduledMessageParams = z.object({ id: zId(), scheduledId: zId() }).strict();
