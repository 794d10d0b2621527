import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    maxWorkers: 2,
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // one migrated and seeded database that every test app copies (test/template.ts)
    globalSetup: ['test/template.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
