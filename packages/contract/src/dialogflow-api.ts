import { z } from 'zod';

/**
 * Dialogflow ES bots that answer chats (issue 15, decision 0053). Besides the standard resource
 * `bots` (settings; the service account write-only):
 *
 *   GET  /bots/status          → {payload: BotStatusOut[]} (each bot: connection, what it did in the last 7 days)
 *   POST /bots/{id}/test       → BotTestOut («Probar conexión»: a detectIntent of a harmless text)
 *
 * A bot answers inbound messages of its platform's chats while nobody holds the chat; a fallback
 * intent, a handoff word or a file it cannot read hands the chat to a person (the inbox shows
 * «Para una persona»). A project id that starts with `sandbox:` is answered in-process by the
 * sandbox agent (greetings, prices, hours; anything else is the fallback): no Google account.
 */
export const BOT_SANDBOX_PREFIX = 'sandbox:';

/** Words that hand the chat to a person at once (accents and case ignored, whole words). */
export const botHandoffWords = ['asesor', 'asesora', 'humano', 'humana', 'agente', 'operador', 'operadora', 'persona real', 'hablar con alguien'] as const;

/** The bot's last words when it hands a chat over. */
export const BOT_HANDOFF_TEXT = 'Te comunico con una persona de nuestro equipo. En breve te responde por aquí.';

/** How many days the status counts look back. */
export const BOT_STATUS_DAYS = 7;

export const botParams = z.object({ id: z.uuid({ error: 'El bot no existe' }) }).strict();

export const botTestIn = z
  .object({
    /** What to ask the agent (default «Hola»). */
    text: z.string({ error: 'El texto de prueba debe ser texto' }).trim().min(1, 'Escribe un texto de prueba').max(256, 'El texto de prueba admite hasta 256 caracteres').optional(),
  })
  .strict();
export type BotTestIn = z.infer<typeof botTestIn>;

export const botTestOut = z.object({
  ok: z.boolean(),
  /** Spanish: what the agent understood, or why it could not be reached. */
  msg: z.string(),
  intent: z.string().optional(),
  fallback: z.boolean().optional(),
  confidence: z.number().optional(),
  /** What the agent would answer. */
  reply: z.string().optional(),
  testedAt: z.string(),
});
export type BotTestOut = z.infer<typeof botTestOut>;

export const botConnectionStates = ['untested', 'ok', 'failed'] as const;
export type BotConnectionState = (typeof botConnectionStates)[number];
export const botConnectionLabels: Record<BotConnectionState, string> = { untested: 'Sin probar', ok: 'Conectado', failed: 'Con error' };

export const botStatusOut = z.object({
  botId: z.string(),
  connection: z.enum(botConnectionStates),
  /** The last test's or the last answer's reason when it failed; the intent matched when it worked. */
  connectionMsg: z.string().optional(),
  testedAt: z.string().optional(),
  /** Whether it answers now: active, with a project and a service account (or the sandbox). */
  ready: z.boolean(),
  /** Why it does not answer, when not ready. */
  notReadyReason: z.string().optional(),
  sandbox: z.boolean(),
  /** The last BOT_STATUS_DAYS days. */
  answered: z.number().int(),
  handedOver: z.number().int(),
  failed: z.number().int(),
  /** Chats it is answering now (nobody holds them). */
  answering: z.number().int(),
});
export type BotStatusOut = z.infer<typeof botStatusOut>;
export const botStatusListOut = z.object({ payload: z.array(botStatusOut) });
