import { defineConfig } from 'vitest/config';
import { webProject } from './apps/web/vitest.config.ts';

// Vitest 5's reporter calls Map.groupBy (Node 21+); Node 20 lacks it, so failures would
// crash the report instead of printing. A faithful polyfill keeps failures readable.
const MapWithGroupBy = Map as unknown as { groupBy?: unknown };
if (typeof MapWithGroupBy.groupBy !== 'function') {
  MapWithGroupBy.groupBy = <T, K>(items: Iterable<T>, key: (item: T, index: number) => K) => {
    const groups = new Map<K, T[]>();
    let i = 0;
    for (const item of items) {
      const k = key(item, i++);
      const list = groups.get(k);
      if (list) list.push(item);
      else groups.set(k, [item]);
    }
    return groups;
  };
}

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
