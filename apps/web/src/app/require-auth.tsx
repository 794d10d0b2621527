import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/ui/full-page-spinner';
import { useSession } from '../lib/session';
import { storageReadable } from '../lib/storage';

/**
 * Guards the authenticated area: a token is required, except when localStorage is
 * unreadable, in which case access is allowed (SPEC §5). Waits while a stored session
 * is being restored on start.
 */
export function RequireAuth() {
  const { token, status } = useSession();
  const location = useLocation();
  if (!storageReadable()) return <Outlet />;
  if (status === 'restoring') return <FullPageSpinner />;
  if (!token) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return <Outlet />;
}
