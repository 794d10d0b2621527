import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { ConfirmProvider } from '../components/ui/confirm-dialog';
import { FeedbackHost } from '../components/ui/feedback-host';
import { theme } from './theme';

/** Theme, confirmation dialog and the global feedback; server state is in QueryLayout. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ConfirmProvider>
        {children}
        <FeedbackHost />
      </ConfirmProvider>
    </ThemeProvider>
  );
}
