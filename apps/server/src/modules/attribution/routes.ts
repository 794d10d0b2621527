import { attributionChatsOut, attributionChatsQuery, attributionOut, attributionQuery, attributionSettings, attributionSettingsOut, type AttributionQuery } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Db, rowsOf } from '../../db/database.js';
import { audit } from '../../db/audit.js';
import { tenantOf } from '../../plugins/auth.js';
import { currencyOf } from '../../db/company-currency.js';
import { timezoneOf } from '../leads/summary.js';
import { windowOf } from '../metrics/window.js';
import { settingsOf } from './attribute.js';
import { type FunnelWindow, funnelCsv, readFunnel, readFunnelChats } from './funnel.js';
import { ATTRIBUTION_REATTRIBUTE_QUEUE, attributionJobs } from './jobs.js';

const tags = ['metrics'];
const read = { permission: { module: 'metrics' as const, action: 'read' as const } };
const change = { permission: { module: 'settings' as const, action: 'update' as const } };

/** The funnel's window: the query's local days (both inclusive), else the last 30 days, in the company's zone and currency. */
async function windowFor(db: Db, companyId: string, q: Pick<AttributionQuery, 'from' | 'to'>): Promise<FunnelWindow> {
  const [timezone, currency] = await Promise.all([timezoneOf(db, companyId), currencyOf(db, companyId)]);
  const w = windowOf(q.from || q.to ? { from: q.from, to: q.to } : { days: 30 }, timezone);
  return { from: w.from, to: w.to, timezone, currency };
}

async function settingsOut(db: Db, companyId: string) {
  const setting = await settingsOf(db, companyId);
  const [row] = await rowsOf<{ reattributed_at: Date | string | null; behind: boolean }>(
    db,
    sql`select reattributed_at, reattributed_at is null or reattributed_at < updated_at as behind from attribution_settings where company_id = ${companyId}`,
  );
  return { ...setting, reattributedAt: row?.reattributed_at ? new Date(row.reattributed_at).toISOString() : null, reattributing: row?.behind ?? false };
}

/**
 * Attribution (issue 31, decisions 0096 and 0097): the funnel by ad campaign, ad, send or agent,
 * its CSV, the conversations behind a row, and the company's settings (window, last or first
 * touch). Reading is the metrics module's; changing the settings the settings module's.
 */
export const attributionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(attributionJobs);

  app.get('/metrics/attribution', { config: read, schema: { tags, querystring: attributionQuery, response: { 200: attributionOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const [w, setting] = await Promise.all([windowFor(db, companyId, request.query), settingsOf(db, companyId)]);
    return readFunnel(db, companyId, request.query.by, w, setting);
  });

  app.get('/metrics/attribution/export', { config: read, schema: { tags, querystring: attributionQuery } }, async (request, reply) => {
    const { companyId } = tenantOf(request);
    const [w, setting] = await Promise.all([windowFor(db, companyId, request.query), settingsOf(db, companyId)]);
    const funnel = await readFunnel(db, companyId, request.query.by, w, setting);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="atribucion-${request.query.by}-${w.from}-${w.to}.csv"`)
      .header('cache-control', 'no-store')
      .send(funnelCsv(funnel));
  });

  app.get('/metrics/attribution/chats', { config: read, schema: { tags, querystring: attributionChatsQuery, response: { 200: attributionChatsOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const { by, key, page, limit } = request.query;
    const w = await windowFor(db, companyId, request.query);
    return readFunnelChats(db, companyId, by, key, w, page, limit);
  });

  app.get('/metrics/attribution/settings', { config: read, schema: { tags, response: { 200: attributionSettingsOut } } }, (request) =>
    settingsOut(db, tenantOf(request).companyId),
  );

  app.put('/metrics/attribution/settings', { config: change, schema: { tags, body: attributionSettings, response: { 200: attributionSettingsOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const before = await settingsOf(db, companyId);
    const { windowDays, model } = request.body;
    if (before.windowDays !== windowDays || before.model !== model) {
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into attribution_settings (company_id, window_days, model, updated_at) values (${companyId}, ${windowDays}, ${model}, now())
          on conflict (company_id) do update set window_days = excluded.window_days, model = excluded.model, updated_at = now()`);
        await audit(tx, { companyId, action: 'update', entity: 'attribution_settings', changes: { windowDays: { from: before.windowDays, to: windowDays }, model: { from: before.model, to: model } } });
      });
      // every conversation and order attributed again under the new settings, by a job (a company's whole history)
      await app.jobs.send(ATTRIBUTION_REATTRIBUTE_QUEUE, { companyId });
    }
    return settingsOut(db, companyId);
  });
};
