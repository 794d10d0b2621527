import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources.colors,
  title: 'Colores',
  subtitle: 'Los colores en que se ofrecen tus productos',
  newLabel: 'Nuevo color',
  editLabel: 'Editar color',
  emptyMessage: 'Aún no hay colores registrados',
  noResultsMessage: 'Ningún color coincide con la búsqueda',
  columns: ['name', 'hex'],
  fields: { hex: { label: 'Código de color', placeholder: '#28156C' } },
});
