import { createExternalStore, useExternalStore } from './external-store';

/**
 * The global interface of SPEC §2: a loading overlay (a counter of calls in flight),
 * a success snackbar and an error snackbar listing messages.
 */
export interface FeedbackState {
  loading: number;
  success: { id: number; message: string } | null;
  errors: { id: number; messages: string[] } | null;
}

export const feedbackStore = createExternalStore<FeedbackState>({ loading: 0, success: null, errors: null });

let nextId = 1;

export function startLoading(): void {
  feedbackStore.set((s) => ({ ...s, loading: s.loading + 1 }));
}

export function stopLoading(): void {
  feedbackStore.set((s) => ({ ...s, loading: Math.max(0, s.loading - 1) }));
}

export function showSuccess(message: string): void {
  feedbackStore.set((s) => ({ ...s, success: { id: nextId++, message } }));
}

/** Replaces any previous error list (SPEC §8: the previous error is cleared). */
export function showErrors(messages: string[]): void {
  feedbackStore.set((s) => ({ ...s, errors: { id: nextId++, messages } }));
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
