import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources.locaciones,
  title: 'Locaciones',
  subtitle: 'Tus tiendas y almacenes',
  newLabel: 'Nueva locación',
  editLabel: 'Editar locación',
  emptyMessage: 'Aún no hay locaciones registradas',
  noResultsMessage: 'Ninguna locación coincide con la búsqueda',
  columns: ['name', 'city', 'address', 'phone'],
  form: ['name', 'address', 'city', 'phone'],
});
