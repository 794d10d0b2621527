import { defineResource } from '../define-resource.js';
import { zAmount, zEnum, zInteger, zOptionalText, zText } from '../fields.js';

/** The product feature that made a model call: conversation analysis (issue 14) and a settings screen's «Probar conexión» among them. */
export const llmFeatures = ['analysis', 'connection_test', 'chat', 'sentiment', 'summary', 'classification'] as const;
export type LlmFeature = (typeof llmFeatures)[number];
export const llmFeatureLabels: Record<LlmFeature, string> = {
  analysis: 'Análisis de conversaciones',
  connection_test: 'Prueba de conexión',
  chat: 'Chat',
  sentiment: 'Análisis de sentimiento',
  summary: 'Resumen',
  classification: 'Clasificación',
};

/**
 * How a call ended: `ok` the model answered (valid); `fallback` it failed (HTTP error, timeout,
 * an answer that is not the schema) and the embedded engine answered; `budget` not called, the
 * month's budget was reached (the embedded engine answered); `error` it failed and nothing
 * answered for it (a connection test).
 */
export const llmOutcomes = ['ok', 'fallback', 'budget', 'error'] as const;
export type LlmOutcome = (typeof llmOutcomes)[number];
export const llmOutcomeLabels: Record<LlmOutcome, string> = {
  ok: 'Correcta',
  fallback: 'Falló (motor integrado)',
  budget: 'Sin presupuesto (motor integrado)',
  error: 'Error',
};

/**
 * llm-tracker (SPEC §3, §7, /seguimiento-gpt; issue 14, decision 0046): the ledger, one row per
 * call to a language model, written by the server (the web only reads it). From SPEC §3: name
 * (what the call was for). Not shown in SPEC: the model, the product feature, the prompt and
 * completion tokens, the cost in US dollars and in the company's currency (`costLocal`,
 * `currency`, at the reference rates of whatsapp-pricing.ts), the latency, the outcome and its
 * error. Default sort createdAt desc: the latest call first.
 */
export const llmTracker = defineResource({
  key: 'llm-tracker',
  label: 'Seguimiento GPT',
  labelPlural: 'Seguimiento GPT',
  module: 'metrics',
  fields: {
    name: zText(200),
    model: zText(80),
    feature: zEnum(llmFeatures),
    promptTokens: zInteger(0),
    completionTokens: zInteger(0),
    costUsd: zAmount(),
    costLocal: zAmount().optional(),
    currency: zOptionalText(3).optional(),
    latencyMs: zInteger(0).optional(),
    outcome: zEnum(llmOutcomes).optional(),
    error: zOptionalText(500).optional(),
  },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['name', 'model'],
  sortable: ['name', 'costUsd', 'latencyMs'],
  filterable: ['feature', 'outcome', 'createdAt'],
  examples: [
    { name: 'Respuesta a María Fernández', model: 'gpt-4o-mini', feature: 'chat', promptTokens: 1840, completionTokens: 212, costUsd: 0.0004, latencyMs: 930, outcome: 'ok' },
    { name: 'Sentimiento de chats de la semana', model: 'gpt-4o-mini', feature: 'sentiment', promptTokens: 5230, completionTokens: 410, costUsd: 0.0010305, latencyMs: 4200, outcome: 'ok' },
    { name: 'Chat con Luis Paredes: análisis', model: 'gpt-4o-mini', feature: 'analysis', promptTokens: 0, completionTokens: 0, costUsd: 0, latencyMs: 30000, outcome: 'fallback', error: 'Tiempo de espera agotado (30 s)' },
  ],
});
