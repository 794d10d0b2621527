import type { FastifyInstance } from 'fastify';
import { runSync, type SyncDeps } from './sync.js';

/** A phone's «Sincronizar con Google» runs (decision 0052). */
export const GOOGLE_SYNC_QUEUE = 'google-people.sync';

/** The Google contacts module's jobs: the syncs, with the client and waits the routes were given. */
export async function googlePeopleJobs(app: FastifyInstance, deps: SyncDeps) {
  app.jobs.define<{ syncId: string }>(
    GOOGLE_SYNC_QUEUE,
    async ({ syncId }) => {
      await runSync(deps, syncId);
    },
    { expireInSeconds: 900 },
  );
}
