import type { ChatMessage, ChatSummary, ChatThread } from '@mostrador/contract';

/** Records as the chat API answers them, for the chat screen's tests. */
export const ids = {
  chat1: '00000000-0000-4000-8000-000000000001',
  chat2: '00000000-0000-4000-8000-000000000002',
  lead1: '00000000-0000-4000-8000-000000000101',
};

const hour = 3_600_000;

export function summary(overrides: Partial<ChatSummary> = {}): ChatSummary {
  return {
    _id: ids.chat1,
    contactName: 'María Fernández',
    platform: 'whatsapp',
    status: 'open',
    unreadCount: 0,
    lastMessageAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    lastMessagePreview: '¿Tienen delivery a Surco?',
    windowOpenUntil: new Date(Date.now() + 20 * hour).toISOString(),
    lead: { _id: ids.lead1, name: 'María Fernández', telefono: '51987001122', status: 'sin-asignar', mostradorLabels: [] },
    createdAt: '2025-03-14T15:30:00Z',
    updatedAt: '2025-03-14T15:30:00Z',
    ...overrides,
  };
}

let seq = 0;
export function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  seq += 1;
  return {
    _id: `00000000-0000-4000-9000-${String(seq).padStart(12, '0')}`,
    chatId: ids.chat1,
    direction: 'in',
    kind: 'text',
    text: `Mensaje ${seq}`,
    hasMedia: false,
    status: 'received',
    isActive: true,
    sentAt: new Date(Date.now() - 60 * 60_000 + seq * 1000).toISOString(),
    ...overrides,
  };
}

export function thread(chat: ChatSummary, payload: ChatMessage[], hasMore = false): ChatThread {
  return { chat, payload, hasMore };
}
