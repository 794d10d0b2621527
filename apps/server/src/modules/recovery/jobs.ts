import type { FastifyInstance } from 'fastify';
import type { Recovery } from './service.js';

/** Every 10 minutes (and when a worker starts): the sales follow-ups due now (decision 0089). */
export const RECOVERY_SWEEP_QUEUE = 'recovery.sweep';

export async function recoveryJobs(app: FastifyInstance, { recovery }: { recovery: Recovery }) {
  app.jobs.define<Record<string, never>>(
    RECOVERY_SWEEP_QUEUE,
    async () => {
      const done = await recovery.sweep();
      if (done.sent || done.failed) app.log.info(done, 'seguimientos de ventas decididos');
    },
    { expireInSeconds: 600 },
  );
  app.jobs.every(RECOVERY_SWEEP_QUEUE);
}
