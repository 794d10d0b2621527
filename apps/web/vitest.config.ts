import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    maxWorkers: 2,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // the server's fuzz and PGlite files share the two cores in the same run: a form test that
    // takes 1 s alone can take 6 s then, which is slowness, not a failure
    testTimeout: 20_000,
  },
});
