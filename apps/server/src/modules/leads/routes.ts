import {
  audienceSendResult,
  byLabelsQuery,
  LEADS_ALL_MAX,
  type Action,
  labelsMassiveInput,
  segmentPreviewInput,
  segmentPreviewOut,
  labelsMassiveResult,
  leadFilterQuery,
  leadSummaryOut,
  leadSummaryQuery,
  odooLeadValues,
  odooValuesQuery,
  pageOf,
  resources,
  sendToAudienceInput,
} from '@mostrador/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { repositoryOf } from '../../resources/crud.js';
import type { FilteredQuery } from '../../resources/repository.js';
import {
  type AudienceKind,
  assertCompanyLabels,
  assertOwnCompany,
  audienceOf,
  byLabelsCondition,
  processAudienceSend,
  queuedAudienceSends,
  recordAudienceSend,
} from './audience.js';
import { audienceRoutes } from './audience-routes.js';
import { createAudienceClient } from '../../integrations/meta/audiences.js';
import { cleanLeadOnPlatform } from './conditions.js';
import { AUDIENCE_UPLOAD_QUEUE, leadJobs, MAILCHIMP_SYNC_QUEUE } from './jobs.js';
import { processMailchimpSync, queuedMailchimpSyncs, previewSegment, setLabelsMassive } from './labels-massive.js';
import { odooValues } from './odoo.js';
import { leadSummary } from './summary.js';

const permission = (action: Action) => ({ permission: { module: 'leads' as const, action } });
/** The calls' own queries are strict, like the standard lists: an unknown parameter is a 400. */
const allQuery = leadFilterQuery.strict();
const labelsQuery = byLabelsQuery.strict();

/**
 * The lead calls beyond the standard resource (SPEC §7 Leads and clean leads; contract
 * lead-api.ts; decision 0015). The buckets (/lead/sin-asignar …) are the standard list with
 * field filters; a status or agent moves through the standard PUT /leads/{id}. Static paths
 * here win over /leads/{id} and /clean-leads/{id} (the router prefers static segments).
 * CSV export and import live in csv-routes.ts.
 */
export const leadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const repos = { leads: repositoryOf(resources.leads, app.secrets), 'clean-leads': repositoryOf(resources['clean-leads'], app.secrets) };
  const entities = { leads: resources.leads.entity.partial(), 'clean-leads': resources['clean-leads'].entity.partial() };

  // the upload to Meta's Custom Audiences (decision 0048): the company's ad account, its sandbox in the demo
  const audienceClient = createAudienceClient(app.settings.graphApiUrl);
  const audienceDeps = { db, secrets: app.secrets, client: audienceClient, realtime: app.realtime, log: app.log };
  await app.register(leadJobs, {
    uploadAudience: (sendId: string) => processAudienceSend(audienceDeps, sendId),
    syncMailchimp: (syncId: string) => processMailchimpSync(db, syncId),
  });
  await app.register(audienceRoutes, { deps: audienceDeps });
  // sends recorded but never queued (a crash between the two) are queued again once the queue runs
  app.addHook('onReady', async () => {
    try {
      for (const id of await queuedAudienceSends(db)) await app.jobs.send(AUDIENCE_UPLOAD_QUEUE, { sendId: id }, { singletonKey: id });
      for (const id of await queuedMailchimpSyncs(db)) await app.jobs.send(MAILCHIMP_SYNC_QUEUE, { syncId: id }, { singletonKey: id });
    } catch (error) {
      app.log.warn({ err: error }, 'no se pudieron reencolar los envíos pendientes');
    }
  });

  /** A clean lead is on a platform when one of its leads is (no platform: no condition). */
  const cleanLeadOn = (platform: string | undefined) => (platform ? cleanLeadOnPlatform(platform) : undefined);

  // ---- leads ----

  app.get(
    '/leads/summary',
    { config: permission('list'), schema: { tags: ['leads'], querystring: leadSummaryQuery, response: { 200: leadSummaryOut } } },
    (request) => leadSummary(db, tenantOf(request), request.query),
  );

  app.get(
    '/leads/all',
    { config: permission('list'), schema: { tags: ['leads'], querystring: allQuery, response: { 200: z.object({ payload: z.array(entities.leads) }) } } },
    (request) => repos.leads.all(db, tenantOf(request), request.query as FilteredQuery, LEADS_ALL_MAX),
  );

  // ---- both kinds: by labels and send to an audience ----

  for (const kind of ['leads', 'clean-leads'] as const satisfies readonly AudienceKind[]) {
    app.get(
      `/${kind}/get-by-mostradorlabels`,
      { config: permission('list'), schema: { tags: [kind], querystring: labelsQuery, response: { 200: pageOf(entities[kind]) } } },
      async (request) => {
        const tenant = tenantOf(request);
        const { mostradorLabels, company, audienceId, showMissingLeads, ...list } = request.query;
        assertOwnCompany(tenant, company);
        if (showMissingLeads && !audienceId) {
          throw new AppError('VALIDATION', 'Elige la audiencia para ver los que faltan enviar', [{ path: 'audienceId', msg: 'Este campo es requerido' }]);
        }
        if (audienceId) await audienceOf(db, tenant, audienceId);
        await assertCompanyLabels(db, tenant, mostradorLabels);
        const condition = byLabelsCondition(kind, mostradorLabels, showMissingLeads ? audienceId : undefined);
        return repos[kind].list(db, tenant, list as FilteredQuery, condition);
      },
    );

    app.post(
      `/${kind}/send-to-audience`,
      { config: permission('update'), schema: { tags: [kind], body: sendToAudienceInput, response: { 200: audienceSendResult } } },
      (request) => recordAudienceSend(db, app.jobs, tenantOf(request), kind, request.body),
    );
  }

  // ---- clean leads ----

  app.get(
    '/clean-leads/list_with_advance_filter',
    { config: permission('list'), schema: { tags: ['clean-leads'], querystring: allQuery, response: { 200: pageOf(entities['clean-leads']) } } },
    (request) => {
      const { platform, ...q } = request.query;
      return repos['clean-leads'].list(db, tenantOf(request), q as FilteredQuery, cleanLeadOn(platform));
    },
  );

  app.get(
    '/clean-leads/all',
    { config: permission('list'), schema: { tags: ['clean-leads'], querystring: allQuery, response: { 200: z.object({ payload: z.array(entities['clean-leads']) }) } } },
    (request) => {
      const { platform, ...q } = request.query;
      return repos['clean-leads'].all(db, tenantOf(request), q as FilteredQuery, LEADS_ALL_MAX, cleanLeadOn(platform));
    },
  );

  app.post(
    '/clean-leads/set_mostrador_labels_massive',
    { config: permission('update'), schema: { tags: ['clean-leads'], body: labelsMassiveInput, response: { 200: labelsMassiveResult } } },
    (request) => setLabelsMassive(db, app.jobs, tenantOf(request), request.body),
  );

  app.post(
    '/marketing-segments/preview',
    {
      config: { permission: { module: 'marketing', action: 'list' } },
      schema: { tags: ['marketing-segments'], body: segmentPreviewInput, response: { 200: segmentPreviewOut } },
    },
    (request) => previewSegment(db, tenantOf(request), request.body.filters),
  );

  app.get(
    '/clean-leads/get_lead_odoo_values',
    { config: permission('read'), schema: { tags: ['clean-leads'], querystring: odooValuesQuery, response: { 200: odooLeadValues } } },
    (request) => odooValues(db, tenantOf(request), request.query.id),
  );
};
