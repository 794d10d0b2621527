import { fieldLabels, type MetricName, metricFilters, metricNames, metricOutputs, metricsFilter } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rowsOf } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { type MetricContext, metricDefinitions } from './definitions.js';
import { METRICS_REBUILD_QUEUE, metricsJobs } from './jobs.js';
import { metricsZone } from './rollups.js';
import { windowOf } from './window.js';

const permission = { permission: { module: 'metrics' as const, action: 'read' as const } };

/**
 * The metric calls (SPEC §7 Metrics; issue 14, decision 0045): `POST /api/metrics/<name>` for
 * each of the contract's metricNames, all the same way — the filter body validated by the
 * contract, the company from the tenant, the rollups in the company's zone (rebuilt first when
 * the zone changed), a filter the call does not take refused, then the call's definition.
 */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(metricsJobs);

  async function answer(name: MetricName, companyId: string, filter: MetricContext['filter']) {
    const allowed = metricFilters[name];
    for (const key of ['channel', 'agenteId', 'campaignId'] as const) {
      if (filter[key] !== undefined && !allowed.includes(key)) {
        throw new AppError('VALIDATION', `El filtro «${fieldLabels[key]}» no aplica a esta métrica`, [{ path: key, msg: 'No aplica a esta métrica' }]);
      }
    }
    if (filter.channel && name !== 'leads_by_month' && filter.channel === 'web') {
      throw new AppError('VALIDATION', 'Esta métrica no tiene el canal web', [{ path: 'channel', msg: 'Canal desconocido' }]);
    }
    let agentUser: string | null | undefined;
    if (filter.agenteId) {
      const [agent] = await rowsOf<{ user_id: string | null }>(db, sql`select user_id from agentes where company_id = ${companyId} and id = ${filter.agenteId}`);
      if (!agent) throw new AppError('VALIDATION', 'Ese agente no existe en esta compañía', [{ path: 'agenteId', msg: 'No existe en esta compañía' }]);
      agentUser = agent.user_id && /^[0-9a-f-]{36}$/i.test(agent.user_id) ? agent.user_id : null;
    }
    const timezone = await metricsZone(db, companyId, () =>
      app.jobs.send(METRICS_REBUILD_QUEUE, { companyId }, { singletonKey: companyId, singletonSeconds: 60 }),
    );
    const ctx: MetricContext = { db, companyId, timezone, window: windowOf(filter, timezone), filter, agentUser };
    return (metricDefinitions[name] as (c: MetricContext) => Promise<unknown>)(ctx);
  }

  for (const name of metricNames) {
    app.post(
      `/metrics/${name}`,
      { config: permission, schema: { tags: ['metrics'], body: metricsFilter, response: { 200: metricOutputs[name] } } },
      // biome-ignore lint/suspicious/noExplicitAny: each call's answer is checked by its own response schema
      (request) => answer(name, tenantOf(request).companyId, request.body ?? {}) as Promise<any>,
    );
  }
};
