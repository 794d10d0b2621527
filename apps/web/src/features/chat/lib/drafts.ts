import { sessionStore } from '../../../lib/session';

/**
 * What was typed and not sent, per chat (issue 11): kept when switching chats and across
 * reloads, in localStorage under the user and the company, so another person signing in on
 * the same browser never sees it; signing out forgets every draft.
 */
export interface Draft {
  text: string;
  /** Typed as an internal note instead of an answer. */
  note?: boolean;
}

const PREFIX = 'mostrador.chat-draft:';
const MAX = 4096;

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

const keyOf = (chatId: string) => {
  const { user, companyId } = sessionStore.get();
  return `${PREFIX}${user?._id ?? '-'}:${companyId ?? '-'}:${chatId}`;
};

export function readDraft(chatId: string): Draft {
  try {
    const raw = storage()?.getItem(keyOf(chatId));
    const parsed = raw ? (JSON.parse(raw) as Partial<Draft>) : undefined;
    return typeof parsed?.text === 'string' ? { text: parsed.text, note: parsed.note === true } : { text: '' };
  } catch {
    return { text: '' };
  }
}

export function writeDraft(chatId: string, draft: Draft): void {
  try {
    const s = storage();
    if (!s) return;
    if (!draft.text) s.removeItem(keyOf(chatId));
    else s.setItem(keyOf(chatId), JSON.stringify({ text: draft.text.slice(0, MAX), ...(draft.note ? { note: true } : {}) }));
  } catch {
    // a full or blocked storage only loses the draft
  }
}

/** Forgets every draft of this browser (signing out). */
export function clearDrafts(): void {
  const s = storage();
  if (!s) return;
  for (const key of Object.keys(s)) if (key.startsWith(PREFIX)) s.removeItem(key);
}

let signedIn = !!sessionStore.get().token;
sessionStore.subscribe(() => {
  const now = !!sessionStore.get().token;
  if (signedIn && !now) clearDrafts();
  signedIn = now;
});
