import type { GoogleConsentOut, GoogleCredentialsInput, GoogleLeadsOut, GooglePhoneOut, GoogleSyncOut } from '@mostrador/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { googleKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';

const enc = encodeURIComponent;

/** The calls of the phones' Google contacts (contract google-people-api.ts, decision 0052). */
export const googleApi = {
  phones: (signal?: AbortSignal) => api.get<{ payload: GooglePhoneOut[] }>('/google-people/phones', { overlay: false, signal, notify: false }),
  phone: (id: string, signal?: AbortSignal) => api.get<GooglePhoneOut>(`/google-people/phones/${enc(id)}`, { overlay: false, signal, notify: false }),
  leads: (id: string, page: number, q: string, signal?: AbortSignal) =>
    api.get<GoogleLeadsOut>(`/google-people/phones/${enc(id)}/leads`, { query: { page: String(page), limit: '20', filter: q || undefined }, overlay: false, signal }),
  /** The client id and secret, posted once: the answer is Google's consent URL (never the secret). */
  credentials: (id: string, body: GoogleCredentialsInput) => api.post<GoogleConsentOut>(`/google-people/phones/${enc(id)}/credentials`, body, { overlay: false, notify: false }),
  authorize: (id: string) => api.post<GoogleConsentOut>(`/google-people/phones/${enc(id)}/authorize`, undefined, { overlay: false }),
  disconnect: (id: string) => api.delete<{ msg: string }>(`/google-people/phones/${enc(id)}`, { success: true }),
  sync: (id: string) => api.post<GoogleSyncOut>(`/google-people/phones/${enc(id)}/sync`, undefined, { overlay: false }),
};

export const syncGoing = (s?: GoogleSyncOut) => s?.status === 'en-cola' || s?.status === 'en-curso';

/** Leaves for Google's consent page (or the demo's sandbox one). */
export function goToConsent(url: string): void {
  window.location.assign(url);
}

/** Every phone's Google state, refreshed when a sync moves on. */
export function useGooglePhones() {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: googleKeys.phones(companyId), queryFn: ({ signal }) => googleApi.phones(signal), staleTime: 10_000 });
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type === 'google.sync' && !syncGoing(event.sync)) void queryClient.invalidateQueries({ queryKey: googleKeys.phones(companyId) });
  });
  return query;
}

/** One phone's Google state, live: each `google.sync` event of the stream replaces its last sync; asked again while a sync goes, in case the stream is down. */
export function useGooglePhone(id: string) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: googleKeys.phone(id, companyId),
    queryFn: ({ signal }) => googleApi.phone(id, signal),
    refetchInterval: (q) => (syncGoing(q.state.data?.lastSync) ? 3000 : false),
  });
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type !== 'google.sync' || event.sync.telefonoId !== id) return;
    queryClient.setQueryData<GooglePhoneOut>(googleKeys.phone(id, companyId), (old) => (old ? { ...old, lastSync: event.sync } : old));
    if (!syncGoing(event.sync)) void queryClient.invalidateQueries({ queryKey: googleKeys.all });
  });
  return query;
}
