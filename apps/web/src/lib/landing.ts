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

/**
 * Addresses that carry a secret, each with the screen remembered in its place: localStorage
 * keeps what it is given for good, readable by any script of the origin. The spec's
 * /telefonos/googlepeople/{id}/{clientId}/{clientSecret} (decision 0052) — and the clean
 * /telefonos/googlepeople/{id} it becomes, which is a step of the connection, not a screen.
 */
const secretBearing: Array<[RegExp, string]> = [[/^\/telefonos\/googlepeople(\/|$|\?)/i, '/telefonos']];

/** What to keep of `path`: the path itself, a safe parent if it carries a secret, or nothing. */
function screenToKeep(path: string): string | null {
  const parent = secretBearing.find(([pattern]) => pattern.test(path))?.[1];
  const kept = parent ?? path;
  return remembered(kept) ? kept : null;
}

export function rememberScreen(userId: string, path: string): void {
  const kept = screenToKeep(path);
  if (kept) storage.set(keyOf(userId), kept);
}

export function landingPath(user: SessionUser, companyId: string | null): string {
  const role = currentMembership({ user, companyId })?.role;
  if (role === 'agent') return HOME_SCREEN;
  const last = storage.get(keyOf(user._id));
  const kept = last ? screenToKeep(last) : null;
  // a secret an older version remembered is overwritten now, not only ignored
  if (last && kept !== last) {
    if (kept) storage.set(keyOf(user._id), kept);
    else storage.remove(keyOf(user._id));
  }
  return kept ?? HOME_SCREEN;
}
