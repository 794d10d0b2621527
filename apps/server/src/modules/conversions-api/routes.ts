import { conversionEventOut, conversionEventsOut, conversionEventsQuery, conversionSettingsInput, conversionSettingsOut, conversionsMessages } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditSettings } from '../../db/audit.js';
import { type Db, rowsOf } from '../../db/database.js';
import { type ConversionsClient, createConversionsClient } from '../../integrations/meta/conversions.js';
import { isSandboxAdsToken } from '../../integrations/meta/ads.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { CONVERSIONS_SEND_QUEUE, conversionsJobs } from './jobs.js';

const PAGE = 50;

type EventRow = {
  id: string;
  event_name: 'Purchase' | 'LeadSubmitted';
  channel: string | null;
  status: 'pending' | 'sent' | 'skipped' | 'failed';
  lead_id: string | null;
  order_id: string | null;
  value: string | null;
  currency: string | null;
  reason: string | null;
  events_received: number | null;
  fbtrace_id: string | null;
  error_code: number | null;
  error_type: string | null;
  attempts: number;
  event_time: Date | string;
  sent_at: Date | string | null;
  created_at: Date | string;
};
const iso = (d: Date | string) => new Date(d).toISOString();
const eventOut = (r: EventRow): z.infer<typeof conversionEventOut> => ({
  _id: r.id,
  eventName: r.event_name,
  channel: r.channel,
  status: r.status,
  leadId: r.lead_id,
  orderId: r.order_id,
  value: r.value === null ? null : Number(r.value),
  currency: r.currency,
  reason: r.reason,
  eventsReceived: r.events_received,
  fbtraceId: r.fbtrace_id,
  errorCode: r.error_code,
  errorType: r.error_type,
  attempts: r.attempts,
  eventTime: iso(r.event_time),
  sentAt: r.sent_at ? iso(r.sent_at) : null,
  createdAt: iso(r.created_at),
});
const COLUMNS = sql.raw(`id::text, event_name, channel, status, lead_id::text, order_id::text, value::text, currency, reason, events_received, fbtrace_id, error_code, error_type,
  attempts, event_time, sent_at, created_at`);

async function settingsOut(db: Db, companyId: string): Promise<z.infer<typeof conversionSettingsOut>> {
  const [s] = await rowsOf<{ enabled: boolean; dataset_id: string | null; token_hint: string | null; access_token: string | null; qualified_status: string; send_qualified: boolean }>(
    db,
    sql`select enabled, dataset_id, token_hint, access_token, qualified_status, send_qualified from conversion_settings where company_id = ${companyId}`,
  );
  if (!s) return { enabled: false, tokenSet: false, qualifiedStatus: 'informado-al-agente', sendQualified: true };
  return {
    enabled: s.enabled,
    ...(s.dataset_id ? { datasetId: s.dataset_id } : {}),
    tokenSet: Boolean(s.access_token),
    ...(s.token_hint ? { tokenHint: s.token_hint } : {}),
    qualifiedStatus: s.qualified_status as z.infer<typeof conversionSettingsOut>['qualifiedStatus'],
    sendQualified: s.send_qualified,
  };
}

/**
 * Meta's Conversions API for business messaging (issue 31, decision 0098): the company's settings
 * (the token sealed, never returned), the per-event log, and a retry.
 */
