import { leadStatusLabels, platformLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

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
      },
    },
  },
});
