import {
  llmCostUsd,
  llmModelPrices,
  type LlmSettingsOut,
  llmSettingsInput,
  llmSettingsOut,
  llmSummaryOut,
  llmSummaryQuery,
  llmTestOut,
} from '@mostrador/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditSettings } from '../../db/audit.js';
import { llmSettings } from '../../db/llm-tables.js';
import { assertTargetUrl, rethrowRefusalAs400 } from '../../integrations/outbound.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { llmErrorOf, testOpenAiConnection } from '../analysis/openai-engine.js';
import { timezoneOf } from '../leads/summary.js';
import { currencyOf } from '../../db/company-currency.js';
import { llmSettingsOf, type LlmSettingsRow, monthOf, recordCall, settleBudget } from './ledger.js';
import { llmSummary } from './summary.js';

const defaults: LlmSettingsOut = {
  configured: false,
  enabled: false,
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  apiKeySet: false,
  inputPriceUsd: llmModelPrices['gpt-4o-mini'].input,
  outputPriceUsd: llmModelPrices['gpt-4o-mini'].output,
  monthlyBudgetUsd: 10,
};

const settingsOut = (row: LlmSettingsRow | undefined): LlmSettingsOut =>
  row
    ? {
        configured: true,
        enabled: row.enabled,
        baseUrl: row.baseUrl,
        model: row.model,
        apiKeySet: !!row.apiKey,
        ...(row.apiKeyLast4 ? { apiKeyLast4: row.apiKeyLast4 } : {}),
        inputPriceUsd: row.inputPriceUsd,
        outputPriceUsd: row.outputPriceUsd,
        monthlyBudgetUsd: row.monthlyBudgetUsd,
      }
    : defaults;

/**
 * The OpenAI-compatible engine's settings (the key sealed, decision 0010; never answered: only
 * whether it is saved and its last 4), «Probar conexión», and the ledger's totals (decision 0046).
 */
