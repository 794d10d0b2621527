import { useCallback, useRef, useState } from 'react';
import { notifyNoResponse } from './api-client';

export interface SubmitState<R> {
  pending: boolean;
  data: R | undefined;
  error: unknown;
}

/**
 * A form's one-shot command (sign in, recover or reset a password) without a query cache:
 * the pages before sign-in stay light. Failures with a response were already shown by the
 * api client; a missing response is reported here, as its caller (SPEC §8).
 */
export function useSubmit<A, R>(action: (args: A) => Promise<R>, onSuccess?: (result: R) => void) {
  const [state, setState] = useState<SubmitState<R>>({ pending: false, data: undefined, error: undefined });
  const latest = useRef({ action, onSuccess });
  latest.current = { action, onSuccess };
  const submit = useCallback(async (args: A) => {
    setState({ pending: true, data: undefined, error: undefined });
    try {
      const data = await latest.current.action(args);
      setState({ pending: false, data, error: undefined });
      latest.current.onSuccess?.(data);
    } catch (error) {
      setState({ pending: false, data: undefined, error });
      notifyNoResponse(error);
    }
  }, []);
  return { ...state, submit };
}
