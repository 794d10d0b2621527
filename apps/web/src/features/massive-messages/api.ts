import type { MassSendInput, MassSendOut, Page, SegmentPreviewOut, SendCheckInput, SendCheckOut, SendOut, WhatsappTemplateList } from '@mostrador/contract';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api-client';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';
import { massKeys } from '../../lib/query-keys';

/**
 * The massive sends' calls (issue 13, decision 0043): the pre-send check as the form changes,
 * the send, and its progress (`send.progress` events over GET /sends/{id}).
 */
const enc = encodeURIComponent;

/** The form stays still this long before it is checked (typing does not ask on every key). */
export const CHECK_SETTLE_MS = 400;

/** `value` once it has not changed for `ms`. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the serialised value is the dependency
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}

/** POST /sends/check with the form as it settles; a newer form cancels the older check. `null`: nothing to check yet. */
export function useSendCheck(input: SendCheckInput | null) {
  const { companyId } = useSession();
  const settled = useSettled(input, CHECK_SETTLE_MS);
  const query = useQuery({
    queryKey: massKeys.check(companyId, settled),
    queryFn: ({ signal }) => api.post<SendCheckOut>('/sends/check', settled, { overlay: false, notify: false, signal }),
    enabled: !!settled && !!companyId,
    placeholderData: keepPreviousData,
    retry: false,
  });
  /** Still waiting for the form to settle, or for the answer to the form as it is. */
  const stale = JSON.stringify(input) !== JSON.stringify(settled) || query.isPlaceholderData;
  return { ...query, stale };
}

/** GET /marketing-campaigns/{id}/check: the same check for a campaign's next send. */
export function useCampaignCheck(campaignId: string, enabled = true) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: massKeys.campaignCheck(companyId, campaignId),
    queryFn: ({ signal }) => api.get<SendCheckOut>(`/marketing-campaigns/${enc(campaignId)}/check`, { overlay: false, notify: false, signal }),
    enabled: enabled && !!campaignId && !!companyId,
    retry: false,
  });
}

/** POST /sends: 202 with the send as queued; errors are shown by the form (no snackbar). */
export function useMassSend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MassSendInput) => api.post<MassSendOut>('/sends', body, { notify: false, success: true, idempotencyKey: crypto.randomUUID() }),
    // the line's use of its daily limit (and who already got what) moved: checks are read again
    onSuccess: () => queryClient.invalidateQueries({ queryKey: massKeys.checks() }),
  });
}

/** A send as it goes: GET /sends/{id}, then each `send.progress` event of it. */
export function useSendProgress(sendId: string | undefined, initial?: SendOut) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: massKeys.send(sendId ?? ''),
    queryFn: ({ signal }) => api.get<SendOut>(`/sends/${enc(sendId ?? '')}`, { overlay: false, notify: false, signal }),
    enabled: !!sendId,
    initialData: initial,
    staleTime: 0,
  });
  useRealtimeEvents((event: RealtimeMessage) => {
    if (!sendId) return;
    if (event.type === 'send.progress' && event.send._id === sendId) {
      queryClient.setQueryData(massKeys.send(sendId), event.send);
      if (event.send.status !== 'pending' && event.send.status !== 'processing') void queryClient.invalidateQueries({ queryKey: massKeys.checks() });
    }
    else if (event.type === 'resync') void queryClient.invalidateQueries({ queryKey: massKeys.send(sendId) });
  });
  return query;
}

/** The line's approved WhatsApp templates (GET /whatsapp-templates?status=APPROVED). */
export function useApprovedTemplates(enabled = true) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: massKeys.templates(companyId),
    queryFn: ({ signal }) => api.get<WhatsappTemplateList>('/whatsapp-templates', { query: { status: 'APPROVED', limit: 100 }, overlay: false, notify: false, signal }),
    enabled: enabled && !!companyId,
    staleTime: 60_000,
  });
}

/** An Imagina template as the list answers it. */
export interface ImaginaTemplate {
  _id: string;
  name: string;
  language: string;
  category: string;
  body: string;
  status?: 'draft' | 'approved' | 'rejected';
  whatsappTemplate?: string;
}

/** The company's Imagina templates (GET /imagina_template_messages, the standard list). */
export function useImaginaTemplates(enabled = true) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: massKeys.imagina(companyId),
    queryFn: ({ signal }) => api.get<Page<ImaginaTemplate>>('/imagina_template_messages', { query: { page: 1, limit: 200 }, overlay: false, notify: false, signal }),
    enabled: enabled && !!companyId,
    staleTime: 30_000,
  });
}

/** Segments counted beside their names (one POST /marketing-segments/preview each) up to this many. */
const SIZED_SEGMENTS = 30;

export interface SegmentOption {
  _id: string;
  name: string;
  /** People in it now (absent while counting, or beyond SIZED_SEGMENTS). */
  size?: number;
}

/** The company's segments with how many people each holds now. */
export function useSegmentsWithSize(enabled = true) {
  const { companyId } = useSession();
  const list = useQuery({
    queryKey: massKeys.segmentsWithSize(companyId),
    queryFn: ({ signal }) => api.get<Page<{ _id: string; name: string; filters?: Record<string, unknown> }>>('/marketing-segments', { query: { page: 1, limit: 200 }, overlay: false, notify: false, signal }),
    enabled: enabled && !!companyId,
    staleTime: 60_000,
  });
  const segments = list.data?.payload ?? [];
  const sizes = useQueries({
    queries: segments.slice(0, SIZED_SEGMENTS).map((segment) => ({
      queryKey: massKeys.segmentPreview(JSON.stringify(segment.filters ?? {})),
      queryFn: ({ signal }: { signal: AbortSignal }) => api.post<SegmentPreviewOut>('/marketing-segments/preview', { filters: segment.filters ?? {} }, { overlay: false, notify: false, signal }),
      staleTime: 60_000,
      retry: false,
    })),
  });
  const options: SegmentOption[] = segments.map((s, i) => ({ _id: s._id, name: s.name, size: sizes[i]?.data?.count }));
  return { options, loading: list.isLoading };
}
