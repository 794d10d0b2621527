import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources.catalogs,
  title: 'Catálogos',
  subtitle: 'Catálogos digitales con los productos que compartes con tus clientes',
  newLabel: 'Nuevo catálogo',
  editLabel: 'Editar catálogo',
  emptyMessage: 'Aún no hay catálogos',
  noResultsMessage: 'Ningún catálogo coincide con la búsqueda',
  columns: ['name', 'description', 'isDefault', 'productIds'],
  fields: { description: { widget: 'textarea' }, isDefault: { label: 'Catálogo predeterminado' }, productIds: { label: 'Productos' } },
});
