import { z } from 'zod';
import { formMessages } from './messages-es.js';

/**
 * Telegram (SPEC §2 /telegram/grupos, /telegram/rutinas; §7 telegram-routines; issue 13,
 * decision 0040). All under /api:
 *
 *   GET    /telegram/settings                    the company's bot (its token never shown)
 *   PUT    /telegram/settings                    saves the bot token (sealed), checked with getMe
 *   DELETE /telegram/settings
 *   POST   /telegram/settings/test               getMe: whether the token works, said in Spanish
 *   POST   /telegram/groups/check                getChat of an id or @username: its id, title and type
 *   POST   /telegram-routines/{id}/execute       posts the routine now to each of its groups (SPEC §7)
 *   GET    /telegram-routines/{id}/executions    its last executions, with the outcome per group
 */

export const telegramSettingsIn = z.object({
  token: z
    .string({ error: formMessages.required })
    .trim()
    .min(1, 'Escribe el token del bot')
    .max(200, formMessages.tooLong)
    .regex(/^(\d{5,}:[\w-]{20,}|sandbox[\w-]*)$/, 'El token del bot se ve como 123456789:AAH…, tal como lo da @BotFather'),
});
export const telegramSettingsOut = z.object({
  configured: z.boolean(),
  botUsername: z.string().optional(),
  botName: z.string().optional(),
  sandbox: z.boolean().optional(),
  /** The token's last four characters, to tell which one is saved. */
  tokenHint: z.string().optional(),
  updatedAt: z.string().optional(),
});
export type TelegramSettingsOut = z.infer<typeof telegramSettingsOut>;

export const telegramTestOut = z.object({ ok: z.boolean(), msg: z.string() });

export const telegramGroupCheckIn = z.object({
  chatId: z
    .string({ error: formMessages.required })
    .trim()
    .regex(/^(-?\d+|@[A-Za-z]\w{3,31})$/, 'Debe ser el id numérico del chat, como -1001234567890, o su @usuario'),
});
export const telegramChatTypeLabels: Record<string, string> = { group: 'Grupo', supergroup: 'Supergrupo', channel: 'Canal', private: 'Chat privado' };
export const telegramGroupCheckOut = z.object({ chatId: z.string(), title: z.string(), type: z.string(), username: z.string().optional() });
export type TelegramGroupCheckOut = z.infer<typeof telegramGroupCheckOut>;

export const telegramExecutionTriggers = ['manual', 'schedule'] as const;
export const telegramExecutionStatuses = ['running', 'sent', 'partial', 'failed'] as const;
export type TelegramExecutionStatus = (typeof telegramExecutionStatuses)[number];
export const telegramExecutionStatusLabels: Record<TelegramExecutionStatus, string> = {
  running: 'Enviando',
  sent: 'Enviada',
  partial: 'Enviada con errores',
  failed: 'Fallida',
};

export const telegramGroupOutcome = z.object({
  groupId: z.string(),
  name: z.string(),
  chatId: z.string(),
  status: z.enum(['sent', 'failed']),
  messageId: z.number().int().optional(),
  error: z.string().optional(),
});
export type TelegramGroupOutcome = z.infer<typeof telegramGroupOutcome>;

export const telegramExecutionOut = z.object({
  _id: z.string(),
  routineId: z.string(),
  trigger: z.enum(telegramExecutionTriggers),
  /** The scheduled minute (UTC ISO) of a scheduled execution. */
  scheduledFor: z.string().optional(),
  status: z.enum(telegramExecutionStatuses),
  results: z.array(telegramGroupOutcome),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
});
export type TelegramExecutionOut = z.infer<typeof telegramExecutionOut>;
export const telegramExecutionsOut = z.object({ payload: z.array(telegramExecutionOut) });
export const telegramExecuteOut = z.object({ msg: z.string(), execution: telegramExecutionOut });
export type TelegramExecuteOut = z.infer<typeof telegramExecuteOut>;
