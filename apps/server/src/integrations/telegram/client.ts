import { autoRetry } from '@grammyjs/auto-retry';
import { apiThrottler } from '@grammyjs/transformer-throttler';
import { Api, GrammyError, HttpError } from 'grammy';
import { isSandboxToken, sandboxFetch } from './sandbox.js';

/**
 * The Telegram Bot API client (decision 0040): grammy's `Api` with `apiRoot` at a configurable base
 * URL (TELEGRAM_API_URL; the fake in tests), auto-retry honouring `parameters.retry_after` on 429
 * and server errors, and the throttler (about 30 calls/s overall, 20 per minute to one group). One
 * client per token is kept, so its throttle holds across executions in this process.
 */
export const telegramDefaults = {
  apiRoot: process.env.TELEGRAM_API_URL ?? 'https://api.telegram.org',
  /** Retries after a 429 or a 5xx, each waiting what Telegram asked. */
  maxRetryAttempts: 3,
  /** A 429 asking a longer wait is not waited for: the group's send fails with the wait in its reason. */
  maxDelaySeconds: 60,
  timeoutSeconds: 30,
};

export interface TelegramChat {
  id: number;
  title: string;
  type: string;
  username?: string;
}

export class TelegramError extends Error {
  constructor(
    readonly kind: 'auth' | 'not_found' | 'forbidden' | 'rate_limited' | 'bad_request' | 'network' | 'service',
    readonly msg: string,
  ) {
    super(msg);
  }
}

/** Telegram's error, said in Spanish. */
export function telegramErrorOf(error: unknown): TelegramError {
  if (error instanceof TelegramError) return error;
  if (error instanceof GrammyError) {
    const d = error.description.toLowerCase();
    if (error.error_code === 401 || error.error_code === 404) return new TelegramError('auth', 'Telegram no reconoce el token del bot: cópialo de nuevo desde @BotFather');
    if (error.error_code === 403) {
      if (d.includes('kicked')) return new TelegramError('forbidden', 'El bot fue expulsado del grupo: agrégalo de nuevo al grupo');
      if (d.includes('not a member')) return new TelegramError('forbidden', 'El bot no es miembro del grupo: agrégalo al grupo');
      if (d.includes('not enough rights')) return new TelegramError('forbidden', 'El bot no tiene permiso para publicar en el grupo: hazlo administrador o dale permiso de enviar mensajes');
      return new TelegramError('forbidden', `Telegram no permite al bot publicar en el grupo (${error.description})`);
    }
    if (error.error_code === 429) {
      const wait = error.parameters.retry_after;
      return new TelegramError('rate_limited', `Telegram limitó los envíos del bot${wait ? `: pide esperar ${wait} s` : ''}`);
    }
    if (d.includes('chat not found')) return new TelegramError('not_found', 'Telegram no encuentra el grupo: revisa el id o el @usuario y que el bot esté en el grupo');
    if (d.includes('wrong remote file') || d.includes('failed to get http url content') || d.includes('wrong file')) {
      return new TelegramError('bad_request', 'Telegram no pudo descargar el archivo del enlace: revisa que la URL sea pública y apunte a una imagen o documento');
    }
    if (error.error_code >= 500) return new TelegramError('service', `Telegram no responde bien ahora (${error.error_code}): se reintentará`);
    return new TelegramError('bad_request', `Telegram rechazó el envío: ${error.description}`);
  }
  if (error instanceof HttpError) return new TelegramError('network', 'No se pudo conectar con Telegram: revisa la conexión a internet del servidor');
  return new TelegramError('network', `No se pudo conectar con Telegram: ${error instanceof Error ? error.message : String(error)}`);
}

const clients = new Map<string, Api>();

export function telegramClient(token: string): Api {
  const key = `${telegramDefaults.apiRoot}|${token}`;
  let api = clients.get(key);
  if (!api) {
    api = new Api(token, {
      apiRoot: telegramDefaults.apiRoot,
      timeoutSeconds: telegramDefaults.timeoutSeconds,
      ...(isSandboxToken(token) ? { fetch: sandboxFetch } : {}),
    });
    // installed last runs first: the throttler paces every call, auto-retry repeats a 429 after retry_after
    // a network failure is not retried here (auto-retry would back off without end): it is said at once
    api.config.use(autoRetry({ maxRetryAttempts: telegramDefaults.maxRetryAttempts, maxDelaySeconds: telegramDefaults.maxDelaySeconds, rethrowHttpErrors: true }));
    api.config.use(apiThrottler());
    clients.set(key, api);
  }
  return api;
}

/** The chat id as Telegram takes it: a number, or an @username. */
export const chatRef = (chatId: string): number | string => (/^-?\d+$/.test(chatId) ? Number(chatId) : chatId);

export async function getMe(token: string) {
  try {
    return await telegramClient(token).getMe();
  } catch (error) {
    throw telegramErrorOf(error);
  }
}

export async function getChat(token: string, chatId: string): Promise<TelegramChat> {
  try {
    const chat = (await telegramClient(token).getChat(chatRef(chatId))) as { id: number; type: string; title?: string; first_name?: string; username?: string };
    return { id: chat.id, type: chat.type, title: chat.title ?? chat.first_name ?? chat.username ?? String(chat.id), ...(chat.username ? { username: chat.username } : {}) };
  } catch (error) {
    throw telegramErrorOf(error);
  }
}

export type MediaKind = 'photo' | 'document';

/** Posts a message (or a photo / document by URL with the message as caption); answers Telegram's message id. */
export async function postTo(token: string, chatId: string, message: { text: string; mediaUrl?: string | null; mediaKind?: MediaKind | null }): Promise<number> {
  const api = telegramClient(token);
  const chat = chatRef(chatId);
  try {
    if (message.mediaUrl) {
      // a caption holds 1024 characters: a longer text goes as its own message after the media
      const caption = message.text.length <= 1024 ? message.text : undefined;
      const sent =
        message.mediaKind === 'document'
          ? await api.sendDocument(chat, message.mediaUrl, caption ? { caption } : {})
          : await api.sendPhoto(chat, message.mediaUrl, caption ? { caption } : {});
      if (caption !== undefined || !message.text) return sent.message_id;
    }
    return (await api.sendMessage(chat, message.text)).message_id;
  } catch (error) {
    throw telegramErrorOf(error);
  }
}
