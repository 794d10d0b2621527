import type { SessionUser } from '@mostrador/contract';
import { currentMembership } from './session';
import { storage } from './storage';

/**
 * Where a sign-in lands (decision 0026): an agent on the inbox (/chat), where their work is;
 * anyone else on the screen they used last, else the inbox. A protected page that sent the
 * user to /login wins over both (it is passed in as `from`).
 */
const LAST_SCREEN_KEY = 'lastScreen';
const keyOf = (userId: string) => `${LAST_SCREEN_KEY}.${userId}`;
export const HOME_SCREEN = '/chat';

/** Screens worth coming back to: inside the app, not the sign-in pages or the profile a refusal sends people to. */
const remembered = (path: string) => path.startsWith('/') && !/^\/(login|recuperar-contrasena|restablecer-contrasena|perfil)?(\/|$|\?)/.test(path);

export function rememberScreen(userId: string, path: string): void {
  if (remembered(path)) storage.set(keyOf(userId), path);
}

export function landingPath(user: SessionUser, companyId: string | null): string {
  const role = currentMembership({ user, companyId })?.role;
  if (role === 'agent') return HOME_SCREEN;
  const last = storage.get(keyOf(user._id));
  return last && remembered(last) ? last : HOME_SCREEN;
}
