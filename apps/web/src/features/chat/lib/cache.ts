import type { ChatMessage, ChatSummary, ChatThread, Page } from '@mostrador/contract';
import type { InfiniteData } from '@tanstack/react-query';

/**
 * Pure updates of the two cached shapes the chat screen shows, so that real-time events, our
 * own sends and the server's answers all land the same way (no duplicates, newest order).
 *
 * Inbox: pages of the list, newest activity first. Thread: pages of messages, pages[0] the
 * newest, each page oldest first.
 */
export type InboxData = InfiniteData<Page<ChatSummary>, unknown>;
export type ThreadData = InfiniteData<ChatThread, unknown>;

const bySentAt = (a: ChatMessage, b: ChatMessage) => a.sentAt.localeCompare(b.sentAt);

/** Every message of a thread, oldest first, each once. */
export function threadMessages(data: ThreadData | undefined): ChatMessage[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: ChatMessage[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) {
    for (const message of data.pages[i]?.payload ?? []) {
      if (seen.has(message._id)) continue;
      seen.add(message._id);
      out.push(message);
    }
  }
  return out;
}

/** The newest summary of the thread's chat. */
export function threadChat(data: ThreadData | undefined): ChatSummary | undefined {
  return data?.pages[0]?.chat;
}

function mapPages(data: ThreadData, fn: (page: ChatThread, index: number) => ChatThread): ThreadData {
  return { ...data, pages: data.pages.map(fn) };
}

/** A message shown while its send is on its way (use-chat-data's newTempId). */
const isPlaceholder = (m: ChatMessage) => m._id.startsWith('temp-');

/**
 * Adds a message to the thread, or replaces it when already there (the POST answer and the
 * real-time event of the same message). `replacing` drops an optimistic placeholder.
 */
export function upsertMessage(data: ThreadData | undefined, message: ChatMessage, replacing?: string): ThreadData | undefined {
  if (!data || data.pages.length === 0) return data;
  const present = data.pages.some((p) => p.payload.some((m) => m._id === message._id));
  // our own send's message arriving before its POST answer (by the real-time event): it takes the
  // place of its placeholder at once, so the thread never shows the message twice
  const standIn =
    !present && !replacing && message.direction === 'out' && !isPlaceholder(message)
      ? data.pages
          .flatMap((p) => p.payload)
          .find((m) => isPlaceholder(m) && m.kind === message.kind && (m.text ?? '') === (message.text ?? '') && (m.mediaUrl ?? '') === (message.mediaUrl ?? ''))?._id
      : undefined;
  const drop = replacing ?? standIn;
  return mapPages(data, (page, index) => {
    let payload = drop ? page.payload.filter((m) => m._id !== drop) : page.payload;
    if (present) payload = payload.map((m) => (m._id === message._id ? message : m));
    else if (index === 0) payload = [...payload, message].sort(bySentAt);
    return payload === page.payload ? page : { ...page, payload };
  });
}

/** Replaces a message already in the thread (a status change, a deletion); unknown messages are ignored. */
export function patchMessage(data: ThreadData | undefined, messageId: string, patch: (m: ChatMessage) => ChatMessage): ThreadData | undefined {
  if (!data) return data;
  return mapPages(data, (page) =>
    page.payload.some((m) => m._id === messageId) ? { ...page, payload: page.payload.map((m) => (m._id === messageId ? patch(m) : m)) } : page,
  );
}

/** Removes a message (an optimistic placeholder whose send failed). */
export function removeMessage(data: ThreadData | undefined, messageId: string): ThreadData | undefined {
  if (!data) return data;
  return mapPages(data, (page) => (page.payload.some((m) => m._id === messageId) ? { ...page, payload: page.payload.filter((m) => m._id !== messageId) } : page));
}

/** The thread with the chat's new summary. */
export function setThreadChat(data: ThreadData | undefined, chat: ChatSummary): ThreadData | undefined {
  if (!data) return data;
  return mapPages(data, (page) => ({ ...page, chat }));
}

/**
 * Puts a chat's new summary in the inbox: in place, or on top of the first page when it has
 * new activity (`toTop`). `found` says whether the list already had it; a chat it did not
 * have is added on top only when `addIfMissing` (an unfiltered list).
 */
export function upsertInboxChat(
  data: InboxData | undefined,
  chat: ChatSummary,
  { toTop = false, addIfMissing = false }: { toTop?: boolean; addIfMissing?: boolean } = {},
): { data: InboxData | undefined; found: boolean } {
  if (!data || data.pages.length === 0) return { data, found: false };
  const found = data.pages.some((p) => p.payload.some((c) => c._id === chat._id));
  if (!found && !addIfMissing) return { data, found };
  if (found && !toTop) {
    return {
      found,
      data: { ...data, pages: data.pages.map((p) => (p.payload.some((c) => c._id === chat._id) ? { ...p, payload: p.payload.map((c) => (c._id === chat._id ? chat : c)) } : p)) },
    };
  }
  const pages = data.pages.map((p, index) => {
    const payload = p.payload.filter((c) => c._id !== chat._id);
    if (index === 0) payload.unshift(chat);
    return { ...p, payload, totalDocs: found ? p.totalDocs : p.totalDocs + 1 };
  });
  return { data: { ...data, pages }, found };
}

/** Every chat of the inbox, each once (a chat that moved up may still sit on a later page). */
export function inboxChats(data: InboxData | undefined): ChatSummary[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: ChatSummary[] = [];
  for (const page of data.pages) {
    for (const chat of page.payload) {
      if (seen.has(chat._id)) continue;
      seen.add(chat._id);
      out.push(chat);
    }
  }
  return out;
}

/** A chat's summary after a message: newer activity, preview, and one more unread when it came in. */
export function summaryAfterMessage(chat: ChatSummary, message: ChatMessage, preview: string): ChatSummary {
  const newer = !chat.lastMessageAt || chat.lastMessageAt <= message.sentAt;
  return {
    ...chat,
    lastMessageAt: newer ? message.sentAt : chat.lastMessageAt,
    lastMessagePreview: newer ? preview : chat.lastMessagePreview,
  };
}

/** The inbox without a chat (resolved or snoozed under «Abiertos»: it left the list; decision 0076). */
export function removeInboxChat(data: InboxData | undefined, chatId: string): InboxData | undefined {
  if (!data?.pages.some((p) => p.payload.some((c) => c._id === chatId))) return data;
  return {
    ...data,
    pages: data.pages.map((p) =>
      p.payload.some((c) => c._id === chatId) ? { ...p, payload: p.payload.filter((c) => c._id !== chatId), totalDocs: Math.max(0, p.totalDocs - 1) } : p,
    ),
  };
}
