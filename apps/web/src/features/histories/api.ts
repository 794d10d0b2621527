import type { SendOut, WhatsappTemplateList } from '@mostrador/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { historyKeys, massiveLogKeys } from '../../lib/query-keys';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';
import { serverRecipients } from '../campaigns/api';

/**
 * The message histories' calls (decision 0042): a massive send's send (status and live counts)
 * and its per-recipient report; the template names to filter by.
 */
const enc = encodeURIComponent;

/** A massive send still going out: its counts move by themselves. */
export const isSending = (status: unknown) => status === 'pending' || status === 'processing';

/**
 * GET /massive-messages-logs/{id}/send, kept live by `send.progress` (the event carries the send
 * as it is after each batch); when it finishes, the list is read again for the log's final counts.
 */
export function useMassiveSend(logId: string | undefined, enabled = true) {
  const queryClient = useQueryClient();
  const key = historyKeys.send(logId ?? '');
  const query = useQuery({
    queryKey: key,
    queryFn: () => api.get<SendOut>(`/massive-messages-logs/${enc(logId ?? '')}/send`, { overlay: false, notify: false }),
    enabled: enabled && !!logId,
    retry: false,
  });
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type === 'resync') {
      if (logId) void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    if (event.type !== 'send.progress' || event.send.kind !== 'massive' || !logId) return;
    const known = queryClient.getQueryData<SendOut>(key);
    if (!known || known._id !== event.send._id) return;
    queryClient.setQueryData(key, event.send);
    // the people shown of this send moved too
    void queryClient.invalidateQueries({ queryKey: historyKeys.recipients(logId) });
    if (isSending(known.status) && !isSending(event.send.status)) void queryClient.invalidateQueries({ queryKey: massiveLogKeys.lists() });
  });
  return query;
}

/** A massive send's people, from the server (status, search, pages; the CSV pages through all of them). */
export const massiveRecipients = (logId: string) => serverRecipients(`/massive-messages-logs/${enc(logId)}/recipients`, historyKeys.recipients(logId));

/** The names of the line's templates, for the template history's filter. */
export function useTemplateNames() {
  const { companyId } = useSession();
  return useQuery({
    queryKey: historyKeys.templateNames(companyId),
    queryFn: () => api.get<WhatsappTemplateList>('/whatsapp-templates', { query: { limit: 100 }, overlay: false, notify: false }),
    enabled: !!companyId,
    select: (list) => [...new Set(list.payload.map((t) => t.name))],
    staleTime: 60_000,
  });
}
