import { resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { RetailRocketImportAction } from './import-action';

export const screen = defineScreen({
  resource: resources['retail-rocket-tags'],
  title: 'Etiquetas de RetailRocket',
  subtitle: 'Los segmentos de tu tienda en RetailRocket: «Importar segmento» da su etiqueta a las personas del segmento',
  newLabel: 'Nueva etiqueta',
  editLabel: 'Editar etiqueta',
  emptyMessage: 'Aún no hay etiquetas de RetailRocket',
  noResultsMessage: 'Ninguna etiqueta coincide con la búsqueda',
  columns: ['name', 'segmentId', 'description'],
  fields: { segmentId: { label: 'Id del segmento' }, description: { widget: 'textarea' } },
  rowActions: (row) => createElement(RetailRocketImportAction, { tag: row }),
});
