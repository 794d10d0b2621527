import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/ui/full-page-spinner';
import { NavigatorBridge } from './navigator-bridge';
import { RequireAuth } from './require-auth';
import { RouteErrorBoundary } from './route-error';

/*
 * Every screen is a lazy route, so /login loads only what it needs (≤ 150 kB gzip).
 * Paths are the spec's Spanish routes (SPEC §2). A new screen adds one lazy import and
 * one <Route>, plus one line in layout/nav-items.ts.
 */
const LoginPage = lazy(() => import('../features/auth/login-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const RegisterCorporationPage = lazy(() => import('../features/corporation-registration/register-corporation-page'));
const QueryLayout = lazy(() => import('./query-layout'));
const AppShell = lazy(() => import('./layout/app-shell'));
const DiagnosticsPage = lazy(() => import('../features/diagnostics/diagnostics-page'));
const ProfilePage = lazy(() => import('../features/profile/profile-page'));
const NotFoundPage = lazy(() => import('../features/not-found/not-found-page'));

export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <NavigatorBridge />
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route index element={<Navigate to="/login" replace />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="recuperar-contrasena" element={<ForgotPasswordPage />} />
          <Route path="restablecer-contrasena" element={<ResetPasswordPage />} />
          <Route element={<QueryLayout />}>
            <Route path="corporation/:token" element={<RegisterCorporationPage />} />
            <Route element={<AppShell />}>
              <Route path="test" element={<DiagnosticsPage />} />
              <Route element={<RequireAuth />}>
                <Route path="perfil" element={<ProfilePage />} />
              </Route>
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
