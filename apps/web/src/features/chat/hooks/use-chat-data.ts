import type { ChatMessage, ChatSummary, Platform, SendMessageInput } from '@mostrador/contract';
import { type QueryClient, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSession } from '../../../lib/session';
import { chatApi, type InboxFilters } from '../api';
import {
  type InboxData,
  patchMessage,
  removeInboxChat,
  removeMessage,
  setThreadChat,
  summaryAfterMessage,
  type ThreadData,
  upsertInboxChat,
  upsertMessage,
} from '../lib/cache';
import { previewOf } from '../texts';
import { chatKeys } from '../../../lib/query-keys';

/** The inbox: pages of 10, newest activity first, "Cargar más" asks the next one. */
export function useInbox(filters: InboxFilters) {
  const { companyId } = useSession();
  return useInfiniteQuery({
    queryKey: chatKeys.inbox(companyId, filters),
    queryFn: ({ pageParam, signal }) => chatApi.inbox(filters, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, _all, lastParam) => (lastParam < last.totalPages ? lastParam + 1 : undefined),
  });
}

/** A thread, newest page first; the next page is older (`before` = the oldest message's time). */
export function useThread(chatId: string | undefined) {
  const { companyId } = useSession();
  return useInfiniteQuery({
    queryKey: chatKeys.thread(chatId ?? '', companyId),
    queryFn: ({ pageParam, signal }) => chatApi.thread(chatId ?? '', pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.payload[0] ? last.payload[0].sentAt : undefined),
    enabled: !!chatId,
  });
}

/** Writes a chat's new summary everywhere it shows: its thread, every inbox list, the person's chats. */
export function storeChatSummary(
  queryClient: QueryClient,
  companyId: string | null,
  incoming: ChatSummary,
  { toTop = false }: { toTop?: boolean } = {},
): void {
  // An answer computed before the latest message (a read receipt racing a new message) keeps the newer activity.
  const previous = cachedSummary(queryClient, companyId, incoming._id);
  const stale = !!previous?.lastMessageAt && (!incoming.lastMessageAt || previous.lastMessageAt > incoming.lastMessageAt);
  const chat = stale ? { ...incoming, lastMessageAt: previous?.lastMessageAt, lastMessagePreview: previous?.lastMessagePreview } : incoming;
  queryClient.setQueryData<ThreadData>(chatKeys.thread(chat._id, companyId), (data) => setThreadChat(data, chat));
  for (const query of queryClient.getQueryCache().findAll({ queryKey: chatKeys.inboxes() })) {
    const filters = (query.queryKey[2] ?? {}) as InboxFilters & { companyId?: string | null };
    const { companyId: _c, status, view, ...rest } = filters;
    // a list of one status (the inbox's «Estado», decision 0076): a chat that moved to another leaves it
    if (status && chat.status !== status) {
      const without = removeInboxChat(query.state.data as InboxData | undefined, chat._id);
      if (without !== query.state.data) queryClient.setQueryData(query.queryKey, without);
      continue;
    }
    const unfiltered = (!view || view === 'all') && Object.values(rest).every((v) => v === undefined || v === '' || v === false);
    // Only new activity brings a chat the list has not loaded to its top (not a read receipt or a lead change).
    const { data, found } = upsertInboxChat(query.state.data as InboxData | undefined, chat, { toTop, addIfMissing: unfiltered && toTop });
    if (found || (unfiltered && toTop)) queryClient.setQueryData(query.queryKey, data);
    // A filtered list that did not have it may now: ask the server (a list of one status: a chat
    // that came back to it, by its snooze's end or a customer's message, has no new activity of its own).
    else if (toTop || status) void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
  }
  queryClient.setQueriesData<{ payload: ChatSummary[] }>({ queryKey: chatKeys.people() }, (data) =>
    data?.payload.some((c) => c._id === chat._id) ? { payload: data.payload.map((c) => (c._id === chat._id ? chat : c)) } : data,
  );
}

