import type { FastifyInstance } from 'fastify';
import { runDueRoutines } from './executions.js';

/** Every minute: the routines due in their company's time zone (decision 0040). */
export const TELEGRAM_SCHEDULE_QUEUE = 'telegram.schedule';

/** The telegram module's job: the per-minute schedule of the routines (issue 13, decision 0040). */
export async function telegramJobs(app: FastifyInstance) {
  const { db } = app.database;
  app.jobs.define<{ companyId?: string }>(TELEGRAM_SCHEDULE_QUEUE, async ({ companyId }) => {
    await runDueRoutines(db, app.secrets, new Date(), companyId ? { companyId } : undefined);
  });
  app.jobs.every(TELEGRAM_SCHEDULE_QUEUE);
}
