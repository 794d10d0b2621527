import type { Db } from '../../db/database.js';
import type { Realtime } from '../../lib/realtime.js';
import type { ChatEffect } from '../conversations/effects.js';
import { chatMessage, chatSummary } from './queries.js';

/**
 * Publishes a chat effect as the contract's RealtimeEvent, read fresh after the transaction
 * committed. Best effort (decision 0014): a failure is logged, never undoes the work, and a
 * browser that missed an event reloads what it shows when it reconnects.
 */
export async function publishChatEffect(
  db: Db,
  realtime: Pick<Realtime, 'publish'>,
  companyId: string,
  effect: ChatEffect,
  log?: { warn: (obj: unknown, msg?: string) => void },
): Promise<void> {
  try {
    if (effect.type === 'chat.updated') {
      await realtime.publish(companyId, { type: 'chat.updated', chat: await chatSummary(db, companyId, effect.chatId) });
      return;
    }
    if (effect.type === 'message.updated') {
      const { mediaId: _, ...message } = await chatMessage(db, companyId, effect.messageId);
      await realtime.publish(companyId, { type: 'message.updated', chatId: effect.chatId, message });
      return;
    }
    // the message and its chat read side by side (two connections), not one after the other
    const [{ mediaId: _, ...message }, chat] = await Promise.all([chatMessage(db, companyId, effect.messageId), chatSummary(db, companyId, effect.chatId)]);
    await realtime.publish(companyId, { type: 'message.created', chat, message });
  } catch (error) {
    log?.warn({ err: error, effect }, 'no se pudo publicar el evento del chat');
  }
}
