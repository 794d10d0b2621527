import { consultationMotiveLabels, countries, leadStatusLabels, platformLabels, resources, segmentFrequencyLabels, sentimentLabels } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { SegmentSendAction } from '../massive-messages/segment-send-action';
import { SegmentPreview } from './segment-preview';

const countryLabels = Object.fromEntries(countries.map((c) => [c.code, c.name]));

/**
 * /marketing/segmentos (decision 0039): a segment is a saved filter over clean leads; its form
 * counts and samples who is in it as it is edited. What the customer did (decision 0101): their
 * latest analysed chat, an open complaint, their orders and paid revenue, the days since their
 * last order and message.
 */
export const screen = defineScreen({
  resource: resources['marketing-segments'],
  title: 'Segmentos',
  subtitle: 'Grupos de leads a los que diriges tus campañas',
  newLabel: 'Nuevo segmento',
  editLabel: 'Editar segmento',
  emptyMessage: 'Aún no hay segmentos',
  noResultsMessage: 'Ningún segmento coincide con la búsqueda',
  columns: ['name', 'description', 'createdAt'],
  fields: {
    description: { widget: 'textarea' },
    filters: {
      label: 'Filtros',
      fields: {
        mostradorLabelIds: { label: 'Etiquetas Mostrador', refs: ['mostrador-labels'] },
        statuses: { label: 'Estados del lead', options: leadStatusLabels },
        platforms: { label: 'Plataformas', options: platformLabels },
        agenteIds: { label: 'Agentes', refs: ['agentes'] },
        countries: { label: 'Países (por el teléfono)', options: countryLabels },
        createdFrom: { label: 'Creados desde', widget: 'date' },
        createdTo: { label: 'Creados hasta', widget: 'date' },
        frequencies: { label: 'Frecuencia de contacto', options: segmentFrequencyLabels, helperText: 'La que eligió el cliente en /dias-frecuencia' },
        lastSentiments: { label: 'Último sentimiento', options: sentimentLabels, helperText: 'El de su última conversación analizada' },
        lastMotives: { label: 'Último motivo de consulta', options: consultationMotiveLabels, helperText: 'El de su última conversación analizada' },
        excludeOpenComplaint: { label: 'Excluir con reclamo abierto', helperText: 'Deja fuera a quien tiene un chat sin cerrar con sentimiento negativo o un reclamo' },
        ordersMin: { label: 'Pedidos (mínimo)', helperText: 'Pedidos no cancelados' },
        ordersMax: { label: 'Pedidos (máximo)' },
        revenueMin: { label: 'Ingresos pagados (mínimo)', money: true, helperText: 'Pedidos pagados, enviados o entregados, en la moneda de la empresa' },
        revenueMax: { label: 'Ingresos pagados (máximo)', money: true },
        daysSinceOrderMin: { label: 'Días desde el último pedido (mínimo)' },
        daysSinceOrderMax: { label: 'Días desde el último pedido (máximo)' },
        daysSinceMessageMin: { label: 'Días desde su último mensaje (mínimo)', helperText: 'El último mensaje que escribió el cliente' },
        daysSinceMessageMax: { label: 'Días desde su último mensaje (máximo)' },
      },
    },
  },
  formAside: (body) => createElement(SegmentPreview, { filters: (body.filters as Record<string, unknown> | undefined) ?? {} }),
  // a massive message to the segment (decision 0043)
  rowActions: (row) => createElement(SegmentSendAction, { row }),
});
