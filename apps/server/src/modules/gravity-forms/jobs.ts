import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { type PullDeps, pullEntries } from './sync.js';

/** A form's entries pulled from its site, page by page (queued by «Sincronizar» and again after a crash). */
export const GRAVITY_SYNC_QUEUE = 'gravity-forms.sync';

/** The gravity-forms module's job, on the routes plugin's pull dependencies (its webhook processor). */
export async function gravityFormJobs(app: FastifyInstance, { deps }: { deps: PullDeps }) {
  app.jobs.define<{ companyId: string; formId: string }>(GRAVITY_SYNC_QUEUE, async ({ companyId, formId }) => {
    try {
      await pullEntries(deps, companyId, formId);
    } catch (error) {
      // a form deleted meanwhile has nothing left to pull
      if (error instanceof AppError && error.code === 'NOT_FOUND') return;
      throw error;
    }
  });
}
