import type { FastifyInstance } from 'fastify';

/** One inbound message for the chat's bot (queued by the webhook job once it commits; never in the webhook's request). */
export const BOT_ANSWER_QUEUE = 'dialogflow.answer';
export interface BotAnswerJob {
  companyId: string;
  chatId: string;
  messageId: string;
}

/**
 * The dialogflow module's job (decision 0053), on the routes plugin's answerer (answer.ts): given
 * here rather than built, since answer.ts keeps this file's queue name for the webhooks module.
 */
export async function dialogflowJobs(app: FastifyInstance, { answerer }: { answerer: { run(job: BotAnswerJob): Promise<unknown> } }) {
  app.jobs.define<BotAnswerJob>(BOT_ANSWER_QUEUE, async (job) => {
    await answerer.run(job);
  });
}
