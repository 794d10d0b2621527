import type { ChunkDetail, ProgrammedChunks, RecipientOut, RecipientStatus, SendOut } from '@mostrador/contract';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../lib/api-client';
import { resourceKeys, massKeys, campaignKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';

/**
 * The campaign screen's calls (issue 13, decision 0041): the plan of chunks, the chunk actions,
 * who is in a chunk and each recipient's outcome. `send.progress` events keep the plan live.
 */
const enc = encodeURIComponent;

export interface RecipientList {
  payload: RecipientOut[];
  total: number;
  page: number;
  limit: number;
}

/** A send is done moving (its counts no longer change by themselves, except delivered/read). */
export const isActive = (send: SendOut) => send.status === 'pending' || send.status === 'processing';

/** Puts one chunk as it is now into the plan (replacing the one of the same page). */
function storeChunk(queryClient: QueryClient, campaignId: string, companyId: string | null, chunk: SendOut) {
  queryClient.setQueryData<ProgrammedChunks>(campaignKeys.plan(campaignId, companyId), (plan) => {
    if (!plan) return plan;
    const others = plan.payload.filter((c) => c._id !== chunk._id && c.chunkPage !== chunk.chunkPage);
    return { ...plan, payload: [...others, chunk] };
  });
}

/** GET /marketing-campaigns/{id}/programmed-chunks, kept live by `send.progress`. */
export function useCampaignPlan(campaignId: string, enabled = true) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const key = campaignKeys.plan(campaignId, companyId);
  const refresh = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(refresh.current), []);
  const query = useQuery({
    queryKey: key,
    queryFn: () => api.get<ProgrammedChunks>(`/marketing-campaigns/${enc(campaignId)}/programmed-chunks`, { overlay: false }),
    enabled: enabled && !!campaignId,
  });
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type === 'send.progress') {
      const send = event.send;
      if (send.kind !== 'campaign' || send.campaignId !== campaignId) return;
      const before = queryClient.getQueryData<ProgrammedChunks>(key)?.payload.find((c) => c._id === send._id);
      storeChunk(queryClient, campaignId, companyId, send);
      // the recipients shown of this chunk moved too
      void queryClient.invalidateQueries({ queryKey: massKeys.send(send._id) });
      // a chunk that started or finished changes the campaign's own status
      if (!before || before.status !== send.status) void queryClient.invalidateQueries({ queryKey: key });
    } else if (event.type === 'message.updated') {
      // delivered and read come from the chat messages the status webhooks move (the outbox row's
      // id is its message's): while a chunk has messages out, the plan is read again, at most every 3 s
      const plan = queryClient.getQueryData<ProgrammedChunks>(key);
      if (!plan?.payload.some((c) => c.counts.sent > 0 || c.counts.delivered > 0) || refresh.current) return;
      refresh.current = setTimeout(() => {
        refresh.current = undefined;
        void queryClient.invalidateQueries({ queryKey: key });
      }, 3000);
    } else if (event.type === 'resync') void queryClient.invalidateQueries({ queryKey: key });
  });
  return query;
}

export type ChunkAction = 'send_chunk' | 'stop_scheduled_chunk' | 'stop_manually_chunk' | 'resume_chunk' | 'retry_failed_chunk';

/** The calls that change one chunk: the server's `msg` goes to the success snackbar, the chunk as it is now into the plan. */
export function useChunkAction(campaignId: string) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, body }: { action: ChunkAction; body: Record<string, unknown> }) =>
      api.post<{ msg: string; chunk: SendOut }>(`/marketing-campaigns/${action}`, body, { success: true }),
    onSuccess: ({ chunk }) => storeChunk(queryClient, campaignId, companyId, chunk),
    onSettled: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: campaignKeys.plan(campaignId, companyId) }),
      queryClient.invalidateQueries({ queryKey: resourceKeys('marketing-campaigns').lists() }),
    ]),
  });
}

/** «Detener todos los programados». */
export function useStopAllScheduled(campaignId: string) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ msg: string; stopped: number }>('/marketing-campaigns/stop_all_scheduled_chunks_for_campaign', { campaignId }, { success: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: campaignKeys.plan(campaignId, companyId) }),
  });
}

/** POST /marketing-campaigns/chunk_detail: who would be in a chunk (before it is sent) or who was (≤ 1000). */
export function useChunkDetail(campaignId: string, chunkPage: number, enabled: boolean) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: campaignKeys.chunkDetail(campaignId, chunkPage, companyId),
    queryFn: () => api.post<ChunkDetail>('/marketing-campaigns/chunk_detail', { campaignId, chunkPage }, { overlay: false }),
    enabled,
  });
}

/** GET /sends/{id}/recipients: a sent chunk's report, filtered and paged by the server. */
export function useRecipients(sendId: string | undefined, query: { status?: RecipientStatus; page: number; limit: number }) {
  return useQuery({
    queryKey: campaignKeys.recipients(sendId ?? '', query),
    queryFn: () => api.get<RecipientList>(`/sends/${enc(sendId ?? '')}/recipients`, { query: { ...query }, overlay: false }),
    enabled: !!sendId,
    placeholderData: (previous) => previous,
  });
}

/** The whole chunk for the CSV (a chunk holds at most 1000 people). */
export const fetchChunkDetail = (campaignId: string, chunkPage: number) =>
  api.post<ChunkDetail>('/marketing-campaigns/chunk_detail', { campaignId, chunkPage }, { overlay: false });

/** What a report is asked: a status, a search on name or phone, a page. */
export interface RecipientQuery {
  status?: RecipientStatus;
  q?: string;
  page: number;
  limit: number;
}

/**
 * Where a report's people come from: a chunk's (`/sends/{id}/recipients`), a chunk's preview
 * (chunk_detail, filtered here), a massive send's (`/massive-messages-logs/{id}/recipients`).
 */
export interface RecipientFetcher {
  /** The report's query key; the query is appended. */
  key: readonly unknown[];
  page: (query: RecipientQuery) => Promise<RecipientList>;
  /** Everyone, for the CSV (`preview`: the people are who would receive it). */
  all: () => Promise<{ rows: RecipientOut[]; preview?: boolean }>;
}

/** A report read from the server page by page: GET `path?status&q&page&limit` (its `all` pages through it for the CSV). */
export function serverRecipients(path: string, key: readonly unknown[]): RecipientFetcher {
  const page = (query: RecipientQuery) => api.get<RecipientList>(path, { query: { ...query }, overlay: false });
  return {
    key,
    page,
    all: async () => {
      const rows: RecipientOut[] = [];
      for (let p = 1; ; p++) {
        const next = await page({ page: p, limit: 500 });
        rows.push(...next.payload);
        if (next.payload.length < 500 || rows.length >= next.total) return { rows };
      }
    },
  };
}
