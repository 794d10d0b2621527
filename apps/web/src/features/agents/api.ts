import type { AgentWorkload, AssignmentSettings } from '@mostrador/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { resourceKeys, agentKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

const enc = encodeURIComponent;

/** The agent calls of decision 0025 (contract assignment.ts). */
export const agentsApi = {
  workload: (signal?: AbortSignal) => api.get<{ payload: AgentWorkload[] }>('/agentes/workload', { overlay: false, notify: false, signal }),
  reassign: (id: string, agenteId: string | null) =>
    api.post<{ msg: string; leads: number; cleanLeads: number }>(`/agentes/${enc(id)}/reassign`, { agenteId }, { success: true }),
  settings: (signal?: AbortSignal) => api.get<AssignmentSettings>('/assignment/settings', { overlay: false, notify: false, signal }),
  saveSettings: (body: Partial<AssignmentSettings>) => api.put<AssignmentSettings>('/assignment/settings', body, { success: 'Registro actualizado con éxito' }),
};

/** What each agent holds (leads, clean leads, chats), by agent id. */
export function useWorkload() {
  const { companyId } = useSession();
  const query = useQuery({
    queryKey: agentKeys.workload(companyId),
    queryFn: ({ signal }) => agentsApi.workload(signal),
    staleTime: 30_000,
    meta: { quiet: true },
  });
  return new Map((query.data?.payload ?? []).map((w) => [w.agenteId, w]));
}

export function useAssignmentSettings(enabled: boolean) {
  const { companyId } = useSession();
  return useQuery({ queryKey: agentKeys.settings(companyId), queryFn: ({ signal }) => agentsApi.settings(signal), enabled, meta: { quiet: true } });
}

/** After a reassignment every list showing who holds what is stale: agents, leads, chats. */
export function useReassign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, agenteId }: { id: string; agenteId: string | null }) => agentsApi.reassign(id, agenteId),
    onSuccess: () => {
      for (const key of ['agentes', 'leads', 'clean-leads', 'chats']) void queryClient.invalidateQueries({ queryKey: resourceKeys(key).all });
    },
  });
}
