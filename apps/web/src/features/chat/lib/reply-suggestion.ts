import type { ReplySuggestionOut } from '@mostrador/contract';
import { api } from '../../../lib/api-client';

const enc = encodeURIComponent;

/** POST /chats/:id/messages/:messageId/suggestion (decision 0087): the catalogue's products a customer's message mentions and a draft reply. Sends nothing. */
export const suggestReply = (chatId: string, messageId: string) =>
  api.post<ReplySuggestionOut>(`/chats/${enc(chatId)}/messages/${enc(messageId)}/suggestion`, undefined, { overlay: false, notify: false });
