import { useEffect, useState } from 'react';

/** The current time, renewed every `everyMs` (relative times in the list stay right). */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Re-renders when `at` (an ISO instant) passes, so a 24-hour window closes on screen by itself. */
export function useRerenderAt(at: string | undefined): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!at) return;
    const wait = Date.parse(at) - Date.now();
    if (Number.isNaN(wait) || wait <= 0 || wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => setTick((n) => n + 1), wait + 50);
    return () => clearTimeout(timer);
  }, [at]);
}
