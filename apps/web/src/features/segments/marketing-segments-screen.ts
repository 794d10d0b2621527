import { countries, leadStatusLabels, platformLabels, resources, segmentFrequencyLabels } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { SegmentSendAction } from '../massive-messages/segment-send-action';
import { SegmentPreview } from './segment-preview';

const countryLabels = Object.fromEntries(countries.map((c) => [c.code, c.name]));

/**
 * /marketing/segmentos (decision 0039): a segment is a saved filter over clean leads; its form
 * counts and samples who is in it as it is edited.
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
      },
    },
  },
  formAside: (body) => createElement(SegmentPreview, { filters: (body.filters as Record<string, unknown> | undefined) ?? {} }),
  // a massive message to the segment (decision 0043)
  rowActions: (row) => createElement(SegmentSendAction, { row }),
});
