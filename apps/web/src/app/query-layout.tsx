import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client';

/**
 * Server state (TanStack Query) for every screen that reads it. A layout route rather
 * than a root provider, so the sign-in pages, which only post a form, do not load it.
 */
export function QueryLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}

export default QueryLayout;
