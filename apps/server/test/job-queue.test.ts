import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type JobQueue } from '../src/jobs/queue.js';
import { startTestApp, type TestApp } from './helpers.js';

/**
 * The queue's lanes (jobs/queue.ts): a queue defined with `lanes: 3` works three batches at once
 * in this process, so a backlog of slow jobs is cleared three at a time, never more; a queue
 * without lanes works one job at a time.
 */
let t: TestApp;
let queue: JobQueue;
const seen = { wide: { now: 0, max: 0, done: 0 }, narrow: { now: 0, max: 0, done: 0 } };
const slow = (lane: keyof typeof seen, ms: number) => async () => {
  const s = seen[lane];
  s.now++;
  s.max = Math.max(s.max, s.now);
  await new Promise((r) => setTimeout(r, ms));
  s.now--;
  s.done++;
};

beforeAll(async () => {
  t = await startTestApp();
  // the test's own catalogue: its lanes are written there, as the product's are in jobs/catalogue.ts
  queue = createJobQueue(t.database, t.app.log, {
    'test.lanes-wide': { module: 'test', does: 'a slow job', lanes: 3 },
    'test.lanes-narrow': { module: 'test', does: 'a quick job' },
  });
  // a batch of 20 takes 2 s in the wide queue: each lane polls every second, so all three find work
  queue.define('test.lanes-wide', slow('wide', 100));
  queue.define('test.lanes-narrow', slow('narrow', 10));
  await queue.start({ work: true });
});
afterAll(async () => {
  await queue?.stop();
  await t?.close();
});

describe('job queue lanes', () => {
  it('a backlog is worked by as many lanes as the queue declares, and no more', async () => {
    // more than a batch (20) per lane, so every lane has work
    for (let i = 0; i < 90; i++) await queue.send('test.lanes-wide', { i });
    for (let i = 0; i < 45; i++) await queue.send('test.lanes-narrow', { i });
    const deadline = Date.now() + 60_000;
    while ((seen.wide.done < 90 || seen.narrow.done < 45) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(seen.wide.done).toBe(90);
    expect(seen.narrow.done).toBe(45);
    expect(seen.wide.max).toBe(3);
    expect(seen.narrow.max).toBe(1);
  });
});
