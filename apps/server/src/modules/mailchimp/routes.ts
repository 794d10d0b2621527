import {
  MAILCHIMP_REPORT_PAGE,
  mailchimpAccountOut,
  mailchimpIdParams,
  mailchimpMessages,
  mailchimpReportOut,
  mailchimpReportQuery,
  mailchimpSyncOut,
  mailchimpTestOut,
} from '@mostrador/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../../db/audit.js';
import { rowsOf } from '../../db/database.js';
import { mailchimpLabelSyncs } from '../../db/join-tables.js';
import { connectionTest } from '../../integrations/connection-test.js';
import { createMailchimpClient, isSandboxKey, keyHint, type MailchimpClient, testConnection } from '../../integrations/mailchimp/client.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { MAILCHIMP_SYNC_QUEUE, mailchimpJobs } from './jobs.js';
import { createMailchimpSync } from './sync.js';

/**
 * Mailchimp (issue 15, decision 0051): the credentials' connection test and key hint, the pull of
 * an audience's members, the syncs with their live progress and per-contact report. The
 * credentials themselves are the standard `mailchimps` resource (key sealed, write-only). Every
 * read is scoped to the caller's company.
 */
export const mailchimpRoutes: FastifyPluginAsyncZod<{ client?: MailchimpClient }> = async (app, options) => {
  const { db } = app.database;
  const client = options.client ?? createMailchimpClient({ urlTemplate: app.settings.mailchimpApiUrl });
  // «Probar conexión» does not wait through the sync's six tries (16–18 s when Mailchimp is unreachable)
  const tester = options.client ?? createMailchimpClient({ urlTemplate: app.settings.mailchimpApiUrl, ...connectionTest });
  const engine = createMailchimpSync({ db, secrets: app.secrets, client, realtime: app.realtime, log: app.log });
  const tags = ['mailchimp'];
  const may = (action: 'list' | 'read' | 'update') => ({ permission: { module: 'marketing' as const, action } });

  await mailchimpJobs(app, engine);

  async function credential(companyId: string, id: string) {
    const [row] = await rowsOf<{ id: string; name: string; server_prefix: string; list_id: string; api_key: string | null }>(
      db,
      sql`select id, name, server_prefix, list_id, api_key from mailchimps where company_id = ${companyId} and id = ${id}`,
    );
    if (!row) throw new AppError('NOT_FOUND', 'La credencial de Mailchimp no existe');
    let apiKey = '';
    try {
      apiKey = row.api_key ? app.secrets.open<string>(row.api_key) : '';
    } catch {
      apiKey = '';
    }
    return { id: row.id, name: row.name, account: { apiKey, serverPrefix: row.server_prefix, listId: row.list_id } };
  }

  app.get('/mailchimp/accounts', { config: may('list'), schema: { tags, response: { 200: z.object({ payload: z.array(mailchimpAccountOut) }) } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const rows = await rowsOf<{ id: string; name: string; server_prefix: string; list_id: string; api_key: string | null }>(
      db,
      sql`select id, name, server_prefix, list_id, api_key from mailchimps where company_id = ${companyId} order by name, id limit 200`,
    );
    return {
      payload: rows.map((r) => {
        let key = '';
        try {
          key = r.api_key ? app.secrets.open<string>(r.api_key) : '';
        } catch {
          key = '';
        }
        return { _id: r.id, name: r.name, serverPrefix: r.server_prefix, listId: r.list_id, ...(key ? { keyHint: keyHint(key) } : {}), sandbox: isSandboxKey(key) };
      }),
    };
  });

  app.post('/mailchimps/:id/test', { config: may('read'), schema: { tags, params: mailchimpIdParams, response: { 200: mailchimpTestOut } } }, async (request) => {
    const { account } = await credential(tenantOf(request).companyId, request.params.id);
    if (!account.apiKey) return { ok: false, problem: 'apiKey' as const, msg: 'Falta la API key: edita la credencial y pégala de nuevo' };
    return testConnection(tester, account);
  });

  app.post(
    '/mailchimps/:id/pull',
    { config: may('update'), schema: { tags, params: mailchimpIdParams, response: { 202: z.object({ msg: z.string(), sync: mailchimpSyncOut }) } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { id } = await credential(tenant.companyId, request.params.id);
      // a pull of this audience already waiting or going is the answer
      const [open] = await db
        .select()
        .from(mailchimpLabelSyncs)
        .where(and(eq(mailchimpLabelSyncs.companyId, tenant.companyId), eq(mailchimpLabelSyncs.mailchimpId, id), eq(mailchimpLabelSyncs.kind, 'pull'), sql`status in ('queued', 'running')`));
      if (open) return reply.code(202).send({ msg: mailchimpMessages.pullQueued, sync: await engine.out(open) });
      // the pull and its audit entry in one transaction (decision 0072)
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(mailchimpLabelSyncs)
          .values({ companyId: tenant.companyId, kind: 'pull', mailchimpId: id, labelIds: [], count: 0, createdBy: tenant.userId })
          .returning();
        await audit(tx, { companyId: tenant.companyId, action: 'sync', entity: 'mailchimps', entityId: id, changes: { sync: { from: null, to: made.id }, kind: { from: null, to: 'pull' } } });
        return made;
      });
      await app.jobs.send(MAILCHIMP_SYNC_QUEUE, { syncId: row.id }, { singletonKey: row.id });
      return reply.code(202).send({ msg: mailchimpMessages.pullQueued, sync: await engine.out(row) });
    },
  );

  app.get('/mailchimp/syncs', { config: may('list'), schema: { tags, response: { 200: z.object({ payload: z.array(mailchimpSyncOut) }) } } }, async (request) => {
    const rows = await db
      .select()
      .from(mailchimpLabelSyncs)
      .where(eq(mailchimpLabelSyncs.companyId, tenantOf(request).companyId))
      .orderBy(desc(mailchimpLabelSyncs.createdAt), desc(mailchimpLabelSyncs.id))
      .limit(20);
    return { payload: await Promise.all(rows.map((r) => engine.out(r))) };
  });

  async function syncOf(companyId: string, id: string) {
    const [row] = await db
      .select()
      .from(mailchimpLabelSyncs)
      .where(and(eq(mailchimpLabelSyncs.companyId, companyId), eq(mailchimpLabelSyncs.id, id)));
    if (!row) throw new AppError('NOT_FOUND', 'La sincronización no existe');
    return row;
  }

  app.get('/mailchimp/syncs/:id', { config: may('read'), schema: { tags, params: mailchimpIdParams, response: { 200: mailchimpSyncOut } } }, async (request) =>
    engine.out(await syncOf(tenantOf(request).companyId, request.params.id)),
  );

  app.get(
    '/mailchimp/syncs/:id/report',
    { config: may('read'), schema: { tags, params: mailchimpIdParams, querystring: mailchimpReportQuery, response: { 200: mailchimpReportOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const sync = await syncOf(companyId, request.params.id);
      const { outcome, page } = request.query;
      const where = sql`company_id = ${companyId} and sync_id = ${sync.id} ${outcome ? sql`and outcome = ${outcome}` : sql``}`;
      const [{ n }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from mailchimp_sync_contacts where ${where}`);
      const rows = await rowsOf<{ clean_lead_id: string | null; name: string | null; email: string | null; audience_name: string | null; outcome: 'ok' | 'error' | 'skipped'; reason: string | null; tags: string[]; at: Date }>(
        db,
        sql`select clean_lead_id, name, email, audience_name, outcome, reason, tags, at from mailchimp_sync_contacts where ${where}
             order by case outcome when 'error' then 0 when 'skipped' then 1 else 2 end, at desc, contact_key
             limit ${MAILCHIMP_REPORT_PAGE} offset ${(page - 1) * MAILCHIMP_REPORT_PAGE}`,
      );
      return {
        payload: rows.map((r) => ({
          ...(r.clean_lead_id ? { cleanLeadId: r.clean_lead_id } : {}),
          ...(r.name ? { name: r.name } : {}),
          ...(r.email ? { email: r.email } : {}),
          ...(r.audience_name ? { audienceName: r.audience_name } : {}),
          outcome: r.outcome,
          ...(r.reason ? { reason: r.reason } : {}),
          tags: Array.isArray(r.tags) ? r.tags : [],
          at: new Date(r.at).toISOString(),
        })),
        totalDocs: Number(n),
        page,
        limit: MAILCHIMP_REPORT_PAGE,
      };
    },
  );
};
