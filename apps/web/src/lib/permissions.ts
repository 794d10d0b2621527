import type { Action, Module, Role } from '@mostrador/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from './api-client';
import { queryKeys } from './query-keys';
import { useSession } from './session';

/** `GET /api/permissions`: the caller's role and what it may do per module in the current company. */
export interface PermissionsResponse {
  role: Role;
  permissions: Partial<Record<Module, Action[]>>;
}

export const permissionsApi = {
  get: () => api.get<PermissionsResponse>('/permissions', { overlay: false, notify: false }),
};

export interface Permissions {
  /** The answer arrived, or the call failed (then the server alone guards, and the UI shows everything). */
  ready: boolean;
  role: Role | undefined;
  /** Whether the role may do `action` in `module`. False until the answer arrives. */
  can: (module: Module, action: Action) => boolean;
  /** For the drawer: true while loading, so it does not flash empty. */
  mayList: (module: Module) => boolean;
}

/**
 * What the signed-in user may do in the selected company. New, Edit and Delete are hidden
 * when the role may not; the drawer hides screens it may not list. The server checks every
 * call anyway: when this answer is missing, the UI shows everything and lets it refuse.
 */
export function usePermissions(): Permissions {
  const { companyId, token } = useSession();
  const query = useQuery({
    queryKey: queryKeys.permissions.detail(companyId ?? ''),
    queryFn: permissionsApi.get,
    enabled: !!token,
    staleTime: 5 * 60_000,
    meta: { quiet: true },
  });
  const data = query.data;
  const failed = query.isError;
  const can = useCallback(
    (module: Module, action: Action) => {
      if (failed) return true;
      if (!data) return false;
      return data.permissions?.[module]?.includes(action) ?? false;
    },
    [data, failed],
  );
  const mayList = useCallback((module: Module) => (data ? can(module, 'list') : true), [data, can]);
  return { ready: !!data || failed, role: data?.role, can, mayList };
}
