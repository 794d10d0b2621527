import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { selectCompany } from './session';

/** Selects a company (kept in localStorage) and refetches every query under the new tenant. */
export function useSwitchCompany(): (companyId: string) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (companyId: string) => {
      selectCompany(companyId);
      void queryClient.invalidateQueries();
    },
    [queryClient],
  );
}
