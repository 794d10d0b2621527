import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/database.js';
import type { ConversionsClient } from '../../integrations/meta/conversions.js';
import { sendDueConversions } from './send.js';

/** One company's due events sent to Meta (woken by the listener, a retry), or every enabled company's each minute (decision 0098). */
export const CONVERSIONS_SEND_QUEUE = 'conversions-api.send';

export async function conversionsJobs(app: FastifyInstance, { client }: { client: ConversionsClient }) {
  const { db } = app.database;
  app.jobs.define<{ companyId?: string }>(CONVERSIONS_SEND_QUEUE, async ({ companyId }) => {
    const companies = companyId ? [companyId] : (await rowsOf<{ company_id: string }>(db, sql`select company_id from conversion_settings where enabled`)).map((r) => r.company_id);
    for (const c of companies) await sendDueConversions({ db, secrets: app.secrets, client, log: app.log }, c);
  });
  app.jobs.every(CONVERSIONS_SEND_QUEUE);
}
