import { lazy, Suspense, useEffect, useRef } from 'react';
import { useFeedback } from '../../lib/feedback';

const loadView = () => import('./feedback-view');
const FeedbackView = lazy(loadView);

/** How long after start the snackbar/overlay code is fetched if nothing needed it sooner. */
const PRELOAD_AFTER_MS = 1500;

/**
 * Mounts the overlay and snackbars the first time there is something to show, and
 * preloads them shortly after start, keeping them out of the first paint's JavaScript.
 */
export function FeedbackHost() {
  const { loading, success, errors } = useFeedback();
  const needed = useRef(false);
  if (loading > 0 || success || errors) needed.current = true;

  useEffect(() => {
    const timer = setTimeout(() => void loadView(), PRELOAD_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);

  if (!needed.current) return null;
  return (
    <Suspense fallback={null}>
      <FeedbackView />
    </Suspense>
  );
}
