import { NetworkError, refreshSession } from './api-client';
import { clearSession, sessionStore, setSessionStatus } from './session';

/**
 * SPEC §4: a token in storage signs the user in on start. GET /api/token rebuilds user,
 * token and companies, keeping the selected company while it is still a membership.
 * A refused refresh signs out quietly; an unreachable server keeps the stored session.
 */
export async function restoreSession(): Promise<void> {
  if (!sessionStore.get().token) return;
  setSessionStatus('restoring');
  try {
    const ok = await refreshSession();
    if (!ok) clearSession();
  } catch (error) {
    if (!(error instanceof NetworkError)) clearSession();
  } finally {
    setSessionStatus('ready');
  }
}
