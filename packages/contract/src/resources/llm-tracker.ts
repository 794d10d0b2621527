import { defineResource } from '../define-resource.js';
import { zAmount, zEnum, zInteger, zText } from '../fields.js';

export const llmFeatures = ['chat', 'sentiment', 'summary', 'classification'] as const;
export type LlmFeature = (typeof llmFeatures)[number];
export const llmFeatureLabels: Record<LlmFeature, string> = {
  chat: 'Chat',
  sentiment: 'Análisis de sentimiento',
  summary: 'Resumen',
  classification: 'Clasificación',
};

/**
 * llm-tracker (SPEC §3, §7, /seguimiento-gpt): one row per call to a language model. From
 * SPEC §3: name (what the call was for). Not shown: the model, the product feature that made
 * the call, the prompt and completion tokens and the cost in US dollars. Default sort
 * createdAt desc: the latest call first.
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
  },
  defaultSort: { field: 'createdAt', order: 'desc' },
  searchable: ['name', 'model'],
  sortable: ['name', 'costUsd'],
  examples: [
    { name: 'Respuesta a María Fernández', model: 'gpt-4o-mini', feature: 'chat', promptTokens: 1840, completionTokens: 212, costUsd: 0.0004 },
    { name: 'Sentimiento de chats de marzo', model: 'gpt-4o', feature: 'sentiment', promptTokens: 52300, completionTokens: 4100, costUsd: 0.17 },
    { name: 'Resumen del chat con Luis Paredes', model: 'gpt-4o-mini', feature: 'summary', promptTokens: 3120, completionTokens: 180, costUsd: 0.0006 },
  ],
});
