import { llmFeatureLabels, llmOutcomeLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { CostCell } from './cells';
import { companyLocale } from '../../lib/number-format';

/**
 * /seguimiento-gpt (issue 14, decision 0046): the model-call ledger, read only (the server writes
 * a row per call). The page (features/llm/llm-tracker-page.tsx) adds the month's totals, the
 * budget, the cost per day and per feature above the list, and the AI engine's settings.
 */
export const screen = defineScreen({
  resource: resources['llm-tracker'],
  title: 'Seguimiento GPT',
  subtitle: 'Cada llamada a un modelo de lenguaje: tokens, costo, latencia y resultado',
  newLabel: 'Nuevo registro',
  editLabel: 'Editar registro',
  emptyMessage: 'Aún no hay llamadas a modelos de lenguaje registradas',
  noResultsMessage: 'Ninguna llamada coincide con la búsqueda o los filtros',
  create: false,
  edit: false,
  delete: false,
  columns: [
    'name',
    { field: 'costLocal', label: 'Costo', render: (row) => createElement(CostCell, { row }) },
    'feature',
    'outcome',
    'model',
    { field: 'tokens', label: 'Tokens (entrada / salida)', render: (row) => `${Number(row.promptTokens ?? 0).toLocaleString(companyLocale())} / ${Number(row.completionTokens ?? 0).toLocaleString(companyLocale())}` },
    { field: 'latencyMs', label: 'Latencia', render: (row) => (typeof row.latencyMs === 'number' ? `${(row.latencyMs / 1000).toLocaleString(companyLocale(), { maximumFractionDigits: 1 })} s` : '') },
    'createdAt',
  ],
  fields: {
    name: { label: 'Llamada' },
    model: { label: 'Modelo' },
    feature: { label: 'Función', options: llmFeatureLabels },
    outcome: { label: 'Resultado', options: llmOutcomeLabels },
    promptTokens: { label: 'Tokens de entrada' },
    completionTokens: { label: 'Tokens de salida' },
    costUsd: { label: 'Costo (USD)' },
    costLocal: { label: 'Costo' },
    latencyMs: { label: 'Latencia (ms)' },
    error: { label: 'Error' },
  },
});
