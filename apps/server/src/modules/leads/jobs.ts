import type { FastifyInstance } from 'fastify';

/** A recorded send of leads to a Meta Custom Audience (decision 0048), uploaded batch by batch. */
export const AUDIENCE_UPLOAD_QUEUE = 'audience.upload';
/** A Mailchimp sync of labelled leads (decision 0051): declared with the leads, run by the mailchimp module's engine (labels-massive.ts). */
export const MAILCHIMP_SYNC_QUEUE = 'mailchimp.sync-labels';

/**
 * The leads module's jobs. What each runs is given by the routes plugin (audience.ts and
 * labels-massive.ts, on its dependencies) rather than imported: those files queue the jobs by
 * this file's names.
 */
export async function leadJobs(
  app: FastifyInstance,
  { uploadAudience, syncMailchimp }: { uploadAudience: (sendId: string) => Promise<void>; syncMailchimp: (syncId: string) => Promise<void> },
) {
  app.jobs.define<{ sendId: string }>(AUDIENCE_UPLOAD_QUEUE, ({ sendId }) => uploadAudience(sendId));
  app.jobs.define<{ syncId: string }>(MAILCHIMP_SYNC_QUEUE, ({ syncId }) => syncMailchimp(syncId));
}
