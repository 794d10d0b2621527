import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetFeedback } from '../lib/feedback';
import { clearSession } from '../lib/session';

afterEach(() => {
  cleanup();
  resetFeedback();
  clearSession();
  window.localStorage.clear();
});
