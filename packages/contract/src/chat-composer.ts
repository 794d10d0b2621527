import { z } from 'zod';
import { type ChannelKind, channelKinds } from './channels.js';
import { platforms } from './constants.js';
import { zText } from './fields.js';
import { chatStatuses } from './resources/chats.js';

/**
 * Answering on every channel (issue 11, decision 0027): what the composer knows before the
 * agent types, internal notes, failed messages sent again, and a chat resolved or snoozed.
 *
 *   GET  /chats/unread_count                      → { chats } (chats with unread messages)
 *   GET  /chats/:id/state                         → ChatState (can a free-form message go out now?)
 *   POST /chats/:id/notes                         noteInput → 201 ChatMessage (kind 'note', never sent)
 *   POST /chats/:id/messages/:messageId/retry     → ChatMessage (a failed message sent once more; idempotent)
 *   POST /chats/:id/status                        chatStatusInput → ChatState (open, closed = resolved, snoozed)
 */

/**
 * What the channel lets the agent do in a chat now:
 * - `open`: connected and inside the 24-hour window: a free-form message goes out.
 * - `window_closed`: the customer last wrote more than 24 hours ago (WhatsApp's customer-service
 *   window, Messenger's and Instagram's standard messaging window): only an approved template.
 * - `not_connected`: the company has no line / page / account for the chat's channel (or no token).
 * - `no_recipient`: the chat's person has no id on the platform to write to.
 */
export const chatChannelStates = ['open', 'window_closed', 'not_connected', 'no_recipient'] as const;
export type ChatChannelState = (typeof chatChannelStates)[number];

export const chatStateOut = z.object({
  chatId: z.string(),
  platform: z.enum(platforms),
  channel: z.enum(channelKinds),
  state: z.enum(chatChannelStates),
  /** A free-form message may be sent now (state open). Notes may always be written. */
  canSend: z.boolean(),
  /** Why not, in Spanish, as the send would refuse it (absent when open). */
  reason: z.string().optional(),
  /** Until when the window is open (the customer's last message + 24 h); absent when they never wrote. */
  windowOpenUntil: z.string().optional(),
  /** The chat: open, closed (resolved) or snoozed until `snoozedUntil`. */
  status: z.enum(chatStatuses),
  snoozedUntil: z.string().optional(),
});
export type ChatState = z.infer<typeof chatStateOut>;

const channelNames: Record<ChannelKind, string> = { whatsapp: 'WhatsApp', messenger: 'Messenger', instagram: 'Instagram' };

/** The Spanish reasons a send is refused with (409) and the composer shows; never a path or a provider code. */
export const chatStateReasons = {
  windowClosed: (channel: ChannelKind) =>
    channel === 'whatsapp'
      ? 'Pasaron más de 24 horas desde el último mensaje del cliente: WhatsApp solo permite escribirle con una plantilla aprobada.'
      : // Messenger and Instagram have no templates here: the customer's next message opens the window again
        `Pasaron más de 24 horas desde el último mensaje del cliente: ${channelNames[channel]} solo permite responder dentro de las 24 horas siguientes. Podrás escribirle de nuevo cuando vuelva a escribir.`,
  /** The customer never wrote in this chat: there is no window to answer in. */
  neverWrote: (channel: ChannelKind) =>
    channel === 'whatsapp'
      ? 'El cliente aún no escribió en este chat: WhatsApp solo permite iniciar la conversación con una plantilla aprobada.'
      : // a chat a comment's private reply opened: the person has not written by Messenger yet
        `El cliente aún no escribió por ${channelNames[channel]}: solo se le puede escribir cuando responda o escriba a la página.`,
  notConnected: (channel: ChannelKind) =>
    channel === 'whatsapp'
      ? 'WhatsApp no está conectado: esta compañía no tiene una línea de WhatsApp configurada, así que no se pueden enviar mensajes desde este chat.'
      : channel === 'messenger'
        ? 'Messenger no está conectado: esta compañía no tiene una página de Facebook configurada, así que no se pueden enviar mensajes desde este chat.'
        : 'Instagram no está conectado: esta compañía no tiene una cuenta de Instagram vinculada a su página de Facebook, así que no se pueden enviar mensajes desde este chat.',
  noToken: (channel: ChannelKind) =>
    `${channelNames[channel]} está configurado sin token de acceso: un administrador debe guardarlo en Integraciones › WhatsApp para poder enviar mensajes.`,
  badToken: (channel: ChannelKind) =>
    `No se pudo leer el token de acceso de ${channelNames[channel]} (la clave del servidor cambió): un administrador debe guardarlo de nuevo en Integraciones › WhatsApp.`,
  noRecipient: 'Este chat no tiene a quién escribir: su lead no tiene identificador en el canal.',
  /** What the composer adds on WhatsApp when the window is closed: its «Enviar plantilla» button opens the approved templates (decision 0038). */
  templateNeeded: 'Envíale una plantilla aprobada: cuando responda, se abre de nuevo la ventana de 24 horas para escribirle libremente.',
  notFailed: 'Solo se puede reintentar un mensaje que falló.',
  noteNotRetried: 'Las notas internas no se envían al cliente.',
} as const;

