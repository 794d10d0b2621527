import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';

/** The audit log's retention (decision 0072): each night, rows older than AUDIT_RETENTION_DAYS go. */
export const AUDIT_RETENTION_QUEUE = 'audit.retention';
const BATCH = 5000;

/**
 * Deletes the rows older than `days`, a batch at a time (short statements, short locks), by the
 * (company_id, at, id) index's `at`; answers how many went.
 */
export async function pruneAuditLog(db: Db, days: number, batch = BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await db.execute<{ n: number }>(
      sql`with old as (select id from audit_log where at < now() - make_interval(days => ${days}) limit ${batch})
          , gone as (delete from audit_log a using old where a.id = old.id returning 1)
          select count(*)::int as n from gone`,
    );
    const n = Number(rows[0]?.n ?? 0);
    total += n;
    if (n < batch) return total;
  }
}

export async function auditLogJobs(app: FastifyInstance) {
  const { db } = app.database;
  app.jobs.define(AUDIT_RETENTION_QUEUE, async () => void (await pruneAuditLog(db, app.settings.auditRetentionDays)));
  app.jobs.every(AUDIT_RETENTION_QUEUE);
}
