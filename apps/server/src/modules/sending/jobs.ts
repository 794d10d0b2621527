import type { FastifyInstance } from 'fastify';
import { SEND_QUEUE, SEND_SWEEP_QUEUE } from '../../jobs/sending-queues.js';
import { createSendingRunner } from './runner.js';

/**
 * The sending module's jobs (decision 0041): a company's runner (`sending.run`) and the minute's
 * sweep (`sending.sweep`), on the one runner this process builds. The queue names stay in
 * queues.ts: the chats module wakes the runner by name, and importing them from here would pull
 * the runner, which imports the chats module back.
 */
export async function sendingJobs(app: FastifyInstance) {
  const runner = createSendingRunner({ db: app.database.db, secrets: app.secrets, realtime: app.realtime, jobs: app.jobs, config: app.settings, log: app.log });
  // a runner hands over after 60 s: one a killed worker held is tried again after two minutes (the lease lets another go on sooner)
  app.jobs.define<{ companyId: string }>(SEND_QUEUE, ({ companyId }) => runner.run(companyId), { expireInSeconds: 120 });
  app.jobs.define<Record<string, never>>(SEND_SWEEP_QUEUE, () => runner.sweep(), { expireInSeconds: 60 });
  // a worker that starts looks at once for sends a crash left halfway
  app.jobs.every(SEND_SWEEP_QUEUE, '* * * * *', {}, { onStart: true });
}
