import type { Membership, SessionUser } from '@mostrador/contract';
import { createExternalStore, useExternalStore } from './external-store';
import { storage } from './storage';

/** localStorage keys of the session (SPEC §4: logout clears all four). */
export const sessionKeys = {
  token: 'token',
  tokenExpiry: 'tokenExpiry',
  user: 'user',
  company: 'companyId',
} as const;

export type SessionStatus = 'restoring' | 'ready';

export interface SessionState {
  token: string | null;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number | null;
  user: SessionUser | null;
  companyId: string | null;
  status: SessionStatus;
}

/** What login, refresh and a password change answer with. */
export interface SessionPayload {
  token: string;
  expiresIn: number;
  user: SessionUser;
}

function readStored(): SessionState {
  const expiry = Number(storage.get(sessionKeys.tokenExpiry));
  return {
    token: storage.get(sessionKeys.token),
    expiresAt: Number.isFinite(expiry) && expiry > 0 ? expiry : null,
    user: storage.getJSON<SessionUser>(sessionKeys.user),
    companyId: storage.get(sessionKeys.company),
    status: 'ready',
  };
}

export const sessionStore = createExternalStore<SessionState>(readStored());

export function membershipsOf(user: SessionUser | null): Membership[] {
  return user?.corporation?.companies ?? [];
}

/** The preferred company if still a membership, else the default one, else the first. */
export function pickCompanyId(user: SessionUser, preferred?: string | null): string | null {
  const memberships = membershipsOf(user);
  if (preferred && memberships.some((m) => m.company._id === preferred)) return preferred;
  return (memberships.find((m) => m.default) ?? memberships[0])?.company._id ?? user.companyId ?? null;
}

/**
 * Stores a fresh session. `keepCompany` keeps the selected company when it is still a
 * membership (refresh, password change); a login selects the default company (SPEC §4).
 */
export function setSession(payload: SessionPayload, { keepCompany = false } = {}): void {
  const preferred = keepCompany ? sessionStore.get().companyId : null;
  const companyId = pickCompanyId(payload.user, preferred);
  const expiresAt = Date.now() + payload.expiresIn * 1000;
  storage.set(sessionKeys.token, payload.token);
  storage.set(sessionKeys.tokenExpiry, String(expiresAt));
  storage.setJSON(sessionKeys.user, payload.user);
  if (companyId) storage.set(sessionKeys.company, companyId);
  else storage.remove(sessionKeys.company);
  sessionStore.set((prev) => ({ ...prev, token: payload.token, expiresAt, user: payload.user, companyId }));
}

export function selectCompany(companyId: string): void {
  storage.set(sessionKeys.company, companyId);
  sessionStore.set((prev) => ({ ...prev, companyId }));
}

export function setSessionStatus(status: SessionStatus): void {
  sessionStore.set((prev) => ({ ...prev, status }));
}

/** Signs out locally: clears token, expiry, user and company (SPEC §4). */
export function clearSession(): void {
  for (const key of Object.values(sessionKeys)) storage.remove(key);
  sessionStore.set((prev) => ({ ...prev, token: null, expiresAt: null, user: null, companyId: null }));
}

export function useSession(): SessionState {
  return useExternalStore(sessionStore);
}

export function currentMembership(state: Pick<SessionState, 'user' | 'companyId'>): Membership | undefined {
  return membershipsOf(state.user).find((m) => m.company._id === state.companyId);
}

export function fullName(user: Pick<SessionUser, 'first_name' | 'last_name'>): string {
  return `${user.first_name} ${user.last_name}`.trim();
}
