import { Navigate, Outlet, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/ui/full-page-spinner';
import { RequireAuth } from './require-auth';
import { RouteError } from './route-error';

/**
 * Every screen is a lazy route so /login loads only what it needs. Paths are the spec's
 * Spanish routes (SPEC §2).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: Outlet,
    ErrorBoundary: RouteError,
    HydrateFallback: FullPageSpinner,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      {
        path: 'login',
        lazy: async () => ({ Component: (await import('../features/auth/login-page')).LoginPage }),
      },
      {
        path: 'recuperar-contrasena',
        lazy: async () => ({ Component: (await import('../features/auth/forgot-password-page')).ForgotPasswordPage }),
      },
      {
        path: 'restablecer-contrasena',
        lazy: async () => ({ Component: (await import('../features/auth/reset-password-page')).ResetPasswordPage }),
      },
      {
        path: 'corporation/:token',
        lazy: async () => ({
          Component: (await import('../features/corporation-registration/register-corporation-page'))
            .RegisterCorporationPage,
        }),
      },
      {
        lazy: async () => ({ Component: (await import('./layout/app-shell')).AppShell }),
        children: [
          {
            path: 'test',
            lazy: async () => ({ Component: (await import('../features/diagnostics/diagnostics-page')).DiagnosticsPage }),
          },
          {
            Component: RequireAuth,
            children: [
              {
                path: 'perfil',
                lazy: async () => ({ Component: (await import('../features/profile/profile-page')).ProfilePage }),
              },
            ],
          },
        ],
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('../features/not-found/not-found-page')).NotFoundPage }),
      },
    ],
  },
];
