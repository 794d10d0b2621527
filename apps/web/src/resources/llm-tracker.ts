import { llmFeatureLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['llm-tracker'],
  title: 'Seguimiento GPT',
  subtitle: 'El uso de modelos de lenguaje: tokens y costo por función',
  newLabel: 'Nuevo registro',
  editLabel: 'Editar registro',
  emptyMessage: 'Aún no hay uso de GPT registrado',
  noResultsMessage: 'Ningún registro coincide con la búsqueda',
  columns: ['name', 'model', 'feature', 'promptTokens', 'completionTokens', 'costUsd', 'createdAt'],
  fields: {
    model: { label: 'Modelo' },
    feature: { label: 'Función', options: llmFeatureLabels },
    promptTokens: { label: 'Tokens de entrada' },
    completionTokens: { label: 'Tokens de salida' },
    costUsd: { label: 'Costo (USD)' },
  },
});
