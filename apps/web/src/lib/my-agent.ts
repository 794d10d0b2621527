import type { MyAgent } from '@mostrador/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { myAgentKeys } from './query-keys';
import { useSession } from './session';

export const myAgentApi = {
  get: () => api.get<MyAgent>('/assignment/me', { overlay: false, notify: false }),
  setAvailable: (available: boolean) => api.put<MyAgent>('/assignment/me', { available }, { overlay: false }),
};

/**
 * The agent the signed-in user is in this company (null: they are none). The user menu shows
 * Disponible / Ausente with it, the inbox opens on "Mías" for it.
 */
export function useMyAgent() {
  const { companyId, token } = useSession();
  return useQuery({
    queryKey: myAgentKeys.detail(companyId ?? ''),
    queryFn: myAgentApi.get,
    enabled: !!token && !!companyId,
    staleTime: 60_000,
    meta: { quiet: true },
  });
}

/** Disponible / Ausente: only available agents are dealt new chats by the automatic assignment. */
export function useSetAvailable() {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  return useMutation({
    mutationFn: myAgentApi.setAvailable,
    onSuccess: (data) => queryClient.setQueryData(myAgentKeys.detail(companyId ?? ''), data),
  });
}