/** Reads the chat's current summary from any cache that has it. */
export function cachedSummary(queryClient: QueryClient, companyId: string | null, chatId: string): ChatSummary | undefined {
  const fromThread = queryClient.getQueryData<ThreadData>(chatKeys.thread(chatId, companyId))?.pages[0]?.chat;
  if (fromThread) return fromThread;
  for (const [, data] of queryClient.getQueriesData<InboxData>({ queryKey: chatKeys.inboxes() })) {
    for (const page of data?.pages ?? []) {
      const chat = page.payload.find((c) => c._id === chatId);
      if (chat) return chat;
    }
  }
  return undefined;
}

/** POST /chats/:id/read: the unread badge goes to 0 here and in every list. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  return useCallback(
    (chatId: string) => {
      const current = cachedSummary(queryClient, companyId, chatId);
      if (current && current.unreadCount > 0) storeChatSummary(queryClient, companyId, { ...current, unreadCount: 0 });
      chatApi
        .markRead(chatId)
        .then((chat) => chat && storeChatSummary(queryClient, companyId, chat))
        .catch(() => {
          // The badge comes back with the next list load; nothing to tell the user.
        });
    },
    [queryClient, companyId],
  );
}

let tempSeq = 0;

/**
 * Sends a message: it shows at once as Pendiente, and is replaced by the server's answer
 * (or by the real-time event of the same message, whichever comes first). On failure the
 * placeholder goes away and the api client shows why (409 outside the window included).
 */
export function useSendMessage(chatId: string) {
  const queryClient = useQueryClient();
  const { companyId, user } = useSession();
  const key = chatKeys.thread(chatId, companyId);
  return useMutation({
    mutationFn: ({ body }: { body: SendMessageInput; tempId: string }) => chatApi.send(chatId, body),
    onMutate: ({ body, tempId }) => {
      const temp: ChatMessage = {
        _id: tempId,
        chatId,
        direction: 'out',
        kind: body.kind ?? 'text',
        text: body.text,
        mediaUrl: body.mediaUrl,
        hasMedia: false,
        status: 'pending',
        isActive: true,
        sentBy: user?._id,
        sentAt: new Date().toISOString(),
      };
      queryClient.setQueryData<ThreadData>(key, (data) => upsertMessage(data, temp));
    },
    onSuccess: (message, { tempId }) => {
      queryClient.setQueryData<ThreadData>(key, (data) => upsertMessage(data, message, tempId));
      const current = cachedSummary(queryClient, companyId, chatId);
      if (current) storeChatSummary(queryClient, companyId, summaryAfterMessage(current, message, previewOf(message)), { toTop: true });
    },
    onError: (_error, { tempId }) => {
      queryClient.setQueryData<ThreadData>(key, (data) => removeMessage(data, tempId));
    },
  });
}

export const newTempId = () => `temp-${Date.now().toString(36)}-${(tempSeq++).toString(36)}`;

/** DELETE a message: it stays in the thread as 'Mensaje eliminado'. */
export function useDeleteMessage(chatId: string) {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  return useMutation({
    mutationFn: (messageId: string) => chatApi.deleteMessage(chatId, messageId),
    onSuccess: (_answer, messageId) => {
      queryClient.setQueryData<ThreadData>(chatKeys.thread(chatId, companyId), (data) => patchMessage(data, messageId, (m) => ({ ...m, isActive: false })));
    },
  });
}

/** /chat?leadId=…&platform=…: the lead's chat on that platform (lead screens link here). */
export function useThreadByLead(leadId: string | undefined, platform: Platform | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: chatKeys.byLead(leadId, platform, companyId),
    queryFn: () => chatApi.threadByLead(leadId ?? '', platform ?? 'whatsapp'),
    enabled: !!leadId && !!platform,
    staleTime: Infinity,
  });
}
