import type { MailchimpAccountOut, MailchimpOutcome, MailchimpReportOut, MailchimpSyncOut, MailchimpTestOut } from '@mostrador/contract';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { resourceKeys, mailchimpKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';

const enc = encodeURIComponent;

/** The Mailchimp calls of decision 0051 (contract mailchimp-api.ts). */
export const mailchimpApi = {
  accounts: (signal?: AbortSignal) => api.get<{ payload: MailchimpAccountOut[] }>('/mailchimp/accounts', { overlay: false, signal }),
  test: (id: string) => api.post<MailchimpTestOut>(`/mailchimps/${enc(id)}/test`, undefined, { overlay: false }),
  pull: (id: string) => api.post<{ msg: string; sync: MailchimpSyncOut }>(`/mailchimps/${enc(id)}/pull`, undefined, { overlay: false, success: true }),
  syncs: (signal?: AbortSignal) => api.get<{ payload: MailchimpSyncOut[] }>('/mailchimp/syncs', { overlay: false, signal }),
  report: (id: string, outcome: MailchimpOutcome | '', page: number, signal?: AbortSignal) =>
    api.get<MailchimpReportOut>(`/mailchimp/syncs/${enc(id)}/report`, { query: { ...(outcome ? { outcome } : {}), page }, overlay: false, signal }),
};

export const isActiveSync = (sync: MailchimpSyncOut) => sync.status === 'queued' || sync.status === 'running';

/** A sync's newer state into the cached list (newest first); an older event never goes back. */
export function withSync(list: MailchimpSyncOut[] | undefined, sync: MailchimpSyncOut): MailchimpSyncOut[] {
  const known = (list ?? []).find((s) => s._id === sync._id);
  if (known && known.done > sync.done && isActiveSync(sync)) return list ?? [];
  return [sync, ...(list ?? []).filter((s) => s._id !== sync._id)].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export function storeSync(queryClient: QueryClient, companyId: string | null, sync: MailchimpSyncOut) {
  queryClient.setQueryData<{ payload: MailchimpSyncOut[] }>(mailchimpKeys.syncs(companyId), (data) => ({ payload: withSync(data?.payload, sync) }));
}

export function useMailchimpAccounts() {
  const { companyId } = useSession();
  return useQuery({ queryKey: mailchimpKeys.accounts(companyId), queryFn: ({ signal }) => mailchimpApi.accounts(signal) });
}

/**
 * The company's Mailchimp syncs, live: GET /mailchimp/syncs, then each `mailchimp.sync` event of
 * the events stream replaces its sync; asked again every few seconds while one goes (in case the
 * stream is down). A finished sync refreshes the contacts and tags lists.
 */
export function useMailchimpSyncs() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: mailchimpKeys.syncs(companyId),
    queryFn: ({ signal }) => mailchimpApi.syncs(signal),
    refetchInterval: (q) => (q.state.data?.payload.some(isActiveSync) ? 4000 : false),
  });
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type === 'mailchimp.sync') {
      storeSync(queryClient, companyId, event.sync);
      if (!isActiveSync(event.sync)) {
        for (const key of ['mailchimp-contacts', 'mailchimp-tags']) void queryClient.invalidateQueries({ queryKey: resourceKeys(key).lists() });
      }
    } else if (event.type === 'resync') void queryClient.invalidateQueries({ queryKey: mailchimpKeys.syncs(companyId) });
  });
  return query;
}

export function usePull() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (id: string) => mailchimpApi.pull(id), onSuccess: ({ sync }) => storeSync(queryClient, companyId, sync) });
}

export function useSyncReport(id: string | undefined, outcome: MailchimpOutcome | '', page: number) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: mailchimpKeys.report(id ?? '', outcome, page, companyId),
    queryFn: ({ signal }) => mailchimpApi.report(id ?? '', outcome, page, signal),
    enabled: !!id,
  });
}
