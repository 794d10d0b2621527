import type { FastifyInstance } from 'fastify';
import { embeddedAnalyzer } from './embedded.js';
import { ANALYSIS_QUEUE, ANALYSIS_SWEEP_QUEUE, createAnalysisJobs } from './jobs.js';
import type { Analyzer } from './types.js';

/**
 * The analysis of conversations (issue 14, decision 0044): its two queues, no routes (the
 * metrics read chat_analyses). The engine is the embedded one; the OpenAI-compatible one plugs
 * in here when configured. Off (ANALYSIS=off), the queues exist but nothing wakes them. Its classifiers are trained on the first job, in the process that
 * runs the jobs, not at start-up.
 */
export async function analysisJobsPlugin(app: FastifyInstance, { analyzer = embeddedAnalyzer }: { analyzer?: Analyzer } = {}) {
  const analysis = createAnalysisJobs({ db: app.database.db, jobs: app.jobs, analyzer, log: app.log });
  app.jobs.define<{ companyId: string }>(ANALYSIS_QUEUE, ({ companyId }) => analysis.run(companyId), { expireInSeconds: 120 });
  app.jobs.define<Record<string, never>>(ANALYSIS_SWEEP_QUEUE, async () => {
    await analysis.sweep();
  }, { expireInSeconds: 60 });
  // a worker that starts analyses at once what is dirty (a fresh demo: all its chats)
  if (app.settings.analysis) app.jobs.every(ANALYSIS_SWEEP_QUEUE, '* * * * *', {}, { onStart: true });
}
