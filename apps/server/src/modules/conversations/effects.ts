import { type ChatMessageKind, type MessageContent, messagePreview } from '@mostrador/contract';

/**
 * What ingesting or changing a conversation did to its chat, and a message's preview: here, at
 * the bottom of the conversation modules, because ingestion (inbound.ts) produces both and the
 * chats above it (their service, their real-time publishing) consume them.
 */

/** What a committed change did to a chat, to tell the company's open browsers (GET /api/events). */
export type ChatEffect =
  | { type: 'message.created'; chatId: string; messageId: string }
  | { type: 'message.updated'; chatId: string; messageId: string }
  | { type: 'chat.updated'; chatId: string };

/** A chat's last-message preview of a message (received or sent): its text, else what it is, on one line, at most 300 characters. */
export const previewOf = (m: { kind: ChatMessageKind; text?: string | null; content?: MessageContent | null }) => messagePreview(m);
