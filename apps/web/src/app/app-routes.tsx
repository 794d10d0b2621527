import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/ui/full-page-spinner';
import { NavigatorBridge } from './navigator-bridge';
import { RouteErrorBoundary } from './route-error';

/*
 * Every screen is a lazy route, so /login loads only what it needs (≤ 150 kB gzip).
 * Paths are the spec's Spanish routes (SPEC §2). The sign-in pages are listed here; the
 * authenticated area and the not-found page come from screen-routes.tsx, which generates
 * them from app/screens.ts (a new screen adds a line there, not here).
 */
const LoginPage = lazy(() => import('../features/auth/login-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const RegisterCorporationPage = lazy(() => import('../features/corporation-registration/register-corporation-page'));
const DiasFrecuenciaPage = lazy(() => import('../features/dias-frecuencia/dias-frecuencia-page'));
const QueryLayout = lazy(() => import('./query-layout'));
const ScreenRoutes = lazy(() => import('./screen-routes'));

/** Leaves the staff app for the public shop's own page, at the same address. */
function ShopHandOff() {
  const { pathname, search } = useLocation();
  // once: a build without shop.html answers this page again, which must not reload forever
  const tried = sessionStorage.getItem('mostrador-shop-handoff') === pathname;
  if (tried) {
    sessionStorage.removeItem('mostrador-shop-handoff');
    return <ScreenRoutes />;
  }
  sessionStorage.setItem('mostrador-shop-handoff', pathname);
  window.location.replace(`${pathname}${search}`);
  return <FullPageSpinner />;
}

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
            {/* a customer's link (decision 0017): /dias-frecuencia/{token}, also /dias-frecuencia?t={token} */}
            <Route path="dias-frecuencia" element={<DiasFrecuenciaPage />} />
            <Route path="dias-frecuencia/:token" element={<DiasFrecuenciaPage />} />
          </Route>
          {/* the public shop is its own page (shop.html, decision 0031): a link inside the app loads it */}
          <Route path="catalogo-digital/:id?" element={<ShopHandOff />} />
          <Route path="ordenes/:token" element={<ShopHandOff />} />
          <Route path="*" element={<ScreenRoutes />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
