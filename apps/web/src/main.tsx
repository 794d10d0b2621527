// first: zod must not probe eval under the CSP (lib/zod-jitless.ts)
import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/app-routes';
import { AppProviders } from './app/providers';
import { restoreSession } from './lib/restore-session';

// Analytics only with `?gtagid=` (SPEC §2): its code is not part of the first load otherwise.
if (new URLSearchParams(window.location.search).has('gtagid')) {
  void import('./lib/gtag').then(({ loadGtagFromSearch }) => loadGtagFromSearch(window.location.search));
}
void restoreSession();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
