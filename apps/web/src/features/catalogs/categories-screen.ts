import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources.categories,
  title: 'Categorías',
  subtitle: 'Las categorías de los productos de tu catálogo',
  newLabel: 'Nueva categoría',
  editLabel: 'Editar categoría',
  emptyMessage: 'Aún no hay categorías registradas',
  noResultsMessage: 'Ninguna categoría coincide con la búsqueda',
  columns: ['name', 'parentId', 'description'],
  fields: { parentId: { label: 'Categoría padre' }, description: { widget: 'textarea' } },
});
