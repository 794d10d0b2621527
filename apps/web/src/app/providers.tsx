import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConfirmProvider } from '../components/ui/confirm-dialog';
import { FeedbackHost } from '../components/ui/feedback-host';
import { queryClient as defaultQueryClient } from '../lib/query-client';
import { theme } from './theme';

export function AppProviders({ children, queryClient = defaultQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <ConfirmProvider>
          {children}
          <FeedbackHost />
        </ConfirmProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
