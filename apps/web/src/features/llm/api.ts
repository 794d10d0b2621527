import type { LlmSettingsInput, LlmSettingsOut, LlmSummaryOut, LlmTestOut } from '@mostrador/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { llmKeys } from '../../lib/query-keys';

/**
 * /seguimiento-gpt's calls (decision 0046): the ledger's totals (`GET /llm-tracker/summary`), the
 * AI engine's settings and «Probar conexión». Keys carry the company: switching company never
 * shows the other one's figures.
 */
export function useLlmSummary(range: { from?: string; to?: string } = {}) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: llmKeys.summary(companyId, range),
    queryFn: ({ signal }) => api.get<LlmSummaryOut>('/llm-tracker/summary', { query: { from: range.from, to: range.to }, signal, overlay: false, notify: false }),
    placeholderData: keepPreviousData,
  });
}

export function useLlmSettings(enabled = true) {
  const { companyId } = useSession();
  return useQuery({ queryKey: llmKeys.settings(companyId), queryFn: () => api.get<LlmSettingsOut>('/llm/settings', { overlay: false, notify: false }), enabled });
}

export function useSaveLlmSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LlmSettingsInput) => api.put<LlmSettingsOut>('/llm/settings', body, { success: 'Ajustes del motor de IA guardados', notify: false }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: llmKeys.all }),
  });
}

/** POST /llm/settings/test: one call to the saved endpoint; what it answered or what to fix. */
export function useTestLlm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<LlmTestOut>('/llm/settings/test', undefined, { overlay: false, notify: false }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: llmKeys.summaries() }),
  });
}
