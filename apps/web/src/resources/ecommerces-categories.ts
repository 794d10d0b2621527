import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['ecommerces-categories'],
  title: 'Categorías de e-commerce',
  subtitle: 'Las categorías de productos de tus tiendas en línea',
  newLabel: 'Nueva categoría',
  editLabel: 'Editar categoría',
  emptyMessage: 'Aún no hay categorías de e-commerce',
  noResultsMessage: 'Ninguna categoría coincide con la búsqueda',
  columns: ['name', 'slug', 'parent', 'foreignLabelId', 'createdAt'],
  fields: {
    parent: { label: 'Id de la categoría padre', helperText: '0 para una categoría principal' },
    externalId: { label: 'Id en la tienda' },
    foreignLabelId: { label: 'Etiqueta relacionada' },
  },
  defaults: { parent: 0 },
});
