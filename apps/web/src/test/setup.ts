import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetFeedback } from '../lib/feedback';
import { clearSession } from '../lib/session';

// findBy/waitFor wait up to 5 s (1 s by default): the same machine runs the server suites beside these
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  resetFeedback();
  clearSession();
  window.localStorage.clear();
});
