import type { GenialOrderKind } from '@mostrador/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { issueInvoice } from './invoices.js';

/** The issuing job's queue (one job per order at a time). */
export const GENIAL_ISSUE_QUEUE = 'genial.issue';
/** The queue of the sweep (scheduled every minute). */
export const GENIAL_SWEEP_QUEUE = 'genial.sweep';

export type GenialIssueJob = { companyId: string; kind: GenialOrderKind; orderId: string };

/**
 * The genial module's jobs (decision 0037): an order's invoice issued, and the minute's sweep.
 * The sweep (arrivals.ts) is given by the routes plugin rather than imported: arrivals.ts sends
 * the issuing jobs by this file's queue name, and importing it back would close a cycle.
 */
export async function genialJobs(
  app: FastifyInstance,
  { sweepInvoices }: { sweepInvoices: (db: Db, jobs: JobQueue, options: { companyId?: string }) => Promise<unknown> },
) {
  const { db } = app.database;
  app.jobs.define<GenialIssueJob>(GENIAL_ISSUE_QUEUE, async ({ companyId, kind, orderId }) => {
    await issueInvoice(db, app.secrets, companyId, kind, orderId);
  });
  // every minute: invoices of orders that arrived with no job yet, lost jobs, and Genial's «pending» asked again
  app.jobs.define<{ companyId?: string }>(GENIAL_SWEEP_QUEUE, async ({ companyId }) => {
    await sweepInvoices(db, app.jobs, companyId ? { companyId } : {});
  });
  app.jobs.every(GENIAL_SWEEP_QUEUE);
}
