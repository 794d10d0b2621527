import {
  campaignRef,
  chunkActionOut,
  chunkActionsOut,
  chunkDetailOut,
  chunkInput,
  chunkRef,
  type CampaignStatus,
  programmedChunksOut,
  recipientListOut,
  recipientQuery,
  sendingMessages,
  sendOut,
  sendCheckOut,
  type SegmentFilters,
  zId,
  zInteger,
} from '@mostrador/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, changesSql, originSql } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { segmentAudience } from '../leads/segment-audience.js';
import { timezoneOf } from '../leads/summary.js';
import { toTemplateOut, type TemplateRow } from '../../integrations/meta/template-mapping.js';
import { sendingJobs } from './jobs.js';
import { bulkTemplate, createMassSending, massRoutes } from './mass.js';
import { chunkPeople, type SendContent } from './planning.js';
import { SEND_QUEUE } from '../../jobs/sending-queues.js';
import { publishSends, recipientsOf, sendRow, sendsOut } from './read-model.js';
import { messageClientOf, refreshCampaign } from './runner.js';

type Row = Record<string, unknown>;

/** What the audit log records of a campaign chunk (decision 0072): its fields and columns. */
const SEND_FIELDS = {
  kind: 'kind',
  name: 'name',
  status: 'status',
  campaignId: 'campaign_id',
  chunkPage: 'chunk_page',
  chunkSize: 'chunk_size',
  scheduledAt: 'scheduled_at',
  stopRequested: 'stop_requested',
};
/**
 * The audit rows of a chunk statement, written by the statement itself: one per row of `after`
 * (the write's returning), its fields from `before` (the rows as the statement's snapshot saw
 * them; null for a creation), who calls from the request.
 */
const auditSends = (action: 'create' | 'stop' | 'resume', after: string, before: string | null) =>
  sql`insert into audit_log (company_id, actor, ip, user_agent, action, entity, entity_id, changes)
      select ${sql.raw(after)}.company_id, ${originSql()}, ${action}, 'sends', ${sql.raw(after)}.id::text, ${changesSql(SEND_FIELDS, before, after)}
      from ${sql.raw(after)}${before ? sql.raw(` join ${before} on ${before}.id = ${after}.id`) : sql``}`;

interface CampaignRow extends Row {
  id: string;
  name: string;
  segment_id: string | null;
  channel: string;
  template_name: string;
  chunk_size: number;
  status: CampaignStatus;
}

/**
 * Marketing campaign chunks (SPEC §7 "Marketing campaigns", issue 13, decision 0041): send or
 * program a chunk, who is in it, its plan, stop (scheduled, all scheduled, manually), and
 * beyond the spec resume and retry-failed; each recipient's report. The work is the sending
 * runner's (runner.ts, its jobs in jobs.ts): these calls only write what it should do and wake it.
 */
