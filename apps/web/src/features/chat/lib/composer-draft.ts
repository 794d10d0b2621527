import { writeDraft } from './drafts';

/**
 * A text offered to a chat's composer from elsewhere in the thread («Usar respuesta» of a reply
 * suggestion, decision 0087): kept as the chat's draft (lib/drafts.ts, so a composer mounted
 * later opens with it) and announced as a window event, so the composer already on screen can put
 * it in its box — the composer subscribes with `onComposerDraft(chatId, setText)`.
 */
export const COMPOSER_DRAFT_EVENT = 'mostrador:composer-draft';

export interface ComposerDraftDetail {
  chatId: string;
  text: string;
}

export function offerComposerDraft(chatId: string, text: string): void {
  writeDraft(chatId, { text });
  if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent<ComposerDraftDetail>(COMPOSER_DRAFT_EVENT, { detail: { chatId, text } }));
}

/** Calls `listener` with each text offered to this chat's composer; returns the unsubscribe (a useEffect's cleanup). */
export function onComposerDraft(chatId: string, listener: (text: string) => void): () => void {
  const handler = (event: Event) => {
    const detail = (event as CustomEvent<ComposerDraftDetail>).detail;
    if (detail?.chatId === chatId) listener(detail.text);
  };
  window.addEventListener(COMPOSER_DRAFT_EVENT, handler);
  return () => window.removeEventListener(COMPOSER_DRAFT_EVENT, handler);
}
