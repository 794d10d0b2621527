import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources.brands,
  title: 'Marcas',
  subtitle: 'Las marcas de los productos de tu catálogo',
  newLabel: 'Nueva marca',
  editLabel: 'Editar marca',
  emptyMessage: 'Aún no hay marcas registradas',
  noResultsMessage: 'Ninguna marca coincide con la búsqueda',
  columns: ['name', 'description', 'logoUrl'],
  fields: { description: { widget: 'textarea' } },
});
