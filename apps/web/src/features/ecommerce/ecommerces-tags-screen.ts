import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources['ecommerces-tags'],
  title: 'Etiquetas de e-commerce',
  subtitle: 'Las etiquetas de productos de tus tiendas en línea',
  newLabel: 'Nueva etiqueta',
  editLabel: 'Editar etiqueta',
  emptyMessage: 'Aún no hay etiquetas de e-commerce',
  noResultsMessage: 'Ninguna etiqueta coincide con la búsqueda',
  columns: ['name', 'slug', 'foreignLabelId', 'createdAt'],
  fields: { externalId: { label: 'Id en la tienda' }, foreignLabelId: { label: 'Etiqueta relacionada' } },
});
