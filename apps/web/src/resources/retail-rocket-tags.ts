import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['retail-rocket-tags'],
  title: 'Etiquetas de RetailRocket',
  subtitle: 'Las etiquetas de segmentos de RetailRocket',
  newLabel: 'Nueva etiqueta',
  editLabel: 'Editar etiqueta',
  emptyMessage: 'Aún no hay etiquetas de RetailRocket',
  noResultsMessage: 'Ninguna etiqueta coincide con la búsqueda',
  columns: ['name', 'segmentId', 'description'],
  fields: { segmentId: { label: 'Id del segmento' }, description: { widget: 'textarea' } },
});
