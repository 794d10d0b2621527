import type { FastifyInstance } from 'fastify';

/** The queue that sends the people's page labels (decision 0057): each minute, and woken by the writes that leave some due (people.ts). */
export const FACEBOOK_LABEL_PEOPLE_QUEUE = 'facebook-labels-people';

/**
 * The facebook-labels module's job: the routes' own label sender (people.ts) runs it, given
 * here rather than imported, since people.ts wakes the queue by this file's name.
 */
export async function facebookLabelJobs(app: FastifyInstance, { people }: { people: { run(): Promise<unknown> } }) {
  app.jobs.define(FACEBOOK_LABEL_PEOPLE_QUEUE, async () => void (await people.run()));
  // a worker that starts sends what a crash or a job-run write left due
  app.jobs.every(FACEBOOK_LABEL_PEOPLE_QUEUE);
}
