import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { reattributeCompany } from './attribute.js';

/** A company changed its attribution settings: its conversations and orders attributed again (decision 0096). */
export const ATTRIBUTION_REATTRIBUTE_QUEUE = 'attribution.reattribute';

/**
 * Re-attribution runs once the settings committed; it stamps `reattributed_at` with the time it
 * started, so a change saved while it ran leaves the settings still behind (the change queued its own job).
 */
export async function attributionJobs(app: FastifyInstance) {
  const { db } = app.database;
  app.jobs.define<{ companyId: string }>(ATTRIBUTION_REATTRIBUTE_QUEUE, async ({ companyId }) => {
    const [{ started }] = (await db.execute<{ started: string }>(sql`select now()::text as started`)).rows;
    await reattributeCompany(db, companyId);
    await db.execute(sql`update attribution_settings set reattributed_at = ${started}::timestamptz where company_id = ${companyId} and updated_at <= ${started}::timestamptz`);
  });
}