export const llmRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const tags = ['llm'];

  app.get('/llm/settings', { config: { permission: { module: 'integrations', action: 'read' } }, schema: { tags, response: { 200: llmSettingsOut } } }, async (request) =>
    settingsOut(await llmSettingsOf(db, tenantOf(request).companyId)),
  );

  app.put(
    '/llm/settings',
    { config: { permission: { module: 'integrations', action: 'update' } }, schema: { tags, body: llmSettingsInput, response: { 200: llmSettingsOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { apiKey, inputPriceUsd, outputPriceUsd, ...rest } = request.body;
      // an internal address written as such is refused on save; what a name resolves to, on every call (decision 0060)
      assertTargetUrl(rest.baseUrl, 'baseUrl', { base: true });
      const current = await llmSettingsOf(db, companyId);
      if (rest.enabled && !apiKey && !current?.apiKey) throw new AppError('VALIDATION', 'Escribe la API key del servicio', [{ path: 'apiKey', msg: 'Escribe la API key para activar el motor' }]);
      if (rest.enabled && rest.monthlyBudgetUsd <= 0) {
        throw new AppError('VALIDATION', 'Define un presupuesto mensual mayor que 0', [{ path: 'monthlyBudgetUsd', msg: 'Un presupuesto mayor que 0 (USD al mes)' }]);
      }
      const known = llmModelPrices[rest.model];
      const input = inputPriceUsd ?? known?.input;
      const output = outputPriceUsd ?? known?.output;
      if (input === undefined || output === undefined) {
        const msg = `No conocemos el precio de «${rest.model}»: escribe los precios por millón de tokens`;
        throw new AppError('VALIDATION', msg, [...(input === undefined ? [{ path: 'inputPriceUsd', msg: 'Escribe el precio de entrada' }] : []), ...(output === undefined ? [{ path: 'outputPriceUsd', msg: 'Escribe el precio de salida' }] : [])]);
      }
      const values = {
        ...rest,
        inputPriceUsd: input,
        outputPriceUsd: output,
        apiKey: apiKey ? app.secrets.seal(apiKey) : (current?.apiKey ?? null),
        apiKeyLast4: apiKey ? apiKey.slice(-4) : (current?.apiKeyLast4 ?? null),
        updatedAt: new Date(),
      };
      // the settings and their audit entry in one transaction, the key masked (decision 0072)
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(llmSettings).where(eq(llmSettings.companyId, companyId)).for('update');
        const [after] = await tx.insert(llmSettings).values({ companyId, ...values }).onConflictDoUpdate({ target: llmSettings.companyId, set: values }).returning();
        await auditSettings(tx, { companyId, entity: 'llm_settings', entityId: companyId, before, after, secrets: ['apiKey'], skip: ['apiKeyLast4'] });
      });
      // a new budget is read at once: this month's pause is lifted (the next call checks it again)
      await db.execute(sql`update llm_budget_months set paused_at = null where company_id = ${companyId} and month = ${monthOf(await timezoneOf(db, companyId))}`);
      return settingsOut(await llmSettingsOf(db, companyId));
    },
  );

  app.post(
    '/llm/settings/test',
    { config: { permission: { module: 'integrations', action: 'read' } }, schema: { tags, response: { 200: llmTestOut } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const settings = await llmSettingsOf(db, companyId);
      if (!settings?.apiKey) throw new AppError('VALIDATION', 'Guarda primero la URL base, el modelo y la API key', [{ path: 'apiKey', msg: 'Escribe la API key y guarda' }]);
      const [timezone, currency] = await Promise.all([timezoneOf(db, companyId), currencyOf(db, companyId)]);
      const prices = { input: settings.inputPriceUsd, output: settings.outputPriceUsd };
      const base = { companyId, name: 'Prueba de conexión', model: settings.model, feature: 'connection_test' as const, currency };
      const started = performance.now();
      try {
        const answer = await testOpenAiConnection({ baseUrl: settings.baseUrl, model: settings.model, apiKey: app.secrets.open<string>(settings.apiKey), timeoutMs: 20_000 });
        const costUsd = llmCostUsd(answer.promptTokens, answer.completionTokens, prices);
        await settleBudget(db, companyId, monthOf(timezone), 0, costUsd);
        await recordCall(db, { ...base, promptTokens: answer.promptTokens, completionTokens: answer.completionTokens, costUsd, latencyMs: answer.latencyMs, outcome: 'ok' });
        return {
          ok: true,
          latencyMs: answer.latencyMs,
          msg: `Conexión correcta con ${settings.model}: respondió en ${(answer.latencyMs / 1000).toFixed(1)} s con un análisis válido (${answer.promptTokens + answer.completionTokens} tokens)`,
        };
      } catch (error) {
        // a base URL the outbound client refuses is the setting to fix: a 400 on it, and nothing
        // recorded — no call went out (a 400 writes nothing)
        rethrowRefusalAs400(error, 'baseUrl');
        const failure = llmErrorOf(error, 20_000);
        const costUsd = llmCostUsd(failure.usage.promptTokens, failure.usage.completionTokens, prices);
        if (costUsd) await settleBudget(db, companyId, monthOf(timezone), 0, costUsd);
        await recordCall(db, { ...base, ...failure.usage, costUsd, latencyMs: performance.now() - started, outcome: 'error', error: failure.message });
        const hint =
          failure.kind === 'invalid'
            ? ': el modelo debe admitir salida estructurada (response_format json_schema)'
            : failure.kind === 'auth'
              ? ': revisa la API key'
              : '';
        return { ok: false, msg: `${failure.message}${hint}` };
      }
    },
  );

  app.get(
    '/llm-tracker/summary',
    { config: { permission: { module: 'metrics', action: 'list' } }, schema: { tags: ['llm-tracker'], querystring: llmSummaryQuery, response: { 200: llmSummaryOut } } },
    async (request) => llmSummary(db, tenantOf(request), request.query),
  );
};