/** POST /chats/:id/notes: a note only the company's staff sees (stored as a message of kind 'note'; never sent). */
export const noteInput = z.object({ text: zText(4096) }).strict();
export type NoteInput = z.infer<typeof noteInput>;

/** How far ahead a chat may be snoozed. */
export const SNOOZE_MAX_DAYS = 90;

/** POST /chats/:id/status: reopen, resolve (closed) or snooze until a future date (it comes back then, or when the customer writes). */
export const chatStatusInput = z
  .object({
    status: z.enum(chatStatuses, { error: 'Estado desconocido: open, closed o snoozed' }),
    snoozedUntil: z.iso.datetime({ offset: true, error: 'Fecha inválida' }).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.status !== 'snoozed') {
      if (v.snoozedUntil) ctx.addIssue({ code: 'custom', path: ['snoozedUntil'], message: 'Solo un chat pospuesto lleva fecha' });
      return;
    }
    if (!v.snoozedUntil) return ctx.addIssue({ code: 'custom', path: ['snoozedUntil'], message: 'Elige hasta cuándo posponer el chat' });
    const at = Date.parse(v.snoozedUntil);
    if (at <= Date.now()) ctx.addIssue({ code: 'custom', path: ['snoozedUntil'], message: 'La fecha debe ser futura' });
    else if (at > Date.now() + SNOOZE_MAX_DAYS * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['snoozedUntil'], message: `Se puede posponer hasta ${SNOOZE_MAX_DAYS} días` });
    }
  });
export type ChatStatusInput = z.input<typeof chatStatusInput>;

export const unreadCountOut = z.object({ chats: z.number().int() });

/** Variables a quick reply may carry, filled from the chat's lead and the person writing. */
export const quickReplyVariables = {
  nombre: 'Nombre del lead (o del contacto del chat)',
  telefono: 'Teléfono del lead',
  agente: 'Tu nombre (quien escribe)',
} as const;
export type QuickReplyVariable = keyof typeof quickReplyVariables;

/**
 * A quick reply's text with its variables filled: `{{nombre}}`, `{{telefono}}`, `{{agente}}`
 * (spaces and capitals inside the braces are forgiven). A variable without a value stays
 * written as it is, so the agent sees what to complete before sending.
 */
export function fillQuickReply(text: string, values: Partial<Record<QuickReplyVariable, string | undefined>>): string {
  return text.replace(/\{\{\s*([a-zA-ZáéíóúÁÉÍÓÚ]+)\s*\}\}/g, (whole, name: string) => {
    const key = name
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '') as QuickReplyVariable;
    const value = key in quickReplyVariables ? values[key]?.trim() : undefined;
    return value ? value : whole;
  });
}
