import { type ChatMessage, type ChatState, type ChatStatusInput, type Page, successMessages } from '@mostrador/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { patchMessage, type ThreadData, upsertMessage } from '../lib/cache';
import { cachedSummary, storeChatSummary } from './use-chat-data';
import { chatKeys, composerKeys } from '../../../lib/query-keys';

const enc = encodeURIComponent;

/** A quick reply (respuestas-rapidas): a shortcut typed after "/" and its text. */
export interface QuickReply {
  _id: string;
  atajo: string;
  texto: string;
}

/** The composer's calls (contract chat-composer.ts, decision 0027); quiet: the composer shows their outcome itself. */
export const composerApi = {
  state: (chatId: string, signal?: AbortSignal) => api.get<ChatState>(`/chats/${enc(chatId)}/state`, { overlay: false, notify: false, signal }),
  retry: (chatId: string, messageId: string) => api.post<ChatMessage>(`/chats/${enc(chatId)}/messages/${enc(messageId)}/retry`, undefined, { overlay: false }),
  note: (chatId: string, text: string) => api.post<ChatMessage>(`/chats/${enc(chatId)}/notes`, { text }, { overlay: false }),
  /** `quiet`: the screen tells the outcome itself (the «Deshacer» toast of a chat leaving «Abiertos»). */
  setStatus: (chatId: string, body: ChatStatusInput, quiet = false) =>
    api.post<ChatState>(`/chats/${enc(chatId)}/status`, body, { overlay: false, success: quiet ? undefined : successMessages.updated }),
  unread: (signal?: AbortSignal) => api.get<{ chats: number }>('/chats/unread_count', { overlay: false, notify: false, signal }),
  quickReplies: (signal?: AbortSignal) =>
    api.get<Page<QuickReply>>('/respuestas-rapidas', { query: { limit: 100, sort: 'atajo', order: 'asc' }, overlay: false, notify: false, signal }),
};

/** What the chat's channel allows now (connected, window open); undefined while it loads or when it could not be read. */
export function useChatState(chatId: string | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: composerKeys.state(chatId ?? '', companyId),
    queryFn: ({ signal }) => composerApi.state(chatId ?? '', signal),
    enabled: !!chatId,
    retry: false,
    meta: { quiet: true },
  });
}

/** How many chats have unread messages (the tab title). */
export function useUnreadCount(enabled = true) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: composerKeys.unread(companyId),
    queryFn: ({ signal }) => composerApi.unread(signal),
    enabled: enabled && !!companyId,
    retry: false,
    staleTime: 15_000,
    meta: { quiet: true },
  });
}

/** The company's quick replies, for the "/" picker (agents may list them). */
export function useQuickReplies(enabled: boolean) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: composerKeys.quickReplies(companyId),
    queryFn: ({ signal }) => composerApi.quickReplies(signal),
    enabled: enabled && !!companyId,
    staleTime: 60_000,
    retry: false,
    select: (page) => page.payload.map(({ _id, atajo, texto }) => ({ _id, atajo, texto })),
    meta: { quiet: true },
  });
}

/** «Reintentar» on a failed message: it shows pending at once, then as the server answers (sent, or failed with the new reason). */
export function useRetryMessage(chatId: string) {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  const key = chatKeys.thread(chatId, companyId);
  return useMutation({
    mutationFn: (messageId: string) => composerApi.retry(chatId, messageId),
    onMutate: (messageId) => {
      queryClient.setQueryData<ThreadData>(key, (data) => patchMessage(data, messageId, (m) => ({ ...m, status: 'pending', statusError: undefined })));
    },
    onSuccess: (message) => {
      queryClient.setQueryData<ThreadData>(key, (data) => upsertMessage(data, message));
    },
    onSettled: () => {
      // a refusal (409) leaves it failed, a new provider failure (502) has a new reason: read it back
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: composerKeys.state(chatId, companyId) });
    },
  });
}

/** An internal note: added to the thread, never sent to the customer. */
export function useAddNote(chatId: string) {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  return useMutation({
    mutationFn: (text: string) => composerApi.note(chatId, text),
    onSuccess: (note) => {
      queryClient.setQueryData<ThreadData>(chatKeys.thread(chatId, companyId), (data) => upsertMessage(data, note));
    },
  });
}

export interface ChatStatusEffects {
  /** The outcome is told by the screen (no success snackbar) for these changes. */
  quietWhen?: (body: ChatStatusInput) => boolean;
  /** After the server answered: the chat's new state. */
  onChanged?: (state: ChatState, body: ChatStatusInput) => void;
}

/**
 * Resolve, reopen or snooze the chat. Its summary takes the new status at once in every list
 * (a list of another status drops it, decision 0076), then the lists are asked again.
 */
export function useSetChatStatus(chatId: string, effects: ChatStatusEffects = {}) {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  return useMutation({
    mutationFn: (body: ChatStatusInput) => composerApi.setStatus(chatId, body, effects.quietWhen?.(body) ?? false),
    onSuccess: (state, body) => {
      queryClient.setQueryData(composerKeys.state(chatId, companyId), state);
      const current = cachedSummary(queryClient, companyId, chatId);
      if (current) storeChatSummary(queryClient, companyId, { ...current, status: state.status });
      void queryClient.invalidateQueries({ queryKey: chatKeys.inboxes() });
      void queryClient.invalidateQueries({ queryKey: chatKeys.countsAll() });
      effects.onChanged?.(state, body);
    },
  });
}
