import { createExternalStore, useExternalStore } from './external-store';

/**
 * The global interface of SPEC §2: a loading overlay (a counter of calls in flight),
 * a success snackbar and an error snackbar listing messages.
 */
export interface FeedbackState {
  loading: number;
  /** `detail`: a second line (what a partly done action left out). */
  success: { id: number; message: string; detail?: string } | null;
  /**
   * `source` names the action that failed (`POST /products`, see `actionKey`): when the same
   * action is tried again and succeeds, the error goes away by itself (`clearErrorsOf`).
   */
  errors: { id: number; messages: string[]; source?: string } | null;
}

export const feedbackStore = createExternalStore<FeedbackState>({ loading: 0, success: null, errors: null });

let nextId = 1;

export function startLoading(): void {
  feedbackStore.set((s) => ({ ...s, loading: s.loading + 1 }));
}

export function stopLoading(): void {
  feedbackStore.set((s) => ({ ...s, loading: Math.max(0, s.loading - 1) }));
}

export function showSuccess(message: string, detail?: string): void {
  feedbackStore.set((s) => ({ ...s, success: { id: nextId++, message, detail } }));
}

/**
 * Replaces any previous error list (SPEC §8: the previous error is cleared). `source`: the
 * action it belongs to, so that its success later closes it. Answers the list's id.
 */
export function showErrors(messages: string[], source?: string): number {
  const id = nextId++;
  feedbackStore.set((s) => ({ ...s, errors: { id, messages, source } }));
  return id;
}

/** The action a call performs, as errors are tagged with: method and path, without the query. */
export function actionKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.split('?')[0]}`;
}

/**
 * The action succeeded this time: its error snackbar, if still shown, is stale and goes away.
 * `what` is the action's key, or the id `showErrors` answered (a form's own retry).
 */
export function clearErrorsOf(what: string | number): void {
  const errors = feedbackStore.get().errors;
  if (!errors) return;
  if (typeof what === 'number' ? errors.id === what : errors.source === what) closeErrors();
}

export function closeSuccess(): void {
  feedbackStore.set((s) => ({ ...s, success: null }));
}

export function closeErrors(): void {
  feedbackStore.set((s) => ({ ...s, errors: null }));
}

export function resetFeedback(): void {
  feedbackStore.set({ loading: 0, success: null, errors: null });
}

export function useFeedback(): FeedbackState {
  return useExternalStore(feedbackStore);
}

/** Copies `text` to the clipboard and says so (`okMessage`), or asks to copy it by hand when the browser refuses. */
export async function copyText(text: string, okMessage: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showSuccess(okMessage);
  } catch {
    showErrors(['No se pudo copiar: selecciónalo y cópialo a mano']);
  }
}
