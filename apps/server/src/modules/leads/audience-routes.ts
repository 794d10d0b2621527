import { type AudienceOverviewItem, audienceIdParams, audienceMessages, audienceOverview, audienceOverviewItem, audienceSendOut } from '@mostrador/contract';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, rowsOf } from '../../db/database.js';
import { audienceSends } from '../../db/join-tables.js';
import { metaAdAccounts } from '../../db/meta-ads-tables.js';
import { ProviderError } from '../../integrations/meta/send.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { type AudienceUploadDeps, audienceSendOutOf, createAudienceAtFacebook, retryAudienceSend } from './audience.js';

/** Sends a history lists (newest first). */
const HISTORY_LIMIT = 50;

/** The company's audiences with their members and last send (one read for the screen). */
async function overviewItems(db: Db, companyId: string, only?: string): Promise<AudienceOverviewItem[]> {
  const rows = await rowsOf<{
    id: string;
    name: string;
    facebook_audience_id: string | null;
    members: number;
    last_send_id: string | null;
  }>(
    db,
    sql`select a.id, a.name, a.facebook_audience_id,
        (select count(*)::int from audience_members m where m.company_id = a.company_id and m.audience_id = a.id) as members,
        (select s.id from audience_sends s where s.company_id = a.company_id and s.audience_id = a.id order by s.created_at desc, s.id desc limit 1) as last_send_id
      from facebook_audiences a
      where a.company_id = ${companyId} ${only ? sql`and a.id = ${only}` : sql``}
      order by a.name limit 500`,
  );
  const sendIds = rows.map((r) => r.last_send_id).filter((id): id is string => !!id);
  const sends = sendIds.length
    ? await db
        .select()
        .from(audienceSends)
        .where(and(eq(audienceSends.companyId, companyId), inArray(audienceSends.id, sendIds)))
    : [];
  const byId = new Map(sends.map((s) => [s.id, audienceSendOutOf(s)]));
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    facebookAudienceId: r.facebook_audience_id,
    members: r.members,
    lastSend: (r.last_send_id && byId.get(r.last_send_id)) || null,
  }));
}

/**
 * /facebook-audiencias (decision 0048): the audiences with their state at Facebook, members and
 * last send; a send's history; «Crear en Facebook»; «Reintentar» a failed send. The sends
 * themselves are POST /leads/send-to-audience and /clean-leads/send-to-audience (routes.ts).
 */
export const audienceRoutes: FastifyPluginAsyncZod<{
  deps: AudienceUploadDeps;
}> = async (app, { deps }) => {
  const { db } = deps;
  const tags = ['facebook-audiences'];
  const marketing = (action: 'list' | 'update') => ({
    permission: { module: 'marketing' as const, action },
  });

  app.get(
    '/facebook-audiences/overview',
    {
      config: marketing('list'),
      schema: { tags, response: { 200: audienceOverview } },
    },
    async (request) => {
      const { companyId } = tenantOf(request);
      const [account] = await db.select().from(metaAdAccounts).where(eq(metaAdAccounts.companyId, companyId));
      return {
        account: account
          ? {
              configured: true,
              adAccountId: account.adAccountId,
              ...(account.name ? { name: account.name } : {}),
              sandbox: account.tokenHint.startsWith('sandbox'),
            }
          : { configured: false },
        payload: await overviewItems(db, companyId),
      };
    },
  );

  app.get(
    '/facebook-audiences/:id/sends',
    {
      config: marketing('list'),
      schema: {
        tags,
        params: audienceIdParams,
        response: { 200: z.object({ payload: z.array(audienceSendOut) }) },
      },
    },
    async (request) => {
      const { companyId } = tenantOf(request);
      const [audience] = await overviewItems(db, companyId, request.params.id);
      if (!audience) throw new AppError('NOT_FOUND', 'La audiencia no existe en esta compañía');
      const sends = await db
        .select()
        .from(audienceSends)
        .where(and(eq(audienceSends.companyId, companyId), eq(audienceSends.audienceId, request.params.id)))
        .orderBy(desc(audienceSends.createdAt), desc(audienceSends.id))
        .limit(HISTORY_LIMIT);
      return { payload: sends.map(audienceSendOutOf) };
    },
  );

  app.post(
    '/facebook-audiences/:id/create-at-facebook',
    {
      config: marketing('update'),
      schema: {
        tags,
        params: audienceIdParams,
        response: { 200: audienceOverviewItem.extend({ msg: z.string() }) },
      },
    },
    async (request) => {
      const { companyId } = tenantOf(request);
      const [before] = await overviewItems(db, companyId, request.params.id);
      if (!before) throw new AppError('NOT_FOUND', 'La audiencia no existe en esta compañía');
      if (before.facebookAudienceId) throw new AppError('VALIDATION', audienceMessages.alreadyCreated, [{ path: 'id', msg: audienceMessages.alreadyCreated }]);
      try {
        await createAudienceAtFacebook(deps, companyId, request.params.id);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        throw new AppError('VALIDATION', error.reason, [{ path: 'id', msg: error.reason }]);
      }
      const [after] = await overviewItems(db, companyId, request.params.id);
      return { ...after, msg: audienceMessages.created };
    },
  );

  app.post(
    '/audience-sends/:id/retry',
    {
      config: {
        permission: { module: 'leads' as const, action: 'update' as const },
      },
      schema: {
        tags,
        params: audienceIdParams,
        response: { 200: audienceSendOut.extend({ msg: z.string() }) },
      },
    },
    async (request) => {
      const row = await retryAudienceSend(db, app.jobs, tenantOf(request), request.params.id);
      return { ...audienceSendOutOf(row), msg: audienceMessages.retried };
    },
  );
};
