import type { GravityEntryOut, GravityFieldsOut, GravityFormStatus, GravitySyncOut, GravityTestOut, GravityWebhookSecretOut } from '@mostrador/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../lib/api-client';
import { gravityKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';

const enc = encodeURIComponent;

/** The calls of /gravity-forms beyond the standard list (contract gravity-forms-api.ts, decision 0050). */
export const gravityApi = {
  status: (id: string, signal?: AbortSignal) => api.get<GravityFormStatus>(`/gravity-forms/${enc(id)}/status`, { overlay: false, signal }),
  test: (id: string) => api.post<GravityTestOut>(`/gravity-forms/${enc(id)}/test`, undefined, { overlay: false }),
  fields: (id: string, signal?: AbortSignal) => api.get<GravityFieldsOut>(`/gravity-forms/${enc(id)}/fields`, { overlay: false, signal, notify: false }),
  saveMap: (id: string, fieldMap: Record<string, string>) => api.put(`/gravity-forms/${enc(id)}`, { fieldMap }, { overlay: false, success: 'Campos guardados' }),
  webhookSecret: (id: string) => api.post<GravityWebhookSecretOut>(`/gravity-forms/${enc(id)}/webhook-secret`, undefined, { overlay: false }),
  sync: (id: string) => api.post<GravitySyncOut>(`/gravity-forms/${enc(id)}/sync`, undefined, { overlay: false }),
  entries: (formId?: string, signal?: AbortSignal) =>
    api.get<{ payload: GravityEntryOut[] }>('/gravity-forms/entries', { query: { formId }, overlay: false, signal }),
};

export const syncGoing = (s?: GravitySyncOut) => s?.status === 'queued' || s?.status === 'running';

/**
 * A form's state (webhook, last pull, entries), live: GET …/status, then each `gravity.sync`
 * event of the events stream replaces its pull; asked again every few seconds while a pull goes,
 * in case the stream is down.
 */
export function useFormStatus(id: string) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: gravityKeys.status(id, companyId),
    queryFn: ({ signal }) => gravityApi.status(id, signal),
    refetchInterval: (q) => (syncGoing(q.state.data?.sync) ? 3000 : false),
  });
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type === 'gravity.sync' && event.sync.formId === id) {
      queryClient.setQueryData<GravityFormStatus>(gravityKeys.status(id, companyId), (old) => (old ? { ...old, sync: event.sync } : old));
      if (!syncGoing(event.sync)) {
        void queryClient.invalidateQueries({ queryKey: gravityKeys.status(id, companyId) });
        void queryClient.invalidateQueries({ queryKey: gravityKeys.allEntries() });
      }
    }
  });
  return query;
}

/**
 * Entries settled on the server (`gravity.entry`, sent once each committed: a webhook's entry made
 * into a lead, joined to one, or rejected) are read again: the form's counts with `formId`, else
 * the recent entries; also when the stream (re)opens. At most once every 300 ms, since a pull
 * settles its entries by the dozen.
 */
export function useEntriesLive(formId?: string) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useRealtimeEvents((event: RealtimeMessage) => {
    // back from offline, an entry may have been missed
    const settled = event.type === 'gravity.entry' && (formId === undefined || event.formId === formId);
    if ((!settled && event.type !== 'resync') || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: formId ? gravityKeys.status(formId, companyId) : gravityKeys.allEntries() });
    }, 300);
  });
}