export const sendingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(sendingJobs);
  const progress = { db, realtime: app.realtime, log: app.log };

  const tags = ['marketing-campaigns'];
  const may = (action: 'list' | 'read' | 'create' | 'update') => ({ permission: { module: 'marketing' as const, action } });
  const wake = (companyId: string) => app.jobs.send(SEND_QUEUE, { companyId });
  // massive sends to an audience and the Imagina template calls (decision 0043), sent by the same runner
  const mass = createMassSending({ ...progress, client: messageClientOf(app.settings), secrets: app.secrets, wake });
  await app.register(massRoutes, { mass });

  async function campaignOf(companyId: string, id: string): Promise<CampaignRow> {
    const [c] = await rowsOf<CampaignRow>(
      db,
      sql`select id, name, segment_id, channel, template_name, chunk_size, status from marketing_campaigns where company_id = ${companyId} and id = ${id}`,
    );
    if (!c) throw new AppError('NOT_FOUND', sendingMessages.campaignNotFound);
    return c;
  }

  /** The campaign's template on the company's line, approved (else a 409 saying what is wrong). */
  async function contentOf(companyId: string, c: CampaignRow): Promise<SendContent> {
    if (c.channel !== 'whatsapp') throw new AppError('CONFLICT', sendingMessages.onlyWhatsapp);
    const [line] = await rowsOf<{ business_account_id: string | null }>(db, sql`select business_account_id from channels where company_id = ${companyId} and kind = 'whatsapp'`);
    if (!line) throw new AppError('CONFLICT', sendingMessages.noLine);
    const templates = await rowsOf<TemplateRow & Row>(
      db,
      sql`select * from whatsapp_templates where company_id = ${companyId} and business_account_id = ${line.business_account_id ?? ''} and name = ${c.template_name}
          order by (status = 'APPROVED') desc, language`,
    );
    const t = templates[0];
    if (!t) throw new AppError('CONFLICT', sendingMessages.noTemplate(c.template_name));
    if (t.status !== 'APPROVED') throw new AppError('CONFLICT', sendingMessages.templateNotApproved(t.name, t.status));
    return { template: bulkTemplate(toTemplateOut(t)) };
  }

  /** How many clean leads the segment holds now. */
  async function audienceOf(companyId: string, segmentId: string | null): Promise<number> {
    const [segment] = segmentId ? await rowsOf<{ filters: SegmentFilters | null }>(db, sql`select filters from marketing_segments where company_id = ${companyId} and id = ${segmentId}`) : [];
    return segment ? segmentAudience(db, companyId, segment.filters) : 0;
  }

  async function chunkOf(companyId: string, campaignId: string, chunkPage: number) {
    const [row] = await rowsOf<{ id: string }>(db, sql`select id from sends where company_id = ${companyId} and campaign_id = ${campaignId} and chunk_page = ${chunkPage}`);
    if (!row) throw new AppError('NOT_FOUND', sendingMessages.chunkNotFound);
    return row.id;
  }

  async function chunkOut(companyId: string, id: string) {
    const row = await sendRow(db, companyId, id);
    return (await sendsOut(db, [row as never]))[0];
  }

  app.post(
    '/marketing-campaigns/send_chunk',
    { config: may('create'), schema: { tags, body: chunkInput, response: { 202: chunkActionOut } } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const input = request.body;
      const c = await campaignOf(tenant.companyId, input.campaign);
      if (c.segment_id && c.segment_id !== input.segment) throw new AppError('VALIDATION', sendingMessages.segmentMismatch, [{ path: 'segment', msg: sendingMessages.segmentMismatch }]);
      const [segment] = await rowsOf(db, sql`select id from marketing_segments where company_id = ${tenant.companyId} and id = ${input.segment}`);
      if (!segment) throw new AppError('VALIDATION', sendingMessages.segmentNotFound, [{ path: 'segment', msg: sendingMessages.segmentNotFound }]);
      const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : undefined;
      if (scheduledAt && scheduledAt.getTime() < Date.now() - 60_000) throw new AppError('VALIDATION', sendingMessages.pastSchedule, [{ path: 'scheduledAt', msg: sendingMessages.pastSchedule }]);
      const content = await contentOf(tenant.companyId, c);
      if (input.chunkPage * input.chunkSize >= (await audienceOf(tenant.companyId, input.segment))) {
        throw new AppError('CONFLICT', sendingMessages.emptyChunk);
      }
      const status = scheduledAt && scheduledAt.getTime() > Date.now() ? 'scheduled' : 'pending';
      const name = `${c.name} · bloque ${input.chunkPage + 1}`;
      // the chunk and its audit row in one statement (decision 0072): a chunk that already existed records nothing
      const [row] = await rowsOf<{ id: string }>(
        db,
        sql`with after as (insert into sends (company_id, kind, campaign_id, chunk_page, chunk_size, segment_id, name, status, content, scheduled_at, created_by)
              values (${tenant.companyId}, 'campaign', ${c.id}, ${input.chunkPage}, ${input.chunkSize}, ${input.segment}, ${name}, ${status},
                      ${JSON.stringify(content)}::jsonb, ${scheduledAt?.toISOString() ?? null}, ${tenant.userId})
              on conflict (company_id, campaign_id, chunk_page) where campaign_id is not null do nothing returning *),
            audited as (${auditSends('create', 'after', null)})
            select id from after`,
      );
      if (!row) throw new AppError('CONFLICT', sendingMessages.chunkExists);
      if (status === 'pending') {
        await refreshCampaign(db, tenant.companyId, c.id);
        await wake(tenant.companyId);
      }
      const chunk = await chunkOut(tenant.companyId, row.id);
      await publishSends(progress, tenant.companyId, [row.id]);
      const when = scheduledAt ? new Intl.DateTimeFormat('es-PE', { dateStyle: 'short', timeStyle: 'short', timeZone: await timezoneOf(db, tenant.companyId) }).format(scheduledAt) : '';
      return reply.code(202).send({ msg: status === 'scheduled' ? sendingMessages.chunkScheduled(when) : sendingMessages.chunkQueued, chunk });
    },
  );

  app.post(
    '/marketing-campaigns/chunk_detail',
    {
      config: may('read'),
      schema: { tags, body: chunkRef.extend({ chunkSize: zInteger(1).max(1000, 'El tamaño máximo de un bloque es 1000').optional() }).strict(), response: { 200: chunkDetailOut } },
    },
    async (request) => {
      const { companyId } = tenantOf(request);
      const c = await campaignOf(companyId, request.body.campaignId);
      const [existing] = await rowsOf<{ id: string; chunk_size: number; planned: boolean }>(
        db,
        sql`select id, chunk_size, planned from sends where company_id = ${companyId} and campaign_id = ${c.id} and chunk_page = ${request.body.chunkPage}`,
      );
      // a chunk not started yet (programmed) has not chosen its people: the preview below says who it would be now
      if (existing?.planned) {
        const payload = await recipientsOf(db, companyId, existing.id, {}, 0, 1000);
        return { chunkPage: request.body.chunkPage, chunkSize: existing.chunk_size, chunk: await chunkOut(companyId, existing.id), total: payload.total, payload: payload.rows };
      }
      const chunkSize = existing?.chunk_size ?? request.body.chunkSize ?? c.chunk_size;
      let content: SendContent = {};
      try {
        content = await contentOf(companyId, c);
      } catch {
        // without a sendable template the list still says who is in the chunk
      }
      const people = await chunkPeople(db, companyId, { segmentId: c.segment_id, chunkPage: request.body.chunkPage, chunkSize, content, createdBy: tenantOf(request).userId, dedupeKey: c.id });
      const now = new Date().toISOString();
      return {
        chunkPage: request.body.chunkPage,
        chunkSize,
        ...(existing ? { chunk: await chunkOut(companyId, existing.id) } : {}),
        total: people.length,
        payload: people.map((p) => ({
          _id: p.id,
          cleanLeadId: p.clean_lead_id,
          name: p.name,
          ...(p.phone ? { telefono: p.phone } : {}),
          ...(p.chat_id ? { chatId: p.chat_id } : {}),
          status: p.status,
          ...(p.reason ? { reason: p.reason } : {}),
          attempts: 0,
          updatedAt: now,
        })),
      };
    },
  );

  /**
   * The campaign's pre-send check (decision 0043): of the segment's people not yet sent this
   * campaign, who would get it and who not (and why), against the line's daily limit, and what
   * it would cost.
   */
  app.get('/marketing-campaigns/:id/check', { config: may('read'), schema: { tags, params: z.object({ id: zId() }), response: { 200: sendCheckOut } } }, async (request) => {
    const tenant = tenantOf(request);
    const c = await campaignOf(tenant.companyId, request.params.id);
    const [segment] = c.segment_id ? await rowsOf<{ filters: SegmentFilters | null }>(db, sql`select filters from marketing_segments where company_id = ${tenant.companyId} and id = ${c.segment_id}`) : [];
    if (!segment) throw new AppError('CONFLICT', sendingMessages.segmentNotFound);
    const audience = { segmentId: c.segment_id as string };
    const filters = segment.filters ?? {};
    try {
      return await mass.check(tenant, { audience, filters, content: await contentOf(tenant.companyId, c), dedupeKey: c.id });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error;
      return mass.check(tenant, { audience, filters, blocking: error.msg ?? error.message, dedupeKey: c.id });
    }
  });

  app.get(
    '/marketing-campaigns/:id/programmed-chunks',
    { config: may('read'), schema: { tags, params: z.object({ id: zId() }), response: { 200: programmedChunksOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const c = await campaignOf(companyId, request.params.id);
      const n = await audienceOf(companyId, c.segment_id);
      const rows = await rowsOf(db, sql`select * from sends where company_id = ${companyId} and campaign_id = ${c.id}
          order by (status = 'scheduled') desc, scheduled_at nulls last, chunk_page`);
      return { campaignId: c.id, status: c.status, audience: Number(n), chunkSize: c.chunk_size, chunks: Math.ceil(Number(n) / Math.max(1, c.chunk_size)), payload: await sendsOut(db, rows as never) };
    },
  );

  /** Moves a chunk from one status to another; `where` says from which, `msg` what to answer; audited as `action` in the same statement. */
  async function moveChunk(companyId: string, body: { campaignId: string; chunkPage: number }, action: 'stop' | 'resume', set: SQL, from: SQL, refused: string, msg: string) {
    await campaignOf(companyId, body.campaignId);
    const id = await chunkOf(companyId, body.campaignId, body.chunkPage);
    const rows = await rowsOf(
      db,
      sql`with before as (select * from sends where company_id = ${companyId} and id = ${id}),
          after as (update sends set ${set}, updated_at = now() where company_id = ${companyId} and id = ${id} and ${from} returning *),
          audited as (${auditSends(action, 'after', 'before')})
          select id from after`,
    );
    if (!rows.length) throw new AppError('CONFLICT', refused);
    await refreshCampaign(db, companyId, body.campaignId);
    await publishSends(progress, companyId, [id]);
    return { msg, chunk: await chunkOut(companyId, id) };
  }

  app.post('/marketing-campaigns/stop_scheduled_chunk', { config: may('update'), schema: { tags, body: chunkRef, response: { 200: chunkActionOut } } }, async (request) =>
    moveChunk(tenantOf(request).companyId, request.body, 'stop', sql`status = 'stopped'`, sql`status = 'scheduled'`, sendingMessages.notScheduled, sendingMessages.chunkStopped),
  );

  app.post(
    '/marketing-campaigns/stop_all_scheduled_chunks_for_campaign',
    { config: may('update'), schema: { tags, body: campaignRef, response: { 200: chunkActionsOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      await campaignOf(companyId, request.body.campaignId);
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`with before as (select * from sends where company_id = ${companyId} and campaign_id = ${request.body.campaignId} and status = 'scheduled'),
            after as (update sends s set status = 'stopped', updated_at = now() from before where s.id = before.id and s.status = 'scheduled' returning s.*),
            audited as (${auditSends('stop', 'after', 'before')})
            select id from after`,
      );
      await publishSends(progress, companyId, rows.map((r) => r.id));
      return { msg: sendingMessages.scheduledStopped(rows.length), stopped: rows.length };
    },
  );

  // a chunk being sent stops between two batches (within 2 s); one not started yet stops at once
  app.post('/marketing-campaigns/stop_manually_chunk', { config: may('update'), schema: { tags, body: chunkRef, response: { 200: chunkActionOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const out = await moveChunk(
      companyId,
      request.body,
      'stop',
      sql`stop_requested = (status = 'processing'), status = case when status = 'processing' then status else 'stopped' end`,
      sql`status in ('pending', 'processing', 'scheduled')`,
      sendingMessages.notRunning,
      sendingMessages.chunkStopped,
    );
    // the runner applies the stop between two batches; one that was about to end is started again to apply it
    await wake(companyId);
    return out;
  });

  app.post('/marketing-campaigns/resume_chunk', { config: may('update'), schema: { tags, body: chunkRef, response: { 200: chunkActionOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const out = await moveChunk(companyId, request.body, 'resume', sql`status = 'pending', stop_requested = false, error = null, finished_at = null`, sql`status = 'stopped'`, sendingMessages.notStopped, sendingMessages.chunkResumed);
    await wake(companyId);
    return out;
  });

  app.post('/marketing-campaigns/retry_failed_chunk', { config: may('update'), schema: { tags, body: chunkRef, response: { 200: chunkActionOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    await campaignOf(companyId, request.body.campaignId);
    const id = await chunkOf(companyId, request.body.campaignId, request.body.chunkPage);
    const retried = await db.transaction(async (tx) => {
      const [send] = await rowsOf<{ status: string }>(tx as unknown as Db, sql`select status from sends where id = ${id} for update`);
      if (send.status === 'processing' || send.status === 'pending') throw new AppError('CONFLICT', 'El bloque aún se está enviando: espera a que termine');
      // only the recipients that failed go again, each with its own outbox row (never a second row per person)
      const rows = await rowsOf<{ id: string }>(
        tx as unknown as Db,
        sql`update send_recipients set status = 'queued', reason = null, not_before = null, settled_at = null, attempts = 0, updated_at = now()
            where send_id = ${id} and (status = 'failed' or (status = 'sent' and exists (select 1 from chat_messages m where m.id = send_recipients.id and m.status = 'failed')))
            returning id`,
      );
      if (!rows.length) return 0;
      // their failed chat messages are sent again as they were: pending, without the old provider id
      await tx.execute(sql`update chat_messages set status = 'pending', status_error = null, provider_message_id = null, updated_at = now()
          where company_id = ${companyId} and id in (${sql.join(rows.map((r) => sql`${r.id}`), sql`, `)})`);
      await tx.execute(sql`update sends set status = 'pending', stop_requested = false, error = null, finished_at = null, updated_at = now() where id = ${id}`);
      await audit(tx, { companyId, action: 'retry', entity: 'sends', entityId: id, changes: { status: { from: send.status, to: 'pending' }, retried: { from: null, to: rows.length } } });
      return rows.length;
    });
    if (!retried) throw new AppError('CONFLICT', sendingMessages.nothingToRetry);
    await refreshCampaign(db, companyId, request.body.campaignId);
    await wake(companyId);
    await publishSends(progress, companyId, [id]);
    return { msg: sendingMessages.retryQueued(retried), chunk: await chunkOut(companyId, id) };
  });

  app.get('/sends/:id', { config: may('read'), schema: { tags: ['sends'], params: z.object({ id: zId() }), response: { 200: sendOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const row = await sendRow(db, companyId, request.params.id);
    if (!row) throw new AppError('NOT_FOUND', 'El envío no existe en esta compañía');
    return (await sendsOut(db, [row]))[0];
  });

  app.get(
    '/sends/:id/recipients',
    { config: may('read'), schema: { tags: ['sends'], params: z.object({ id: zId() }), querystring: recipientQuery, response: { 200: recipientListOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      if (!(await sendRow(db, companyId, request.params.id))) throw new AppError('NOT_FOUND', 'El envío no existe en esta compañía');
      const { page, limit, status } = request.query;
      const { rows, total } = await recipientsOf(db, companyId, request.params.id, { status }, (page - 1) * limit, limit);
      return { payload: rows, total, page, limit };
    },
  );
};
