import { act } from '@testing-library/react';
import { useEffect, useRef } from 'react';
import type { RealtimeMessage } from '../lib/realtime';

/**
 * The events stream in screen tests: a test file replaces lib/realtime with this module
 * (`vi.mock('../../lib/realtime', () => import('../../test/fake-realtime'))`) and `emit`s what
 * the server would publish; every mounted listener hears it, as with the real stream.
 */
const handlers = new Set<(message: RealtimeMessage) => void>();

export function useRealtimeEvents(handler: (message: RealtimeMessage) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (message: RealtimeMessage) => latest.current(message);
    handlers.add(listener);
    return () => {
      handlers.delete(listener);
    };
  }, []);
}

/** An event to every screen part listening; the query cache tells its observers on the next tick. */
export const emit = (event: RealtimeMessage) =>
  act(async () => {
    for (const handler of handlers) handler(event);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
