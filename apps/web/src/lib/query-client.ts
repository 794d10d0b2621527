import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { notifyNoResponse } from './api-client';

/**
 * The client passes "no response" errors to the caller (SPEC §8); TanStack Query is that
 * caller for every screen, so it tells the user once here. Queries that opt out of
 * notifications (`meta.quiet`) show the failure themselves.
 */
function onError(error: unknown, meta: Record<string, unknown> | undefined): void {
  notifyNoResponse(error, !!meta?.quiet);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onError(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => onError(error, mutation.meta) }),
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
