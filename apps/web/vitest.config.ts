import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Test files that replace a module with `vi.mock`: they run isolated (a fresh module registry
 * per file), since a mock must not leak into the files that share a worker. Found by reading the
 * files, so a new test is placed by what it does, not by a list to keep.
 */
export function mockingTestFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.test\.tsx?$/.test(entry.name) && /\bvi\.mock\(/.test(readFileSync(path, 'utf8'))) out.push(relative(root, path));
    }
  };
  walk(join(root, 'src'));
  return out;
}

/**
 * The web tests as two projects: `web` shares each worker's jsdom and React modules across its
 * files (isolate: false — about half the project's time went to setting them up per file), and
 * `web-mocks` runs the files that mock modules isolated.
 */
export function webProject(mocking: boolean) {
  const mocks = mockingTestFiles();
  return {
    plugins: [react()],
    root,
    test: {
      name: mocking ? 'web-mocks' : 'web',
      environment: 'jsdom' as const,
      include: mocking ? mocks : ['src/**/*.test.{ts,tsx}'],
      exclude: mocking ? [] : mocks,
      isolate: mocking,
      setupFiles: ['./src/test/setup.ts'],
      // the server's fuzz and PGlite files share the two cores in the same run: a form test that
      // takes 1 s alone can take 6 s then, which is slowness, not a failure
      testTimeout: 20_000,
    },
  };
}

export default defineConfig({ test: { maxWorkers: 2, projects: [webProject(false), webProject(true)] } });
