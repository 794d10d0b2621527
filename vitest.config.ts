import { defineConfig } from 'vitest/config';
import { webProject } from './apps/web/vitest.config.ts';

export default defineConfig({
  test: {
    // Vitest resolves one worker on a 2-core machine; the suite waits on PGlite's worker
    // threads and sockets as much as on its own code, so two files at a time keep both cores busy
    maxWorkers: 2,
    projects: [
      'packages/contract',
      'apps/server',
      // the web tests: shared workers, and the files that mock modules isolated (apps/web/vitest.config.ts)
      webProject(false),
      webProject(true),
    ],
  },
});
