import type { AudienceOverview, AudienceOverviewItem, AudienceSendOut, audienceSendResult, sendToAudienceInput } from '@mostrador/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api-client';
import { resourceKeys, audienceKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';

/**
 * /facebook-audiencias (decision 0048): the audiences' state at Facebook, members and last send
 * (GET /facebook-audiences/overview, kept live by `audience.progress`), a send's history, «Crear
 * en Facebook», «Reintentar» and the upload by labels (POST /leads|clean-leads/send-to-audience).
 * The overview sits under the resource's list keys: creating or deleting an audience reads it again.
 */
const enc = encodeURIComponent;

export type AudienceKind = 'leads' | 'clean-leads';
export type AudienceSendResult = z.infer<typeof audienceSendResult>;
export const moving = (s: AudienceSendOut | null | undefined) => s?.status === 'queued' || s?.status === 'uploading';

/** Every audience's members and last send, and the ad account they belong to (one read shared by the screen's cells). */
export function useAudienceOverview() {
  const { companyId } = useSession();
  return useQuery({
    queryKey: audienceKeys.overview(companyId),
    queryFn: ({ signal }) =>
      api.get<AudienceOverview>('/facebook-audiences/overview', {
        overlay: false,
        notify: false,
        signal,
      }),
    enabled: !!companyId,
    staleTime: 5_000,
  });
}

/** Applies each `audience.progress` to the overview as it comes (mounted once, by the screen's panel). */
export function useAudienceProgressLive() {
  const { companyId } = useSession();
  const client = useQueryClient();
  const key = audienceKeys.overview(companyId);
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type === 'resync') {
      void client.invalidateQueries({ queryKey: key });
      return;
    }
    if (event.type !== 'audience.progress') return;
    const send = event.send;
    client.setQueryData<AudienceOverview>(
      key,
      (old) =>
        old && {
          ...old,
          payload: old.payload.map((a) =>
            a._id !== send.audienceId || (a.lastSend && a.lastSend._id !== send._id && a.lastSend.createdAt > send.createdAt)
              ? a
              : {
                  ...a,
                  lastSend: send,
                  facebookAudienceId: send.facebookAudienceId ?? a.facebookAudienceId,
                },
          ),
        },
    );
    // members and the history move with each batch: read again when it ends
    if (!moving(send) && send.audienceId) {
      void client.invalidateQueries({ queryKey: key });
      void client.invalidateQueries({
        queryKey: audienceKeys.sends(companyId, send.audienceId),
      });
    }
  });
}

/** One audience's entry of the overview (undefined while it loads). */
export function useAudienceEntry(audienceId: string): {
  entry?: AudienceOverviewItem;
  overview?: AudienceOverview;
  isError: boolean;
} {
  const query = useAudienceOverview();
  return {
    entry: query.data?.payload.find((a) => a._id === audienceId),
    overview: query.data,
    isError: query.isError,
  };
}

export function useAudienceSends(audienceId: string, enabled: boolean) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: audienceKeys.sends(companyId, audienceId),
    queryFn: ({ signal }) => api.get<{ payload: AudienceSendOut[] }>(`/facebook-audiences/${enc(audienceId)}/sends`, { overlay: false, notify: false, signal }),
    enabled: enabled && !!companyId,
  });
}

export function useCreateAtFacebook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (audienceId: string) => api.post<AudienceOverviewItem & { msg: string }>(`/facebook-audiences/${enc(audienceId)}/create-at-facebook`, undefined, { success: true }),
    onSuccess: () =>
      client.invalidateQueries({
        queryKey: resourceKeys('facebook-audiences').lists(),
      }),
  });
}

export function useRetrySend() {
  const { companyId } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sendId: string) => api.post<AudienceSendOut & { msg: string }>(`/audience-sends/${enc(sendId)}/retry`, undefined, { success: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: audienceKeys.overview(companyId) }),
  });
}

/** POST /{kind}/send-to-audience; the 400's fields are shown by the form. */
export function useUploadByLabels() {
  const { companyId } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, body }: { kind: AudienceKind; body: z.input<typeof sendToAudienceInput> }) =>
      api.post<AudienceSendResult>(`/${kind}/send-to-audience`, body, {
        success: true,
        notify: false,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: audienceKeys.overview(companyId) }),
  });
}