export const conversionsRoutes: FastifyPluginAsyncZod<{ client?: ConversionsClient }> = async (app, options) => {
  const { db } = app.database;
  const client = options.client ?? createConversionsClient(app.settings.graphApiUrl);
  const tags = ['conversions-api'];
  const may = (action: 'read' | 'update') => ({ permission: { module: 'integrations' as const, action } });

  await app.register(conversionsJobs, { client });

  app.get('/conversions-api/settings', { config: may('read'), schema: { tags, response: { 200: conversionSettingsOut } } }, async (request) => settingsOut(db, tenantOf(request).companyId));

  app.put('/conversions-api/settings', { config: may('update'), schema: { tags, body: conversionSettingsInput, response: { 200: conversionSettingsOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const body = request.body;
    await db.transaction(async (tx) => {
      const [before] = await rowsOf<Record<string, unknown>>(tx, sql`select * from conversion_settings where company_id = ${companyId} for update`);
      const datasetId = body.datasetId ?? (before?.dataset_id as string | null | undefined) ?? null;
      const accessToken = body.accessToken ? app.secrets.seal(body.accessToken) : ((before?.access_token as string | null | undefined) ?? null);
      const tokenHint = body.accessToken ? `${isSandboxAdsToken(body.accessToken) ? 'sandbox' : ''}…${body.accessToken.slice(-4)}` : ((before?.token_hint as string | null | undefined) ?? null);
      const qualifiedStatus = body.qualifiedStatus ?? (before?.qualified_status as string | undefined) ?? 'informado-al-agente';
      const sendQualified = body.sendQualified ?? (before?.send_qualified as boolean | undefined) ?? true;
      if (body.enabled && !datasetId) throw new AppError('VALIDATION', conversionsMessages.needsDataset, [{ path: 'datasetId', msg: conversionsMessages.needsDataset }]);
      if (body.enabled && !accessToken) throw new AppError('VALIDATION', conversionsMessages.needsToken, [{ path: 'accessToken', msg: conversionsMessages.needsToken }]);
      const [after] = await rowsOf<Record<string, unknown>>(
        tx,
        sql`insert into conversion_settings (company_id, enabled, dataset_id, access_token, token_hint, qualified_status, send_qualified, updated_at)
            values (${companyId}, ${body.enabled}, ${datasetId}, ${accessToken}, ${tokenHint}, ${qualifiedStatus}, ${sendQualified}, now())
            on conflict (company_id) do update set enabled = excluded.enabled, dataset_id = excluded.dataset_id, access_token = excluded.access_token, token_hint = excluded.token_hint,
              qualified_status = excluded.qualified_status, send_qualified = excluded.send_qualified, updated_at = now()
            returning *`,
      );
      await auditSettings(tx, { companyId, entity: 'conversion_settings', entityId: companyId, before: before ?? null, after, secrets: ['access_token'], skip: ['token_hint', 'updated_at'] });
    });
    return settingsOut(db, companyId);
  });

  app.get('/conversions-api/events', { config: may('read'), schema: { tags, querystring: conversionEventsQuery, response: { 200: conversionEventsOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const { status, cursor } = request.query;
    // newest first, keyset on (created_at, id): the cursor is the last row's
    let after = sql``;
    if (cursor) {
      const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
      if (!at || !id || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/.test(id)) throw new AppError('VALIDATION', 'El cursor no es válido', [{ path: 'cursor', msg: 'El cursor no es válido' }]);
      after = sql` and (created_at, id) < (${at}::timestamptz, ${id}::uuid)`;
    }
    const rows = await rowsOf<EventRow>(
      db,
      sql`select ${COLUMNS} from conversion_events where company_id = ${companyId}${status ? sql` and status = ${status}` : sql``}${after}
          order by created_at desc, id desc limit ${PAGE + 1}`,
    );
    const page = rows.slice(0, PAGE);
    const last = page.at(-1);
    return {
      data: page.map(eventOut),
      ...(rows.length > PAGE && last ? { nextCursor: Buffer.from(`${iso(last.created_at)}|${last.id}`).toString('base64url') } : {}),
    };
  });

  app.post(
    '/conversions-api/events/:id/retry',
    { config: may('update'), schema: { tags, params: z.object({ id: z.uuid({ error: conversionsMessages.notFound }) }), response: { 200: conversionEventOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const [row] = await rowsOf<EventRow>(db, sql`select ${COLUMNS} from conversion_events where company_id = ${companyId} and id = ${request.params.id}`);
      if (!row) throw new AppError('NOT_FOUND', conversionsMessages.notFound);
      if (row.status !== 'failed' && row.status !== 'pending') throw new AppError('CONFLICT', conversionsMessages.notRetryable);
      const [updated] = await rowsOf<EventRow>(
        db,
        sql`update conversion_events set status = 'pending', next_attempt_at = now()
            where company_id = ${companyId} and id = ${request.params.id} and payload is not null and expires_at > now() returning ${COLUMNS}`,
      );
      // past the click's 7 days Meta drops it: it is not sent again
      if (!updated) throw new AppError('CONFLICT', row.reason === conversionsMessages.organic ? conversionsMessages.notRetryable : conversionsMessages.expired);
      await app.jobs.send(CONVERSIONS_SEND_QUEUE, { companyId });
      return eventOut(updated);
    },
  );
};
