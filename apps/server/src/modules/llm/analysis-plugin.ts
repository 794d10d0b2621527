import type { FastifyInstance } from 'fastify';
import { companyAnalyzers } from './analyzer.js';
import { embeddedAnalyzer } from '../analysis/embedded.js';
import { ANALYSIS_QUEUE, ANALYSIS_SWEEP_QUEUE, createAnalysisJobs } from '../analysis/jobs.js';
import type { Analyzer } from '../analysis/types.js';

/**
 * The analysis of conversations (issue 14, decision 0044): its two queues, no routes (the
 * metrics read chat_analyses). Each company's engine is the embedded one unless it configured an
 * OpenAI-compatible endpoint (decision 0046, modules/llm); an `analyzer` given here is used for all. Off (ANALYSIS=off), the queues exist but nothing wakes them. Its classifiers are trained on the first job, in the process that
 * runs the jobs, not at start-up.
 */
export async function analysisJobsPlugin(app: FastifyInstance, { analyzer }: { analyzer?: Analyzer } = {}) {
  const analysis = createAnalysisJobs({
    db: app.database.db,
    jobs: app.jobs,
    analyzer: analyzer ?? embeddedAnalyzer,
    analyzerFor: analyzer ? undefined : companyAnalyzers({ db: app.database.db, secrets: app.secrets }),
    log: app.log,
  });
  app.jobs.define<{ companyId: string }>(ANALYSIS_QUEUE, ({ companyId }) => analysis.run(companyId));
  app.jobs.define<Record<string, never>>(ANALYSIS_SWEEP_QUEUE, async () => {
    await analysis.sweep();
  });
  // a worker that starts analyses at once what is dirty (a fresh demo: all its chats)
  if (app.settings.analysis) app.jobs.every(ANALYSIS_SWEEP_QUEUE);
}
