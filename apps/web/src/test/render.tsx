import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/providers';
import { NavigatorBridge } from '../app/navigator-bridge';

/** Renders `ui` the way the app does: theme, feedback, confirm dialog, router, query client. */
export function renderApp(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <NavigatorBridge />
          {children}
        </MemoryRouter>
      </QueryClientProvider>
    </AppProviders>
  );
  return { queryClient, ...render(ui, { wrapper: Wrapper }) };
}

/** A JSON Response as the server sends it. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
