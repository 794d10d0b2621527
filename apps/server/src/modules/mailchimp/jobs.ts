import type { FastifyInstance } from 'fastify';
import { MAILCHIMP_SYNC_QUEUE, setMailchimpSyncRunner } from '../leads/labels-massive.js';
import type { MailchimpSync } from './sync.js';

/** The syncs' queue, declared with the leads (set_mostrador_labels_massive queues it). */
export { MAILCHIMP_SYNC_QUEUE } from '../leads/labels-massive.js';

/** How long a sync waits before trying again while another sync of its company runs. */
const BUSY_RETRY_SECONDS = 15;

/** The Mailchimp module's jobs: the work of the `mailchimp.sync-labels` queue (the leads define the queue). */
export async function mailchimpJobs(app: FastifyInstance, engine: MailchimpSync) {
  setMailchimpSyncRunner(app.database.db, async (syncId) => {
    if ((await engine.run(syncId)) === 'busy') await app.jobs.send(MAILCHIMP_SYNC_QUEUE, { syncId }, { startAfter: BUSY_RETRY_SECONDS });
  });
}
