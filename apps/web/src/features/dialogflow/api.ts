import type { BotStatusOut, BotTestOut } from '@mostrador/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { botKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

const enc = encodeURIComponent;

/** The calls of /bots beyond the standard list (contract dialogflow-api.ts, decision 0053). */
export const botsApi = {
  status: (signal?: AbortSignal) => api.get<{ payload: BotStatusOut[] }>('/bots/status', { overlay: false, signal }),
  test: (id: string, text: string) => api.post<BotTestOut>(`/bots/${enc(id)}/test`, { text }, { overlay: false }),
};

/** Every bot's connection and counts (one call for the whole list), read again every 30 s. */
export function useBotStatus(id: string): { data?: BotStatusOut; isLoading: boolean; isError: boolean } {
  const { companyId } = useSession();
  const query = useQuery({
    queryKey: botKeys.status(companyId),
    queryFn: ({ signal }) => botsApi.status(signal),
    refetchInterval: 30_000,
  });
  return { data: query.data?.payload.find((s) => s.botId === id), isLoading: query.isLoading, isError: query.isError };
}
