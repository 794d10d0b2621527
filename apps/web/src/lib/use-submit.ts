import { useCallback, useRef, useState } from 'react';
import { notifyNoResponse } from './api-client';
import { clearErrorsOf, feedbackStore } from './feedback';

export interface SubmitState<R> {
  pending: boolean;
  data: R | undefined;
  error: unknown;
}

/**
 * A form's one-shot command (sign in, recover or reset a password) without a query cache:
 * the pages before sign-in stay light. Failures with a response were already shown by the
 * api client; a missing response is reported here, as its caller (SPEC §8). When a submit
 * that failed is retried and succeeds, the error its failure left on screen goes away.
 */
export function useSubmit<A, R>(action: (args: A) => Promise<R>, onSuccess?: (result: R) => void) {
  const [state, setState] = useState<SubmitState<R>>({ pending: false, data: undefined, error: undefined });
  const latest = useRef({ action, onSuccess });
  latest.current = { action, onSuccess };
  /** The error snackbar the last failure showed (its id), if any. */
  const shownError = useRef<number | undefined>(undefined);
  const submit = useCallback(async (args: A) => {
    setState({ pending: true, data: undefined, error: undefined });
    const before = feedbackStore.get().errors?.id;
    try {
      const data = await latest.current.action(args);
      if (shownError.current !== undefined) clearErrorsOf(shownError.current);
      shownError.current = undefined;
      setState({ pending: false, data, error: undefined });
      latest.current.onSuccess?.(data);
    } catch (error) {
      setState({ pending: false, data: undefined, error });
      notifyNoResponse(error);
      const after = feedbackStore.get().errors?.id;
      shownError.current = after !== undefined && after !== before ? after : undefined;
    }
  }, []);
  return { ...state, submit };
}
