import {
  CHAT_LIST_LIMIT,
  type ChatDetail,
  type ChatInboxQuery,
  type ChatMessage,
  type ChatSummary,
  type ChatThread,
  type ContactLead,
  type MassiveMessageResult,
  type Page,
  type Platform,
  type SendMessageInput,
  successMessages,
} from '@mostrador/contract';
import { useQuery } from '@tanstack/react-query';
import { API_BASE, api, buildHeaders, refreshSession } from '../../lib/api-client';
import { chatKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

const enc = encodeURIComponent;

/** The inbox's filters (chatInboxQuery without paging). */
export type InboxFilters = Omit<ChatInboxQuery, 'page' | 'limit'>;

/** The chat calls (packages/contract chat-api.ts). Lists show their own progress, so no overlay. */
export const chatApi = {
  inbox: (filters: InboxFilters, page: number, signal?: AbortSignal) =>
    api.get<Page<ChatSummary>>('/chats/get_chats', { query: { ...filters, page, limit: CHAT_LIST_LIMIT }, overlay: false, signal }),
  /** One chat with its latest analysis (decision 0092): the panel's «Análisis»; a failure shows there, not in the snackbar. */
  detail: (chatId: string, signal?: AbortSignal) => api.get<ChatDetail>(`/chats/${enc(chatId)}`, { overlay: false, notify: false, signal }),
  thread: (chatId: string, before: string | undefined, signal?: AbortSignal) =>
    api.get<ChatThread>(`/chats/${enc(chatId)}/messages`, { query: { before }, overlay: false, signal }),
  threadByLead: (leadId: string, platform: Platform) =>
    api.get<ChatThread>('/chats/get_all_by_lead_id', { query: { leadId, platform }, overlay: false }),
  byCleanLead: (cleanLeadId: string, signal?: AbortSignal) =>
    api.get<{ payload: ChatSummary[] }>('/chats/get_all_by_cleanlead_id', { query: { cleanLeadId }, overlay: false, notify: false, signal }),
  send: (chatId: string, body: SendMessageInput) => api.post<ChatMessage>(`/chats/${enc(chatId)}/messages`, body, { overlay: false }),
  markRead: (chatId: string) => api.post<ChatSummary>(`/chats/${enc(chatId)}/read`, undefined, { overlay: false, notify: false }),
  deleteMessage: (chatId: string, messageId: string) =>
    api.delete<{ status: number; _id: string }>(`/chats/${enc(chatId)}/messages/${enc(messageId)}`, { success: successMessages.deleted }),
  sendMassive: (body: { chatIds: string[]; text: string }) => api.post<MassiveMessageResult>('/chats/send_massive_message', body),
  /** A contact card of a message as a lead: found by its phone, or created (decision 0020). */
  contactLead: (chatId: string, messageId: string, index: number) =>
    api.post<ContactLead>(`/chats/${enc(chatId)}/messages/${enc(messageId)}/contact-lead`, { index }, { overlay: false }),
  /** PUT /leads/{id} with the changed fields: moves (status), assigns (agenteId) or labels the lead. */
  updateLead: (leadId: string, body: { status?: string; agenteId?: string | null; mostradorLabels?: string[] }) =>
    api.put<Record<string, unknown>>(`/leads/${enc(leadId)}`, body, { success: successMessages.updated, overlay: false }),
};

/**
 * The bytes of a provider's media (GET /chats/media/:id) with the session's headers, as a
 * blob: an <img> cannot send the bearer token itself. One refresh and retry after a 401.
 */
export async function fetchMediaBlob(messageId: string, signal?: AbortSignal): Promise<Blob> {
  const get = () => {
    const headers = buildHeaders({});
    headers.set('Accept', '*/*');
    return fetch(`${API_BASE}/chats/media/${enc(messageId)}`, { headers, signal, credentials: 'same-origin' });
  };
  let response = await get();
  if (response.status === 401 && (await refreshSession().catch(() => false))) response = await get();
  if (!response.ok) throw new Error(`media ${response.status}`);
  return response.blob();
}

/** The other chats of the same person (clean lead). */
export function usePersonChats(cleanLeadId: string | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: chatKeys.person(cleanLeadId ?? '', companyId),
    queryFn: ({ signal }) => chatApi.byCleanLead(cleanLeadId ?? '', signal),
    enabled: !!cleanLeadId,
    meta: { quiet: true },
  });
}

/**
 * The chat's analysis (GET /chats/:id). The analysis jobs write it some seconds after the
 * customer's messages and tell no one: it is asked again when a new message shows in the chat
 * (`lastMessageAt`) and every minute while the panel is open.
 */
/** The chat's latest CSAT survey (decision 0100): the same call and cache entry as its analysis. */
export function useChatCsat(chatId: string, lastMessageAt: string | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: [...chatKeys.detail(chatId, companyId), lastMessageAt ?? ''],
    queryFn: ({ signal }) => chatApi.detail(chatId, signal),
    select: (chat) => chat.csat,
    placeholderData: (previous, query) => (query?.queryKey[2] === chatId ? previous : undefined),
    refetchInterval: 60_000,
    meta: { quiet: true },
    retry: false,
  });
}

export function useChatAnalysis(chatId: string, lastMessageAt: string | undefined) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: [...chatKeys.detail(chatId, companyId), lastMessageAt ?? ''],
    queryFn: ({ signal }) => chatApi.detail(chatId, signal),
    select: (chat) => chat.analysis,
    // a new message's refetch keeps showing what was there (the same chat only)
    placeholderData: (previous, query) => (query?.queryKey[2] === chatId ? previous : undefined),
    refetchInterval: 60_000,
    meta: { quiet: true },
    retry: false,
  });
}
